/**
 * `POST /mcp`: the Model Context Protocol over Streamable HTTP, stateless (every request is a
 * whole exchange; no session is kept between them, so any process of the service answers any
 * request). Authenticated by the API's own bearer tokens: the tools a caller sees are the ones
 * its key may call, and each tool call is a request to the API with the same token.
 */
import Type from 'typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { bearerToken, type TokenResolver } from '../../platform/auth.js';
import { hashToken } from '../../platform/crypto.js';
import { AppError, unauthorized, type ErrorCode } from '../../platform/errors.js';
import type { App } from '../../platform/http.js';
import { ErrorBody } from '../../platform/schemas.js';
import type { McpCaller } from './operation-call.js';

/** The SDK's part, loaded on the first MCP request (exchange.ts says why). */
let exchangeModule: Promise<typeof import('./exchange.js')> | undefined;
const loadExchange = () => {
  exchangeModule ??= import('./exchange.js');
  return exchangeModule;
};

export const MCP_PATH = '/mcp';
/** One MCP message at most (a draft order of 1,000 goods is about 300 kB). */
export const MCP_BODY_LIMIT = 1024 * 1024;

const tags = ['MCP'];

/** The services these routes use, and no other. */
export interface McpRouteServices {
  tokens: TokenResolver;
  config: { publicUrl: string; rateLimitPerMinute: number };
}

/**
 * MCP messages a minute per token (per address without one), as many as the API's per-token
 * limit: /mcp is outside /v2, whose limit does not count it, and a tools/list or a refused
 * token costs work too. Each tool call also spends the token's API budget (it is an API call).
 */
function mcpRateLimit(
  app: App,
  perMinute: number,
): ((request: FastifyRequest, reply: FastifyReply) => Promise<void>) | null {
  if (perMinute <= 0 || !app.hasDecorator('createRateLimit')) return null;
  const limiter = app.createRateLimit({
    max: perMinute,
    timeWindow: 60_000,
    keyGenerator: (request) => {
      const token = bearerToken(request);
      return token ? `mcp:token:${hashToken(token)}` : `mcp:ip:${request.ip}`;
    },
  });
  return async (request, reply) => {
    const verdict = await limiter(request);
    if (verdict.isAllowed || !verdict.isExceeded) return;
    const seconds = Math.max(1, verdict.ttlInSeconds);
    reply.header('retry-after', String(seconds));
    throw new AppError(
      429,
      'rate_limited',
      `Too many requests: at most ${verdict.max} MCP messages a minute for one token. Retry in ${seconds} s.`,
    );
  };
}

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

/** The HTTP caller as its tool calls present themselves to the API. */
function callerOf(request: FastifyRequest, token: string): McpCaller {
  return {
    authorization: `Bearer ${token}`,
    ip: request.ip,
    shopId: headerText(request.headers['shop-id']),
    acceptLanguage: headerText(request.headers['accept-language']),
    userAgent: headerText(request.headers['user-agent']) ?? 'MCP client',
  };
}

/** The Fastify request as the SDK's web-standard transport reads it (the body is already parsed and bounded). */
function webRequestOf(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || name === 'content-length') continue;
    headers.set(name, headerText(value) ?? '');
  }
  return new Request(`http://${request.hostname || 'localhost'}${MCP_PATH}`, { method: request.method, headers });
}

/** The codes of the transport's own refusals (a missing Accept, a body that is no JSON-RPC message). */
const TRANSPORT_REFUSALS: Record<number, ErrorCode> = { 406: 'not_acceptable', 415: 'unsupported_media_type' };

/**
 * The transport refuses in JSON-RPC's words (`{jsonrpc, error: {code, message}, id: null}`); the
 * MCP specification lets an HTTP error carry any body, so it is the house's, with the
 * transport's sentence (clients read the status; people and logs the house body).
 */
function transportRefusal(status: number, text: string): AppError {
  let said = '';
  try {
    said = String((JSON.parse(text) as { error?: { message?: unknown } }).error?.message ?? '');
  } catch {
    said = '';
  }
  return new AppError(
    status,
    TRANSPORT_REFUSALS[status] ?? 'bad_request',
    `The MCP request was refused: ${said || `status ${status}`}.`,
  );
}

function methodNotAllowed(request: FastifyRequest, reply: FastifyReply): never {
  reply.header('allow', 'POST');
  throw new AppError(
    405,
    'method_not_allowed',
    `${request.method} ${MCP_PATH}: this MCP server is stateless and takes POST only (no event stream, no session to end).`,
  );
}

export function mcpRoutes(app: App, services: McpRouteServices): void {
  const limit = mcpRateLimit(app, services.config.rateLimitPerMinute);
  app.post(
    MCP_PATH,
    {
      bodyLimit: MCP_BODY_LIMIT,
      ...(limit ? { onRequest: limit } : {}),
      schema: {
        operation: { id: 'callMcp' },
        tags,
        summary: 'Model Context Protocol (Streamable HTTP) for AI agents',
        description:
          'JSON-RPC messages of the Model Context Protocol (initialize, tools/list, tools/call, resources/list, resources/read), answered as JSON (stateless: no Mcp-Session-Id). ' +
          'Send `Authorization: Bearer <token>` (any API token or key; a scoped key sees only the tools it may call) and `Accept: application/json, text/event-stream`. ' +
          'Each tool call is the API operation it names, made with the same token, Shop-Id and address: validated, rate-limited and audited as that operation. At most 1 MB a message.',
        response: {
          200: Type.Unsafe<unknown>({ description: 'The JSON-RPC answer(s)' }),
          202: Type.Unsafe<undefined>({ description: 'Notifications only: accepted, nothing to answer' }),
          400: ErrorBody,
          401: ErrorBody,
          406: { ...ErrorBody, description: 'Accept must name application/json and text/event-stream' },
          413: ErrorBody,
          415: { ...ErrorBody, description: 'The body is not application/json' },
          429: {
            ...ErrorBody,
            description: 'Too many MCP messages this minute for the token: retry after Retry-After',
          },
        },
      },
    },
    async (request, reply) => {
      const token = bearerToken(request);
      if (!token)
        throw request.headers.authorization
          ? unauthorized('The Authorization header must be "Bearer <token>".')
          : unauthorized();
      const scope = await services.tokens.resolve(token);
      if (!scope) throw new AppError(401, 'invalid_token', 'The token is unknown, revoked or expired.');
      const { exchange } = await loadExchange();
      const answer = await exchange(
        { app, scope, caller: callerOf(request, token), publicUrl: services.config.publicUrl },
        webRequestOf(request),
        request.body,
      );
      if (answer.status >= 400) throw transportRefusal(answer.status, answer.text);
      (reply as FastifyReply).code(answer.status);
      for (const [name, value] of answer.headers) reply.header(name, value);
      return reply.send(answer.text === '' ? undefined : answer.text);
    },
  );
  for (const method of ['GET', 'DELETE'] as const)
    app.route({
      method,
      url: MCP_PATH,
      schema: { hide: true },
      handler: async (request, reply) => methodNotAllowed(request, reply),
    });
}

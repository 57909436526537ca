/**
 * HTTP conventions every route shares: body parsing (JSON and PHP-style form bodies),
 * the x-log-id header, the error body and the 404 body.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type {
  ConnectionError,
  FastifyBaseLogger,
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  RawServerDefault,
} from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import formbody from '@fastify/formbody';
import { AppError, type ErrorCode, type ErrorItem } from './errors.js';
import { markFormEncoded } from './validation.js';
import { parseForm } from './form-body.js';
import { errorLanguage, refusalIn } from './error-language.js';

/** A query string the form reader refused: kept on the parsed query, thrown by the first hook (the router cannot answer). */
const QUERY_REFUSAL = Symbol('query refusal');

/** Query strings: `ids[0]=1&a[b][c]=2` (form-body.ts), bounded in fields and depth. */
export function parseQueryString(text: string): Record<string, unknown> {
  try {
    return parseForm(text);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return Object.defineProperty({}, QUERY_REFUSAL, { value: error });
  }
}

/**
 * The deepest nesting of objects and arrays a JSON body may have. No request schema goes
 * beyond a few levels; a deeper body is hostile (thousands of levels overflowed the stack of
 * JSON.stringify when stored) and is refused before it is parsed.
 */
export const MAX_JSON_DEPTH = 32;

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Whether the text has more than `limit` opening brackets at all (native search, no string tracking). */
function opensMoreThan(text: string, limit: number): boolean {
  let count = 0;
  for (const bracket of ['{', '[']) {
    for (let at = text.indexOf(bracket); at !== -1; at = text.indexOf(bracket, at + 1)) {
      count += 1;
      if (count > limit) return true;
    }
  }
  return false;
}

/** Whether JSON text nests deeper than `limit`; brackets inside strings do not count. */
export function jsonNestsDeeperThan(text: string, limit: number): boolean {
  // A body with few brackets (an import's one long base64 string) cannot be deep: skip the scan.
  if (!opensMoreThan(text, limit)) return false;
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === BACKSLASH) index += 1;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) inString = true;
    else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      depth += 1;
      if (depth > limit) return true;
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) depth -= 1;
  }
  return false;
}

/**
 * A JSON document sent as a form (`curl -d '{"ids":[1]}'` sends application/x-www-form-urlencoded)
 * would be read as one odd field name, and the call refused for missing fields it does hold:
 * said as what it is instead.
 */
function refuseJsonAsForm(text: string): string {
  const first = text.trimStart()[0];
  if (first !== '{' && first !== '[') return text;
  try {
    JSON.parse(text);
  } catch {
    return text;
  }
  throw new AppError(
    400,
    'json_sent_as_form',
    'The body is JSON but its Content-Type says a form (application/x-www-form-urlencoded, which curl -d sends): send the header Content-Type: application/json.',
  );
}

export function newLogId(): string {
  return randomUUID().replace(/-/g, '');
}

export interface ErrorBodyShape {
  code: ErrorCode;
  message: string;
  errors: ErrorItem[];
  logId: string;
}

/** What a Fastify framework error (bad JSON, too large, wrong media type) means to a client. */
function describeFrameworkError(error: FastifyError): { status: number; code: ErrorCode; message: string } | null {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { status: 413, code: 'body_too_large', message: 'The request body is larger than this endpoint accepts.' };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return {
        status: 415,
        code: 'unsupported_media_type',
        message: 'Send the body as application/json or application/x-www-form-urlencoded.',
      };
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { status: 400, code: 'bad_request', message: 'The Content-Length header does not match the body.' };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return { status: 400, code: 'invalid_json', message: 'The body is not valid JSON.' };
    default:
      break;
  }
  if (error instanceof SyntaxError || error.name === 'SyntaxError') {
    return { status: 400, code: 'invalid_json', message: 'The body is not valid JSON.' };
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) return { status, code: 'bad_request', message: error.message };
  return null;
}

/** The house error body in the caller's language (error-language.ts: Russian when Accept-Language asks for it first). */
export function inCallersLanguage(request: FastifyRequest, body: ErrorBodyShape): ErrorBodyShape {
  const language = errorLanguage(request.headers['accept-language']);
  return language === 'en' ? body : { ...body, ...refusalIn(language, body) };
}

function sendError(reply: FastifyReply, status: number, body: ErrorBodyShape): void {
  void reply.status(status).type('application/json; charset=utf-8').send(inCallersLanguage(reply.request, body));
}

/**
 * A path parameter longer than this is answered 414 before routing. Ids are at most 16 digits
 * and file names 30 characters; up to here a long value still reaches validation, which names
 * the parameter in a 400.
 */
export const MAX_PARAM_LENGTH = 500;

/**
 * Fastify's `frameworkErrors`: what the router refuses before any hook runs (a malformed
 * %-escape in the path, an over-long path parameter), answered in the house way.
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  reply.header('x-log-id', request.id);
  const body = (code: ErrorCode, message: string): ErrorBodyShape => ({ code, message, errors: [], logId: request.id });
  if (error.code === 'FST_ERR_BAD_URL') {
    request.log.info({ code: 'bad_url', status: 400 }, error.message);
    sendError(reply, 400, body('bad_url', 'The URL is not valid: it holds a malformed %-escape.'));
    return;
  }
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    request.log.info({ code: 'path_parameter_too_long', status: 414 }, error.message);
    sendError(
      reply,
      414,
      body('path_parameter_too_long', `A part of the URL path is longer than ${MAX_PARAM_LENGTH} characters.`),
    );
    return;
  }
  request.log.error({ err: error }, 'Unhandled framework error');
  sendError(
    reply,
    500,
    body('internal_error', 'Something went wrong on our side. Please quote the log id to support.'),
  );
}

const CLIENT_ERRORS: Record<string, { status: number; reason: string; code: ErrorCode; message: string }> = {
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408,
    reason: 'Request Timeout',
    code: 'request_timeout',
    message: 'The request did not arrive in time.',
  },
  HPE_HEADER_OVERFLOW: {
    status: 431,
    reason: 'Request Header Fields Too Large',
    code: 'headers_too_large',
    message: 'The request headers are larger than the server accepts.',
  },
};

/**
 * Fastify's `clientErrorHandler`: a request Node's HTTP parser could not read never becomes a
 * request, so it is answered here on the socket, still with a log id and the house body.
 */
export function answerClientError(this: FastifyInstance, error: ConnectionError, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const known = CLIENT_ERRORS[error.code] ?? {
    status: 400,
    reason: 'Bad Request',
    code: 'bad_request',
    message: 'The request is not valid HTTP.',
  };
  const logId = newLogId();
  this.log.info({ logId, code: known.code, status: known.status, err: error }, 'client error');
  if (socket.writable) {
    const body = JSON.stringify({
      code: known.code,
      message: known.message,
      errors: [],
      logId,
    } satisfies ErrorBodyShape);
    socket.write(
      `HTTP/1.1 ${known.status} ${known.reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `x-log-id: ${logId}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

export function installHttpConventions(app: FastifyInstance): void {
  // Once the server stops (stopping.ts): requests that arrive on a kept-alive connection are
  // refused here rather than by Fastify's own bare 503 (`return503OnClosing: false` in app.ts),
  // and every answer still to be sent says `Connection: close`, so Node ends its connection
  // instead of holding the stop until the keep-alive timeout.
  let stopping = false;
  app.addHook('preClose', (done) => {
    stopping = true;
    done();
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (stopping && !reply.raw.headersSent) reply.header('connection', 'close');
    done(null, payload);
  });

  // The log id goes on every response, errors and 404s included, as early as possible.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-log-id', request.id);
    const refusal = (request.query as { [QUERY_REFUSAL]?: AppError } | undefined)?.[QUERY_REFUSAL];
    if (refusal) {
      done(refusal);
      return;
    }
    if (stopping) {
      reply.header('connection', 'close');
      sendError(reply, 503, {
        code: 'shutting_down',
        message: 'The server is stopping; send the request again.',
        errors: [],
        logId: request.id,
      });
      return;
    }
    done();
  });

  // Bodies: JSON, where an empty body means "no fields" (operations without parameters);
  // and form-encoded with bracket keys as PHP sends them.
  const defaultJsonParser = app.getDefaultJsonParser('error', 'remove');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    if (jsonNestsDeeperThan(text, MAX_JSON_DEPTH)) {
      done(
        new AppError(400, 'json_too_deep', `The body nests objects or arrays more than ${MAX_JSON_DEPTH} levels deep.`),
        undefined,
      );
      return;
    }
    defaultJsonParser(request, text, done);
  });
  void app.register(formbody, { parser: (text: string) => markFormEncoded(parseForm(refuseJsonAsForm(text))) });

  app.setErrorHandler((error: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply) => {
    const logId = request.id;
    if (error instanceof AppError) {
      request.log.info(
        { code: error.code, status: error.statusCode, errors: error.errors.slice(0, 20) },
        error.message,
      );
      sendError(reply, error.statusCode, { code: error.code, message: error.message, errors: error.errors, logId });
      return;
    }
    const known = describeFrameworkError(error as FastifyError);
    if (known) {
      request.log.info({ code: known.code, status: known.status }, known.message);
      sendError(reply, known.status, { code: known.code, message: known.message, errors: [], logId });
      return;
    }
    request.log.error({ err: error }, 'Unhandled error');
    sendError(reply, 500, {
      code: 'internal_error',
      message: 'Something went wrong on our side. Please quote the log id to support.',
      errors: [],
      logId,
    });
  });

  app.setNotFoundHandler((request, reply) => {
    sendError(reply, 404, {
      code: 'route_not_found',
      message: `There is no ${request.method} ${request.url.split('?')[0]} endpoint.`,
      errors: [],
      logId: request.id,
    });
  });
}

/** The Fastify instance as routes see it: TypeBox schemas give typed requests. */
export type App = FastifyInstance<
  RawServerDefault,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/**
 * What operators and browsers need beside the API itself: the caller's X-Request-Id as the
 * log id, CORS for pages of allowed origins, and GET /version.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { IncomingMessage } from 'node:http';
import cors, { type FastifyCorsOptions } from '@fastify/cors';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import Type from 'typebox';
import { AppError } from './errors.js';
import { newLogId } from './http.js';
import { PROJECT_ROOT } from './reference-data.js';

/** Ids a caller may choose: what tracing systems send (UUIDs, hex, ULIDs, `Root=1-…`), nothing that could break a log line or a header. */
const ACCEPTED_REQUEST_ID = /^[A-Za-z0-9._:=+/-]{1,128}$/;

/** The log id of a request: the caller's X-Request-Id when it is a safe token, else a new one. */
export function requestIdOf(raw: IncomingMessage): string {
  const given = raw.headers['x-request-id'];
  return typeof given === 'string' && ACCEPTED_REQUEST_ID.test(given) ? given : newLogId();
}

/** Echoes the request's id (the caller's, or the one generated) as x-request-id; x-log-id stays. */
export function installRequestIdEcho(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
}

/** Headers a browser page may send: those of the contract, of our extensions, and tracing. */
const CORS_ALLOWED_HEADERS = [
  'Authorization',
  'Shop-Id',
  'Content-Type',
  'Idempotency-Key',
  'X-Request-Id',
  'Type',
  'Company-Id',
];
/** Headers a browser page may read: paging, support ids, rate limits. */
export const CORS_EXPOSED_HEADERS = [
  'X-Total-Count',
  'X-Page',
  'X-Per-Page',
  'x-log-id',
  'x-request-id',
  'Retry-After',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'X-Calculation-Problem',
];

/**
 * CORS for CORS_ORIGINS (none by default: a bearer token in a page is readable by everyone
 * who opens it, so browser access is an operator's choice). Register before authentication,
 * so refusals (401, 429) carry the headers too and the page can read why.
 */
/** Paths whose CORS answer depends on the request (the checkout widget's: by its key's origins). */
export interface CorsDelegate {
  prefix: string;
  options(request: FastifyRequest): Promise<FastifyCorsOptions>;
}

export async function installCors(
  app: FastifyInstance,
  origins: string[],
  delegates: CorsDelegate[] = [],
): Promise<void> {
  if (origins.length === 0 && delegates.length === 0) return;
  const options: FastifyCorsOptions =
    origins.length === 0
      ? { origin: false }
      : {
          // An array, even of one: the plugin then answers only a matching Origin instead of always naming it.
          origin: origins.includes('*') ? '*' : origins,
          methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
          allowedHeaders: CORS_ALLOWED_HEADERS,
          exposedHeaders: CORS_EXPOSED_HEADERS,
          // Tokens travel in Authorization, never in cookies: no credentials mode.
          credentials: false,
          maxAge: 600,
        };
  // The plugin answers a preflight without Origin or Access-Control-Request-Method with a bare
  // text 400; this hook, registered first, gives the same refusal the house's body.
  app.addHook('onRequest', async (request) => {
    if (request.method !== 'OPTIONS') return;
    if (request.headers.origin && request.headers['access-control-request-method']) return;
    throw new AppError(
      400,
      'bad_request',
      'A CORS preflight (OPTIONS) needs the Origin and Access-Control-Request-Method headers a browser sends.',
    );
  });
  // One registration for all (the plugin decorates the request once); a delegate answers for its own paths.
  await app.register(cors, {
    delegator: (request, callback) => {
      const own = delegates.find((delegate) => request.url.startsWith(delegate.prefix));
      if (!own) return callback(null, options);
      own.options(request).then(
        (answer) => callback(null, answer),
        (error: Error) => callback(error, { origin: false }),
      );
    },
  });
}

function packageVersion(): string {
  const text = fs.readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8');
  return (JSON.parse(text) as { version: string }).version;
}

/** GET /version: what runs here, without a token (support asks for it first). */
export function installVersionRoute(app: FastifyInstance, config: { databaseKind: string }, apiVersion: string): void {
  const answer = { version: packageVersion(), node: process.version, database: config.databaseKind, apiVersion };
  app.get(
    '/version',
    {
      config: { public: true },
      schema: {
        operation: { id: 'getVersion' },
        tags: ['Service'],
        summary: 'Versions of the service, Node.js and the API, and the database kind',
        security: [],
        response: {
          200: Type.Object({
            version: Type.String({ description: 'of this service (package.json)' }),
            node: Type.String({ description: 'Node.js running it' }),
            database: Type.Union([Type.Literal('sqlite'), Type.Literal('postgres')], {
              description: 'The database engine: sqlite or postgres',
            }),
            apiVersion: Type.String({ description: 'of the API contract served under /v2' }),
          }),
        },
      },
    },
    async () => answer,
  );
}

/** buildApp: Fastify with the platform's conventions and every area's routes. */
import { compiledOnFirstCall, lazySerializerFactory } from './platform/lazy-compilers.js';
import Fastify, { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { TSchema } from 'typebox';
import type { Config } from './config.js';
import type { Database } from './platform/db/database.js';
import { installAuditContext } from './platform/audit.js';
import { installAuthentication } from './platform/auth.js';
import { installKeyScopes } from './platform/key-scopes.js';
import { fileRoutes } from './platform/file-routes.js';
import {
  answerClientError,
  answerFrameworkError,
  installHttpConventions,
  MAX_PARAM_LENGTH,
  parseQueryString,
  type App,
} from './platform/http.js';
import { installIdempotency } from './platform/idempotency.js';
import { collectOperation, openapiTransforms } from './platform/openapi.js';
import { API_DOCUMENT_PLAN } from './api-document.js';
import { installRequestMetrics, metricsRoute } from './platform/metrics.js';
import { installCors, installRequestIdEcho, installVersionRoute, requestIdOf } from './platform/operations.js';
import { installRateLimits } from './platform/rate-limit.js';
import { installSessions } from './platform/session.js';
import { compileValidator, type RequestPart } from './platform/validation.js';
import type { Services } from './services.js';
import { AREAS, type AreaContext } from './modules.js';

export interface AppOptions {
  config: Config;
  database: Database;
  services: Services;
  /** Where log lines go (stdout by default); tests read them. */
  logStream?: NodeJS.WritableStream;
}

export const API_VERSION = '2.0.0';

const INFO_ENABLED = new Set(['info', 'debug', 'trace']);

/** One log line per request (at info), the incoming line only at debug. */
class RequestLogController extends LogController {
  constructor() {
    super({
      requestIdLogLabel: 'logId',
      disableRequestLogging: (request) => request.url === '/health' || request.url === '/ready',
    });
  }

  override incomingRequest(request: FastifyRequest): void {
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (!error && !INFO_ENABLED.has(reply.log.level)) return;
    const line = {
      method: request.method,
      url: request.url,
      statusCode: reply.statusCode,
      responseTime: Math.round(reply.elapsedTime * 10) / 10,
    };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}

/** The API docs page (/docs): Swagger UI writes style attributes, nothing else inline. */
const DOCS_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "script-src-attr 'none'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export async function buildApp({ config, database, services, logStream }: AppOptions): Promise<App> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: ['req.headers.authorization', 'req.headers.cookie'],
      ...(logStream ? { stream: logStream } : {}),
    },
    logController: new RequestLogController(),
    // A caller's X-Request-Id (when safe) becomes the log id, so its traces and ours meet.
    genReqId: requestIdOf,
    requestIdHeader: false,
    bodyLimit: config.bodyLimit,
    routerOptions: { querystringParser: parseQueryString, ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
    // Answers Fastify gives before or outside routing, in the house way (x-log-id, error body).
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
    return503OnClosing: false,
    // each route's serializer is compiled on its first answer (platform/lazy-compilers.ts)
    schemaController: { compilersFactory: { buildSerializer: lazySerializerFactory() } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.setValidatorCompiler(({ schema, httpPart, method }) =>
    compiledOnFirstCall(() => {
      // PATCH bodies: an absent field keeps its value, so an empty one means "make it empty".
      const validator = compileValidator(schema as TSchema, (httpPart ?? 'body') as RequestPart, {
        partial: method === 'PATCH',
      });
      return (data: unknown) => {
        try {
          return { value: validator.parse(data) };
        } catch (error) {
          return { error: error as Error };
        }
      };
    }),
  );

  // every operation's id, contract section and examples, from its route schema (platform/openapi.ts)
  app.addHook('onRoute', (route) => collectOperation(route, API_DOCUMENT_PLAN.operations));
  const context: AreaContext = { ...services, config };

  installHttpConventions(app);
  installRequestIdEcho(app);
  installRequestMetrics(app, services.metrics);
  await installCors(
    app,
    config.corsOrigins,
    AREAS.flatMap((area) => (area.cors ? [area.cors()] : [])),
  );
  await installSessions(app, {
    csrfKey: services.sessionCsrfKey,
    secure: config.publicUrl.startsWith('https:'),
    publicUrl: config.publicUrl,
  });
  await installRateLimits(app, {
    perMinute: config.rateLimitPerMinute,
    loginPerMinute: config.loginRateLimitPerMinute,
    loginFailuresPerAddressPerMinute: config.loginFailuresPerAddressPerMinute,
    linkMailsPerAddressPerHour: config.linkMailsPerAddressPerHour,
  });
  installAuthentication(app, services.tokens);
  // a scoped key's scopes, checked once per request from what each route needs (worked out as it registers)
  installKeyScopes(app);
  // every operation that is not a read runs as an audited change (platform/audit.ts)
  installAuditContext(app);
  for (const area of AREAS) area.requestHooks?.(app, context);
  installIdempotency(app, database);

  // Routes with a body accept JSON and PHP-style form bodies; say so in the OpenAPI document.
  app.addHook('onRoute', (route) => {
    if (route.schema?.body && !route.schema.consumes) {
      route.schema.consumes = ['application/json', 'application/x-www-form-urlencoded'];
    }
  });

  await app.register(swagger, {
    // operationIds, contract sections, headers, named schemas and examples (src/api-document.ts)
    ...openapiTransforms(API_DOCUMENT_PLAN),
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Delivery and fulfilment service API',
        version: API_VERSION,
        license: { name: 'MIT', identifier: 'MIT' },
        description:
          'Prices deliveries across delivery companies, creates and ships orders, prints labels and acts, tracks parcels, books pickups, keeps fulfilment stock. ' +
          'Send the header `Authorization: Bearer YOUR_TOKEN` (an account token, an employee login token or a shop API key). Bodies may be JSON or form-encoded with bracket keys. ' +
          'Errors are {code, message, errors[], logId}; every response carries x-log-id. An X-Request-Id header (letters, digits, ._:=+/-, up to 128) becomes the log id. Lists take page (from 1) and perPage (default 20, at most 1000) and answer X-Total-Count.',
      },
      servers: [{ url: config.publicUrl }],
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
  });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    // the page shares the dashboard's origin (and so could read a session's CSRF token): its own
    // scripts only (Swagger UI has no inline script), calls only to this origin, never framed
    staticCSP: DOCS_CONTENT_SECURITY_POLICY,
    uiHooks: {
      onRequest: (_request, reply, done) => {
        reply.header('x-content-type-options', 'nosniff').header('referrer-policy', 'same-origin');
        done();
      },
    },
  });

  app.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => app.swagger());

  installVersionRoute(app, config, API_VERSION);
  metricsRoute(app, services.metrics, config.metricsToken);
  app.get(
    '/health',
    {
      config: { public: true },
      schema: { operation: { id: 'getHealth' }, tags: ['Service'], summary: 'The process is alive', security: [] },
    },
    async () => ({ status: 'ok' }),
  );
  app.get(
    '/ready',
    {
      config: { public: true },
      schema: { operation: { id: 'getReadiness' }, tags: ['Service'], summary: 'The database answers', security: [] },
    },
    async (request, reply) => {
      try {
        await database.ping();
        return { status: 'ready' };
      } catch (error) {
        request.log.warn({ err: error }, 'database not reachable');
        return reply
          .code(503)
          .send({ code: 'not_ready', message: 'The database does not answer.', errors: [], logId: request.id });
      }
    },
  );

  fileRoutes(
    app,
    services.files,
    services.tokens,
    async (name) =>
      (await services.analyticalReports.isPendingFile(name)) || (await services.documents.isPendingFile(name)),
  );
  for (const area of AREAS) await area.routes?.(app, context);
  services.contractCompanies.useLogger(app.log);
  app.addHook('onClose', async () => services.contractCompanies.shutdown());

  return app;
}

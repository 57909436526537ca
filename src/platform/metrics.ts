/**
 * Prometheus metrics of one process: HTTP requests by route pattern and status, the job
 * table, the PostgreSQL pool, and how delivery companies answer the calculator. Each
 * runtime has its own registry (tests build several apps in one process).
 */
import { timingSafeEqual } from 'node:crypto';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sha256 } from './crypto.js';
import type { Database } from './db/database.js';
import { AppError, unauthorized } from './errors.js';
import type { JobQueue } from './jobs.js';

/** Requests that matched no route share one label: raw URLs would make a series per probe. */
const UNMATCHED_ROUTE = '(unmatched)';

export interface MetricSources {
  database: Pick<Database, 'kind' | 'poolStats'>;
  jobs: Pick<JobQueue, 'countByStatus'>;
}

/**
 * What the calculator and the remote-call layer report, as metrics take them: the platform
 * names the shapes and the callers (calculator's `CompanyQuoteObserver`, carriers'
 * `RemoteCallObserver`) match them structurally, so no area is imported here.
 */
export type QuoteOutcome = 'ok' | 'error' | 'timeout';
export interface RemoteCallReport {
  company: string;
  operation: string;
  durationMs: number;
  outcome: string;
  attempts: number;
}

export class Metrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly requestSeconds: Histogram<'method' | 'route' | 'status'>;
  private readonly companySeconds: Histogram<'company' | 'outcome'>;
  private readonly companyTimeouts: Counter<'company'>;
  private readonly remoteCalls: Counter<'company' | 'operation' | 'outcome'>;
  private readonly remoteSeconds: Histogram<'company' | 'operation'>;

  constructor(sources: MetricSources) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.requests = new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests answered, by route pattern and status.',
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    this.requestSeconds = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from receiving a request to sending its answer, by route pattern and status.',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    this.companySeconds = new Histogram({
      name: 'delivery_calculator_company_duration_seconds',
      help: 'How long each delivery company took to quote a calculator call; outcome ok, error or timeout (missed the deadline).',
      labelNames: ['company', 'outcome'],
      buckets: [0.001, 0.005, 0.025, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30],
      registers,
    });
    this.remoteCalls = new Counter({
      name: 'delivery_carrier_remote_calls_total',
      help: "Calls to real delivery companies' APIs (retries inside one call counted once), by company, operation and outcome: ok, refused, auth, failed, timeout, open (circuit open: not asked).",
      labelNames: ['company', 'operation', 'outcome'],
      registers,
    });
    this.remoteSeconds = new Histogram({
      name: 'delivery_carrier_remote_call_duration_seconds',
      help: 'How long calls to real delivery companies took, retries and back-off included.',
      labelNames: ['company', 'operation'],
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    this.companyTimeouts = new Counter({
      name: 'delivery_calculator_company_timeouts_total',
      help: 'Calculator calls a delivery company left unanswered by the deadline.',
      labelNames: ['company'],
      registers,
    });

    // Job counts come from the shared job table: every process of one database reports the same numbers.
    const seenJobSeries = new Set<string>();
    new Gauge({
      name: 'delivery_jobs',
      help: 'Background jobs in the job table by kind and status: pending (queue depth), running, failed (gave up; kept until purged).',
      labelNames: ['kind', 'status'],
      registers,
      async collect() {
        let counts: Awaited<ReturnType<MetricSources['jobs']['countByStatus']>>;
        try {
          counts = await sources.jobs.countByStatus();
        } catch {
          return; // a scrape must not fail because the database is away; /ready reports that
        }
        // A series once seen drops to 0 instead of vanishing, so rates and alerts stay continuous.
        for (const key of seenJobSeries) {
          const [kind, status] = key.split('\u0000');
          this.set({ kind, status }, 0);
        }
        for (const { kind, status, count } of counts) {
          seenJobSeries.add(`${kind}\u0000${status}`);
          this.set({ kind, status }, count);
        }
      },
    });

    if (sources.database.kind === 'postgres') {
      new Gauge({
        name: 'delivery_db_pool_connections',
        help: 'PostgreSQL pool of this process: connections idle and in use, and queries waiting for one.',
        labelNames: ['state'],
        registers,
        collect() {
          const stats = sources.database.poolStats();
          if (!stats) return;
          this.set({ state: 'idle' }, stats.idle);
          this.set({ state: 'in_use' }, stats.total - stats.idle);
          this.set({ state: 'waiting' }, stats.waiting);
        },
      });
    }
  }

  /** One answered request; `route` is the route pattern (`/v2/orders/:id`), never the URL. */
  requestServed(method: string, route: string | undefined, status: number, seconds: number): void {
    const labels = { method, route: route ?? UNMATCHED_ROUTE, status: String(status) };
    this.requests.inc(labels);
    this.requestSeconds.observe(labels, seconds);
  }

  companyQuoted(companyId: number, seconds: number, outcome: QuoteOutcome): void {
    const company = String(companyId);
    this.companySeconds.observe({ company, outcome }, seconds);
    if (outcome === 'timeout') this.companyTimeouts.inc({ company });
  }

  remoteCall(record: RemoteCallReport): void {
    this.remoteCalls.inc({ company: record.company, operation: record.operation, outcome: record.outcome });
    this.remoteSeconds.observe({ company: record.company, operation: record.operation }, record.durationMs / 1000);
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }
}

function sameSecret(given: string, expected: string): boolean {
  // Compared as digests: equal lengths for timingSafeEqual, and no early exit on the first difference.
  return timingSafeEqual(Buffer.from(sha256(given), 'hex'), Buffer.from(sha256(expected), 'hex'));
}

function requireMetricsToken(request: FastifyRequest, token: string): void {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
  if (!match) throw unauthorized('GET /metrics needs "Authorization: Bearer <METRICS_TOKEN>".');
  if (!sameSecret(match[1], token))
    throw new AppError(401, 'invalid_token', "The token is not this service's METRICS_TOKEN.");
}

/** Counts every answer, whatever route and status. */
export function installRequestMetrics(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', (request, reply, done) => {
    metrics.requestServed(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
}

/** GET /metrics, behind METRICS_TOKEN when it is set (else public like /health: counts only, no tenant data). */
export function metricsRoute(app: FastifyInstance, metrics: Metrics, metricsToken: string | null): void {
  app.get(
    '/metrics',
    {
      config: { public: true },
      logLevel: 'warn',
      schema: {
        operation: { id: 'getMetrics' },
        tags: ['Service'],
        summary: 'Prometheus metrics of this process',
        description:
          'Prometheus text format. Needs the header `Authorization: Bearer METRICS_TOKEN` (its value) when the service sets METRICS_TOKEN.',
        security: metricsToken ? [{ bearer: [] }] : [],
      },
    },
    async (request, reply) => {
      if (metricsToken) requireMetricsToken(request, metricsToken);
      const body = await metrics.text();
      return reply.type(metrics.registry.contentType).send(body);
    },
  );
}

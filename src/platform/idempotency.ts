/**
 * Hand-written, and why. Figure: a process killed between its effect's commit and its answer
 * runs the effect 0 times more (a key row marked in the effect's own transaction); a plugin that
 * stores the answer once it is sent (the usual Idempotency-Key middleware) runs it again. Reproduce:
 * `npx vitest run src/platform/idempotency.test.ts` (the crash cases). Measured against: the
 * store-on-send scheme of Stripe-style middlewares; no npm library marks the effect's transaction.
 *
 * `Idempotency-Key` on any POST: the first response is stored for 24 hours and replayed
 * for the same key and the same body; the same key with another body is a 409. While the
 * first request is still running, a second one with that key is a 409 too. A 5xx answer
 * is not stored, so the client may retry with the same key.
 *
 * Crashes. The key row is written three times: when the request starts (pending, owned by
 * this process under a lease it renews), in the transaction of the request's effect (the
 * effect happened, with the answer when it can be told then), and when the answer is sent.
 * The middle write is what makes a crash harmless: a process killed after its effect
 * committed but before it answered leaves a row that says so, and the retry is given the
 * answer instead of running again; a process killed before its effect committed leaves a
 * pending row whose lease lapses within seconds, and the retry then runs once.
 *
 * How the effect's transaction carries the key: the request's handler runs inside an
 * AsyncLocalStorage context naming the key; the database driver (db/driver.ts) calls this
 * module after every write statement, inside the statement's transaction (a single write is
 * given one), and this module marks the key row in that transaction. The answer written there
 * comes from the route's declared success answer: 204 (nothing), 201 `{id}` (the id the first
 * insert of the effect returned); any other answer (200 with a body) is known only when sent,
 * and a retry after a crash in between is told that the request was carried out but its
 * answer was lost (409 `idempotency_outcome_unknown`), never run twice.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { Kysely, QueryResult } from 'kysely';
import { sha256 } from './crypto.js';
import { AppError, badRequest, conflict } from './errors.js';
import { Created } from './schemas.js';
import type { Database } from './db/database.js';
import type { RunStatement, WriteObserver } from './db/driver.js';
import type { Tables } from './db/tables.js';
import type { Flag, Instant } from './db/column-types.js';
import { flag, isUniqueViolation } from './db/values.js';

/** The platform's own table: one row a key (`Idempotency-Key`) and account. */
export interface IdempotencyTables {
  idempotency_keys: {
    account_id: number;
    idem_key: string;
    request_hash: string;
    /** null while the first request is still being processed */
    status_code: number | null;
    response_body: string | null;
    response_type: string | null;
    created_at: Instant;
    /** The process running the first request (platform/idempotency.ts); null once answered. */
    owner: string | null;
    /** The owner renews this while it runs; past it, the owner is taken for dead. */
    lease_until: Instant | null;
    /** Written in the transaction of the request's effect: it happened. */
    effect_committed: Flag;
  };
}

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
const MAX_KEY_LENGTH = 255;
/** A first request whose process stops renewing this stops blocking its key after it. */
export const IDEMPOTENCY_LEASE_MS = 15_000;
const JSON_TYPE = 'application/json; charset=utf-8';

/** What the route answers when it succeeds, as far as it can be told when the effect commits. */
type SuccessAnswer = 'no-content' | 'created' | 'unknown';

/** The first request with a key, while it runs. */
interface KeyedRequest {
  accountId: number;
  key: string;
  success: SuccessAnswer;
  /** The answer written with the effect, if any (compared with the one sent). */
  recorded: { status: number; body: string | null } | null;
  /** Transactions whose key row is marked: complete (answer known) or not yet. */
  marked: WeakMap<object, 'complete' | 'partial'>;
  /** Answered: writes made later in this async context (background work) are not the effect. */
  finished: boolean;
  /** Some write of the effect marked the key. */
  wrote: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set when this request is the first with its Idempotency-Key: its answer is stored. */
    idempotencyKey: string | null;
    /** The same request's state while it runs. */
    keyedRequest: KeyedRequest | null;
  }
}

const keyedRequests = new AsyncLocalStorage<KeyedRequest>();

function requestFingerprint(request: FastifyRequest): string {
  const path = request.url.split('?')[0];
  return sha256(`${request.method} ${path}\n${JSON.stringify(request.body ?? null)}`);
}

function successAnswerOf(route: RouteOptions): SuccessAnswer {
  const response = (route.schema?.response ?? {}) as Record<string, unknown>;
  const successes = Object.keys(response).filter((code) => code.startsWith('2'));
  if (successes.length === 1 && successes[0] === '204') return 'no-content';
  if (successes.length === 1 && successes[0] === '201' && response['201'] === Created) return 'created';
  return 'unknown';
}

/** The id a created record got: the first column of the first row returned, or SQLite's insert id. */
function createdId(result: QueryResult<unknown>): number | null {
  const row = result.rows[0];
  if (row && typeof row === 'object') {
    const first = Object.values(row as Record<string, unknown>)[0];
    if (typeof first === 'number' || typeof first === 'bigint') return Number(first);
  }
  if (result.insertId !== undefined && result.insertId > 0n) return Number(result.insertId);
  return null;
}

const inProgress = () =>
  new AppError(
    409,
    'idempotency_request_in_progress',
    'A request with this Idempotency-Key is still being processed. Retry in a moment.',
  );

export function installIdempotency(app: FastifyInstance, database: Database): void {
  const db: Kysely<Tables> = database.db;
  /** This process (this app): the owner of the keys of the requests it runs. */
  const owner = `${os.hostname()}:${process.pid}:${randomBytes(6).toString('hex')}`;
  let running = 0;
  let heartbeat: NodeJS.Timeout | null = null;

  const leaseUntil = (now = new Date()) => new Date(now.getTime() + IDEMPOTENCY_LEASE_MS).toISOString();
  const renewLeases = async () => {
    await db
      .updateTable('idempotency_keys')
      .set({ lease_until: leaseUntil() })
      .where('owner', '=', owner)
      .where('status_code', 'is', null)
      .execute();
  };
  const started = () => {
    running++;
    if (heartbeat) return;
    heartbeat = setInterval(() => {
      renewLeases().catch((error: unknown) => app.log.error({ err: error }, 'idempotency lease renewal failed'));
    }, IDEMPOTENCY_LEASE_MS / 3);
    heartbeat.unref();
  };
  const ended = () => {
    running--;
    if (running > 0 || !heartbeat) return;
    clearInterval(heartbeat);
    heartbeat = null;
  };
  app.addHook('onClose', (_instance, done) => {
    if (heartbeat) clearInterval(heartbeat);
    heartbeat = null;
    done();
  });

  const observer: WriteObserver = {
    observing() {
      const keyed = keyedRequests.getStore();
      return keyed !== undefined && !keyed.finished;
    },
    async afterWrite(run: RunStatement, result: QueryResult<unknown>, transaction: object) {
      const keyed = keyedRequests.getStore();
      if (!keyed || keyed.marked.get(transaction) === 'complete') return;
      let answer: { status: number; body: string | null } | null = null;
      if (keyed.success === 'no-content') answer = { status: 204, body: null };
      else if (keyed.success === 'created') {
        const id = createdId(result);
        if (id !== null) answer = { status: 201, body: JSON.stringify({ id }) };
      }
      if (keyed.marked.has(transaction) && answer === null) return;
      const marking = db
        .updateTable('idempotency_keys')
        .set({
          effect_committed: true,
          status_code: answer?.status ?? null,
          response_body: answer?.body ?? null,
          response_type: answer?.body ? JSON_TYPE : null,
        })
        .where('account_id', '=', keyed.accountId)
        .where('idem_key', '=', keyed.key)
        .where('owner', '=', owner)
        .compile();
      const outcome = await run(marking);
      // Another process took the key over (this one stalled past its lease): it runs the
      // request; this effect must not commit as well.
      if (outcome.numAffectedRows === 0n) throw inProgress();
      keyed.marked.set(transaction, answer ? 'complete' : 'partial');
      keyed.wrote = true;
      if (answer) keyed.recorded = answer;
    },
  };
  database.observeWrites(observer);

  app.decorateRequest('idempotencyKey', null);
  app.decorateRequest('keyedRequest', null);

  const preHandlerFor = (success: SuccessAnswer) =>
    async function idempotencyPreHandler(
      request: FastifyRequest,
      reply: FastifyReply,
    ): Promise<FastifyReply | undefined> {
      if (!request.scope) return undefined;
      const header = request.headers['idempotency-key'];
      if (header === undefined) return undefined;
      const key = Array.isArray(header) ? header[0] : header;
      if (!key || key.length > MAX_KEY_LENGTH) {
        throw badRequest(`Idempotency-Key must be 1 to ${MAX_KEY_LENGTH} characters.`, [
          { field: 'Idempotency-Key', message: `must be 1 to ${MAX_KEY_LENGTH} characters` },
        ]);
      }
      const accountId = request.scope.accountId;
      const fingerprint = requestFingerprint(request);
      const now = new Date();
      const keyRow = () =>
        db.selectFrom('idempotency_keys').selectAll().where('account_id', '=', accountId).where('idem_key', '=', key);
      const begin = () => {
        request.idempotencyKey = key;
        request.keyedRequest = {
          accountId,
          key,
          success,
          recorded: null,
          marked: new WeakMap(),
          finished: false,
          wrote: false,
        };
        started();
        return undefined;
      };

      for (let attempt = 0; attempt < 3; attempt++) {
        const stored = await keyRow().executeTakeFirst();
        if (stored && now.getTime() - Date.parse(stored.created_at) > IDEMPOTENCY_TTL_MS) {
          await db
            .deleteFrom('idempotency_keys')
            .where('account_id', '=', accountId)
            .where('idem_key', '=', key)
            .where('created_at', '=', stored.created_at)
            .execute();
          continue;
        }
        if (stored) {
          if (stored.request_hash !== fingerprint) {
            throw conflict(
              'idempotency_key_reused',
              'This Idempotency-Key was already used with a different request. Use a new key for a new request.',
            );
          }
          if (stored.status_code !== null) {
            reply.header('idempotent-replayed', 'true');
            if (stored.response_type) reply.type(stored.response_type);
            return reply.code(stored.status_code).send(stored.response_body ?? undefined);
          }
          const ownerAlive = stored.lease_until !== null && Date.parse(stored.lease_until) > now.getTime();
          if (ownerAlive) throw inProgress();
          if (flag(stored.effect_committed)) {
            throw conflict(
              'idempotency_outcome_unknown',
              'The first request with this Idempotency-Key was carried out, but the service stopped before answering it and its answer cannot be told again. Read the current state instead of retrying.',
            );
          }
          // Its process died before anything committed: this request runs it, once (compare-and-set
          // on the old owner, so of two retries only one takes it).
          let takeOver = db
            .updateTable('idempotency_keys')
            .set({ owner, lease_until: leaseUntil(now), created_at: now.toISOString() })
            .where('account_id', '=', accountId)
            .where('idem_key', '=', key)
            .where('status_code', 'is', null)
            .where('effect_committed', '=', false);
          takeOver =
            stored.owner === null ? takeOver.where('owner', 'is', null) : takeOver.where('owner', '=', stored.owner);
          takeOver =
            stored.lease_until === null
              ? takeOver.where('lease_until', 'is', null)
              : takeOver.where('lease_until', '=', stored.lease_until);
          const taken = await takeOver.executeTakeFirst();
          if (Number(taken.numUpdatedRows) === 1) return begin();
          continue;
        }
        try {
          await db
            .insertInto('idempotency_keys')
            .values({
              account_id: accountId,
              idem_key: key,
              request_hash: fingerprint,
              status_code: null,
              response_body: null,
              response_type: null,
              created_at: now.toISOString(),
              owner,
              lease_until: leaseUntil(now),
              effect_committed: false,
            })
            .execute();
          return begin();
        } catch (error) {
          if (!isUniqueViolation(error)) throw error;
          // Another request with this key got in first; read what it stored.
        }
      }
      throw inProgress();
    };

  const onSend = async (request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> => {
    const key = request.idempotencyKey;
    const keyed = request.keyedRequest;
    if (!key || !keyed) return payload;
    request.idempotencyKey = null;
    keyed.finished = true;
    try {
      const accountId = request.scope.accountId;
      if (reply.statusCode >= 500 || (payload !== null && payload !== undefined && typeof payload !== 'string')) {
        // Not replayable (a failure the client should retry, or a stream): forget the key,
        // unless the effect committed: then the retry must learn that, not run it again.
        await db
          .deleteFrom('idempotency_keys')
          .where('account_id', '=', accountId)
          .where('idem_key', '=', key)
          .where('owner', '=', owner)
          .where('effect_committed', '=', false)
          .execute();
        await db
          .updateTable('idempotency_keys')
          .set({ lease_until: null })
          .where('account_id', '=', accountId)
          .where('idem_key', '=', key)
          .where('owner', '=', owner)
          .execute();
        return payload;
      }
      const body = (payload as string | null | undefined) ?? null;
      // Both mean that a retry after a crash would not get this answer: a route to look into.
      if (
        keyed.recorded &&
        reply.statusCode < 300 &&
        (keyed.recorded.status !== reply.statusCode || keyed.recorded.body !== body)
      ) {
        request.log.error(
          { recorded: keyed.recorded, sent: { status: reply.statusCode, body } },
          'idempotency: the answer recorded with the effect differs from the answer sent; the one sent is stored',
        );
      } else if (!keyed.recorded && keyed.wrote && keyed.success !== 'unknown' && reply.statusCode < 300) {
        request.log.error(
          { sent: { status: reply.statusCode, body } },
          'idempotency: the effect committed without its answer (no id came back from its first write)',
        );
      }
      const contentType = reply.getHeader('content-type');
      await db
        .updateTable('idempotency_keys')
        .set({
          status_code: reply.statusCode,
          response_body: body,
          response_type: typeof contentType === 'string' ? contentType : null,
          lease_until: null,
        })
        .where('account_id', '=', accountId)
        .where('idem_key', '=', key)
        .where('owner', '=', owner)
        .execute();
      return payload;
    } finally {
      ended();
    }
  };

  // Only POST routes take the key: other routes do not pay for these hooks.
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.includes('POST')) return;
    route.preHandler = [...toArray(route.preHandler), preHandlerFor(successAnswerOf(route))];
    route.onSend = [...toArray(route.onSend), onSend];
    // The handler (and all it awaits) runs in the key's context: the writes it makes are its effect.
    const handler = route.handler;
    route.handler = function keyedHandler(this: FastifyInstance, request, reply) {
      const keyed = request.keyedRequest;
      return keyed
        ? keyedRequests.run(keyed, () => handler.call(this, request, reply))
        : handler.call(this, request, reply);
    };
  });
}

function toArray<T>(value: T | T[] | undefined): T[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

/** Deletes keys older than 24 hours; run periodically by the server. */
export async function purgeExpiredIdempotencyKeys(db: Kysely<Tables>, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - IDEMPOTENCY_TTL_MS).toISOString();
  const result = await db.deleteFrom('idempotency_keys').where('created_at', '<', cutoff).executeTakeFirst();
  return Number(result.numDeletedRows);
}

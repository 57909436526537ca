/**
 * `Idempotency-Key` on any POST: the first response is stored for 24 hours and replayed
 * for the same key and the same body; the same key with another body is a 409. While the
 * first request is still running, a second one with that key is a 409 too. A 5xx answer
 * is not stored, so the client may retry with the same key.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { sha256 } from './crypto.js';
import { AppError, badRequest, conflict } from './errors.js';
import type { Tables } from './db/tables.js';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
const MAX_KEY_LENGTH = 255;
/** A first request that never answered (its process died) stops blocking its key after this. */
const ABANDONED_AFTER_MS = 5 * 60 * 1000;

declare module 'fastify' {
  interface FastifyRequest {
    /** Set when this request is the first with its Idempotency-Key: its answer is stored. */
    idempotencyKey: string | null;
  }
}

function requestFingerprint(request: FastifyRequest): string {
  const path = request.url.split('?')[0];
  return sha256(`${request.method} ${path}\n${JSON.stringify(request.body ?? null)}`);
}

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

export function installIdempotency(app: FastifyInstance, db: Kysely<Tables>): void {
  app.decorateRequest('idempotencyKey', null);

  const preHandler = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
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

    for (let attempt = 0; attempt < 2; attempt++) {
      const stored = await db
        .selectFrom('idempotency_keys')
        .selectAll()
        .where('account_id', '=', accountId)
        .where('idem_key', '=', key)
        .executeTakeFirst();
      const age = stored ? now.getTime() - Date.parse(stored.created_at) : 0;
      const abandoned = stored !== undefined && stored.status_code === null && age > ABANDONED_AFTER_MS;
      if (stored && (age > IDEMPOTENCY_TTL_MS || abandoned)) {
        await db.deleteFrom('idempotency_keys').where('account_id', '=', accountId).where('idem_key', '=', key).execute();
        continue;
      }
      if (stored) {
        if (stored.request_hash !== fingerprint) {
          throw conflict('idempotency_key_reused', 'This Idempotency-Key was already used with a different request. Use a new key for a new request.');
        }
        if (stored.status_code === null) {
          throw conflict('idempotency_request_in_progress', 'A request with this Idempotency-Key is still being processed. Retry in a moment.');
        }
        reply.header('idempotent-replayed', 'true');
        if (stored.response_type) reply.type(stored.response_type);
        return reply.code(stored.status_code).send(stored.response_body ?? undefined);
      }
      try {
        await db
          .insertInto('idempotency_keys')
          .values({ account_id: accountId, idem_key: key, request_hash: fingerprint, status_code: null, response_body: null, response_type: null, created_at: now.toISOString() })
          .execute();
        request.idempotencyKey = key;
        return undefined;
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        // Another request with this key got in first; read what it stored.
      }
    }
    throw new AppError(409, 'idempotency_request_in_progress', 'A request with this Idempotency-Key is still being processed. Retry in a moment.');
  };

  const onSend = async (request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> => {
    const key = request.idempotencyKey;
    if (!key) return payload;
    request.idempotencyKey = null;
    const accountId = request.scope.accountId;
    const where = db.deleteFrom('idempotency_keys').where('account_id', '=', accountId).where('idem_key', '=', key);
    if (reply.statusCode >= 500 || (payload !== null && payload !== undefined && typeof payload !== 'string')) {
      // Not replayable (a failure the client should retry, or a stream): forget the key.
      await where.execute();
      return payload;
    }
    const contentType = reply.getHeader('content-type');
    await db
      .updateTable('idempotency_keys')
      .set({ status_code: reply.statusCode, response_body: payload ?? null, response_type: typeof contentType === 'string' ? contentType : null })
      .where('account_id', '=', accountId)
      .where('idem_key', '=', key)
      .execute();
    return payload;
  };

  // Only POST routes take the key: other routes do not pay for these hooks.
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.includes('POST')) return;
    route.preHandler = [...toArray(route.preHandler), preHandler];
    route.onSend = [...toArray(route.onSend), onSend];
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

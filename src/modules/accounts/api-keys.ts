/**
 * Scoped API keys (extension): an owner's key limited to scopes (platform/key-scopes.ts), and
 * optionally to shops, an expiry and an IP allow-list. The key is 32 random bytes behind `key_`;
 * only its SHA-256 is stored, and it is shown once. Revoking keeps the row (the list and the audit
 * trail still name it) and makes every process forget it at once (TokenResolver.revoke).
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { requireOwner, type Scope } from '../../platform/auth.js';
import { declareChange } from '../../platform/audit.js';
import { hashToken } from '../../platform/crypto.js';
import type { Tables } from '../../platform/db/tables.js';
import { fromJson, nowIso, toJson } from '../../platform/db/values.js';
import { fieldErrors, forbidden, notFound, type ErrorItem } from '../../platform/errors.js';
import { addressList, type KeyScope } from '../../platform/key-scopes.js';
import type { ApiKeyCreate, ApiKeyView } from './api-key-schemas.js';
import { API_KEY_PREFIX } from './tokens.js';

/** A scoped key never manages keys: it could otherwise make itself a wider one. */
function requireFullAccess(scope: Scope, action: string): void {
  requireOwner(scope, action);
  if (scope.keyScopes)
    throw forbidden(`A scoped API key cannot ${action}; use an account token or sign in as an owner.`);
}

function actorLabel(scope: Scope): string {
  return scope.kind === 'employee' && scope.employeeId !== null ? `employee:${scope.employeeId}` : 'account-token';
}

/** A row as read (JSON columns not yet parsed) or as about to be written. */
interface KeyRow {
  id: number;
  name: string;
  key_hint: string;
  scopes: unknown;
  shop_ids: unknown;
  allowed_ips: unknown;
  expires_at: string | null;
  created_at: string;
  created_by: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

function viewOf(row: KeyRow, now: string): ApiKeyView {
  const revoked = row.revoked_at !== null;
  const expired = row.expires_at !== null && row.expires_at <= now;
  return {
    id: Number(row.id),
    name: row.name,
    hint: row.key_hint,
    scopes: fromJson<KeyScope[]>(row.scopes),
    shopIds: row.shop_ids === null ? null : fromJson<number[] | null>(row.shop_ids),
    allowedIps: row.allowed_ips === null ? null : fromJson<string[] | null>(row.allowed_ips),
    expiresAt: row.expires_at,
    createdAt: row.created_at,
    createdBy: row.created_by,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
    state: revoked ? 'revoked' : expired ? 'expired' : 'active',
  };
}

export class ApiKeyService {
  constructor(
    private readonly db: Kysely<Tables>,
    /** Makes every process forget the account's remembered tokens (TokenResolver.revoke). */
    private readonly revokeRemembered: (accountId: number) => void,
  ) {}

  async list(scope: Scope): Promise<ApiKeyView[]> {
    requireFullAccess(scope, 'see the API keys');
    const rows = await this.db
      .selectFrom('api_keys')
      .selectAll()
      .where('account_id', '=', scope.accountId)
      .orderBy('id', 'desc')
      .limit(1000)
      .execute();
    const now = nowIso();
    return rows.map((row) => viewOf({ ...row, id: Number(row.id) }, now));
  }

  async create(scope: Scope, input: ApiKeyCreate): Promise<ApiKeyView & { key: string }> {
    requireFullAccess(scope, 'make API keys');
    const problems: ErrorItem[] = [];
    const shopIds = input.shopIds ?? null;
    if (shopIds) {
      const found = new Set(
        (
          await this.db
            .selectFrom('shops')
            .select('id')
            .where('account_id', '=', scope.accountId)
            .where('id', 'in', shopIds)
            .execute()
        ).map((shop) => Number(shop.id)),
      );
      shopIds.forEach((id, index) => {
        if (!found.has(id)) problems.push({ field: `shopIds[${index}]`, message: 'is not a shop of this account' });
      });
    }
    const allowedIps = input.allowedIps ? input.allowedIps.map((entry) => entry.trim()) : null;
    allowedIps?.forEach((entry, index) => {
      try {
        addressList([entry]);
      } catch {
        problems.push({ field: `allowedIps[${index}]`, message: 'must be an IP address or a CIDR block' });
      }
    });
    const now = nowIso();
    const expiresAt = input.expiresAt ? new Date(input.expiresAt).toISOString() : null;
    if (expiresAt !== null && expiresAt <= now)
      problems.push({ field: 'expiresAt', message: 'must be later than now' });
    if (problems.length > 0) throw fieldErrors(problems);
    const key = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
    const row = {
      account_id: scope.accountId,
      name: input.name.trim() || 'API key',
      key_hash: hashToken(key),
      key_hint: `${key.slice(0, 8)}…`,
      scopes: toJson(input.scopes),
      shop_ids: shopIds ? toJson(shopIds) : null,
      allowed_ips: allowedIps ? toJson(allowedIps) : null,
      expires_at: expiresAt,
      created_at: now,
      created_by: actorLabel(scope),
      last_used_at: null,
      revoked_at: null,
    };
    const view = viewOf({ ...row, id: 0 }, now);
    const inserted = await this.db.transaction().execute(async (trx) => {
      // declared before the write it describes: the audit entry is written with it (its id comes from the insert)
      declareChange({ type: 'api_keys', ids: [], before: null, after: { ...view, id: undefined } });
      const created = await trx.insertInto('api_keys').values(row).returning('id').executeTakeFirstOrThrow();
      return Number(created.id);
    });
    return { ...view, id: inserted, key };
  }

  async revoke(scope: Scope, id: number): Promise<void> {
    requireFullAccess(scope, 'revoke API keys');
    const now = nowIso();
    const revoked = await this.db.transaction().execute(async (trx) => {
      const before = await trx
        .selectFrom('api_keys')
        .selectAll()
        .where('account_id', '=', scope.accountId)
        .where('id', '=', id)
        .executeTakeFirst();
      if (!before) return false;
      if (before.revoked_at !== null) return true;
      declareChange({
        type: 'api_keys',
        ids: [id],
        before: viewOf({ ...before, id: Number(before.id) }, now),
        after: viewOf({ ...before, id: Number(before.id), revoked_at: now }, now),
      });
      await trx.updateTable('api_keys').set({ revoked_at: now }).where('id', '=', id).execute();
      return true;
    });
    if (!revoked) throw notFound('API key', id);
    this.revokeRemembered(scope.accountId);
  }
}

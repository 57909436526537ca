/** The accounts area's side of authentication: a bearer token (account, employee or shop key) to its Scope. */
import type { Kysely } from 'kysely';
import type { Scope } from '../../platform/auth.js';
import { hashToken } from '../../platform/crypto.js';
import type { Tables } from '../../platform/db/tables.js';
import { fromJson } from '../../platform/db/values.js';
import { addressList, type KeyScope } from '../../platform/key-scopes.js';

/** How stale a session's "last seen" may get before a lookup writes it again. */
const LAST_SEEN_STEP_MS = 5 * 60_000;
/** How stale a scoped key's "last used" may get: a lookup (every few seconds at most, the resolver remembers) writes it at most once a minute. */
const LAST_USED_STEP_MS = 60_000;
/** The prefix of scoped API keys (api-keys.ts). */
export const API_KEY_PREFIX = 'key_';

/** The Scope of a scoped API key, or null when it is unknown, revoked or expired. */
async function resolveApiKey(db: Kysely<Tables>, tokenHash: string, now: Date): Promise<Scope | null> {
  const row = await db
    .selectFrom('api_keys')
    .innerJoin('accounts', 'accounts.id', 'api_keys.account_id')
    .select([
      'api_keys.id as id',
      'api_keys.account_id as accountId',
      'api_keys.scopes as scopes',
      'api_keys.shop_ids as shopIds',
      'api_keys.allowed_ips as allowedIps',
      'api_keys.expires_at as expiresAt',
      'api_keys.last_used_at as lastUsedAt',
      'accounts.time_zone as timeZone',
    ])
    .where('api_keys.key_hash', '=', tokenHash)
    .where('api_keys.revoked_at', 'is', null)
    .executeTakeFirst();
  if (!row) return null;
  if (row.expiresAt !== null && row.expiresAt <= now.toISOString()) return null;
  if (row.lastUsedAt === null || Date.parse(row.lastUsedAt) < now.getTime() - LAST_USED_STEP_MS)
    await db.updateTable('api_keys').set({ last_used_at: now.toISOString() }).where('id', '=', row.id).execute();
  const scope: Scope = {
    accountId: row.accountId,
    timeZone: row.timeZone,
    kind: 'account',
    shopKeyShopId: null,
    employeeId: null,
    role: null,
    keyScopes: fromJson<KeyScope[]>(row.scopes),
    apiKeyId: row.id,
    ...(row.expiresAt !== null ? { expiresAtMs: Date.parse(row.expiresAt) } : {}),
  };
  const allowedIps = row.allowedIps === null ? null : fromJson<string[] | null>(row.allowedIps);
  if (allowedIps) scope.keyAddresses = addressList(allowedIps);
  const shopIds = row.shopIds === null ? null : fromJson<number[] | null>(row.shopIds);
  if (shopIds) {
    // as a manager's request: each acts for one of its shops (the Shop-Id header, default the first still there)
    const existing = new Set(
      shopIds.length === 0
        ? []
        : (
            await db
              .selectFrom('shops')
              .select('id')
              .where('account_id', '=', row.accountId)
              .where('id', 'in', shopIds)
              .execute()
          ).map((shop) => Number(shop.id)),
    );
    scope.managedShopIds = shopIds.filter((id) => existing.has(id));
  }
  return scope;
}

/** Finds the Scope of a bearer token, or null when the token is unknown or expired. */
export async function resolveToken(db: Kysely<Tables>, token: string, now = new Date()): Promise<Scope | null> {
  const tokenHash = hashToken(token);
  if (token.startsWith(API_KEY_PREFIX)) return resolveApiKey(db, tokenHash, now);
  if (token.startsWith('shp_')) {
    const row = await db
      .selectFrom('shops')
      .innerJoin('accounts', 'accounts.id', 'shops.account_id')
      .select([
        'shops.id as shopId',
        'shops.account_id as accountId',
        'accounts.time_zone as timeZone',
        'shops.api_key_used_at as usedAt',
      ])
      .where('shops.api_key_hash', '=', tokenHash)
      .executeTakeFirst();
    if (!row) return null;
    // the key's first call (a plugin given it calls): written once, read by the first-run checklist
    if (row.usedAt === null)
      await db
        .updateTable('shops')
        .set({ api_key_used_at: now.toISOString() })
        .where('id', '=', row.shopId)
        .where('api_key_hash', '=', tokenHash)
        .where('api_key_used_at', 'is', null)
        .execute();
    return {
      accountId: row.accountId,
      timeZone: row.timeZone,
      kind: 'shop',
      shopKeyShopId: row.shopId,
      employeeId: null,
    };
  }
  const row = await db
    .selectFrom('access_tokens')
    .innerJoin('accounts', 'accounts.id', 'access_tokens.account_id')
    .select([
      'access_tokens.account_id as accountId',
      'access_tokens.employee_id as employeeId',
      'access_tokens.expires_at as expiresAt',
      'access_tokens.last_seen_at as lastSeenAt',
      'accounts.time_zone as timeZone',
    ])
    .where('access_tokens.token_hash', '=', tokenHash)
    .executeTakeFirst();
  if (!row) return null;
  if (row.expiresAt !== null && row.expiresAt <= now.toISOString()) return null;
  // a session's "last seen" is kept to within minutes: a write only when the lookup (every few seconds at most) finds it older
  if (
    row.employeeId !== null &&
    (row.lastSeenAt === null || Date.parse(row.lastSeenAt) < now.getTime() - LAST_SEEN_STEP_MS)
  )
    await db
      .updateTable('access_tokens')
      .set({ last_seen_at: now.toISOString() })
      .where('token_hash', '=', tokenHash)
      .execute();
  const scope: Scope = {
    accountId: row.accountId,
    timeZone: row.timeZone,
    kind: row.employeeId === null ? 'account' : 'employee',
    shopKeyShopId: null,
    employeeId: row.employeeId,
    role: null,
    ...(row.expiresAt !== null ? { expiresAtMs: Date.parse(row.expiresAt) } : {}),
  };
  if (row.employeeId !== null) {
    const employee = await db
      .selectFrom('employees')
      .select('role')
      .where('id', '=', row.employeeId)
      .executeTakeFirst();
    if (!employee) return null;
    scope.role = employee.role === 'manager' ? 'manager' : 'owner';
    if (scope.role === 'manager') {
      const shops = await db
        .selectFrom('employee_shops')
        .select('shop_id')
        .where('employee_id', '=', row.employeeId)
        .orderBy('position')
        .execute();
      scope.managedShopIds = shops.map((shop) => Number(shop.shop_id));
    }
  }
  return scope;
}

/** The accounts area's side of authentication: a bearer token (account, employee or shop key) to its Scope. */
import type { Kysely } from 'kysely';
import type { Scope } from '../../platform/auth.js';
import { hashToken } from '../../platform/crypto.js';
import type { Tables } from '../../platform/db/tables.js';

/** How stale a session's "last seen" may get before a lookup writes it again. */
const LAST_SEEN_STEP_MS = 5 * 60_000;

/** Finds the Scope of a bearer token, or null when the token is unknown or expired. */
export async function resolveToken(db: Kysely<Tables>, token: string, now = new Date()): Promise<Scope | null> {
  const tokenHash = hashToken(token);
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

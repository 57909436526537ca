/**
 * The audit trail's reading, sealing, verifying and retention. Entries are written by the one
 * mechanism of platform/audit.ts, in each change's own transaction, without a hash: a chain head
 * locked by every write would serialise every writer of the account (on PostgreSQL, every order
 * of a busy shop waiting on one row). The sealer chains them shortly after instead: every few
 * seconds it takes an account's unsealed entries in id order, gives each the next place (`seq`)
 * of the account's chain, `prev_hash` (the previous entry's hash) and
 * `hash = sha256(prev_hash + canonical JSON of the entry)`. Only sealers lock the chain's row
 * (`for update`), so two processes never seal the same entries twice. An entry committed late
 * (a lower id, a longer transaction) simply takes the next place when it is seen: the chain's
 * order is its seal order, which is why `seq` and not `id` is what verification walks.
 *
 * Verification walks each account's chain from its retained start: a missing place (a deleted
 * entry), a `prev_hash` that is not the previous entry's hash, or a hash that is not the entry's
 * (an edited entry) is the first broken entry. Retention deletes an account's entries older than
 * its setting from the start of its chain, remembering the last deleted one's hash as the anchor
 * the first kept one chains to.
 */
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { requireOwner, type Scope } from '../../platform/auth.js';
import { canonicalJson, declareChange, outsideAudit } from '../../platform/audit.js';
import type { Tables } from '../../platform/db/tables.js';
import type { DatabaseKind } from '../../platform/db/database.js';
import { fromJson } from '../../platform/db/values.js';
import { fieldError } from '../../platform/errors.js';
import type { Page, Paging } from '../../platform/paging.js';

export interface AuditEntryView {
  id: number;
  at: string;
  actor: { kind: string; id: string | null };
  operation: string;
  records: Array<{ type: string; ids: Array<number | string> }>;
  changes: Array<{ type: string; ids: Array<number | string>; before?: unknown; after?: unknown }> | null;
  ip: string | null;
  userAgent: string | null;
  /** The entry's place in the account's chain; null while not yet sealed (a few seconds). */
  seq: number | null;
  hash: string | null;
}

export interface AuditFilter {
  actor?: string;
  operation?: string;
  record?: string;
  from?: string;
  to?: string;
}

export interface BrokenEntry {
  accountId: number;
  /** The first entry that does not verify (null: entries at the end of the chain are missing). */
  entryId: number | null;
  reason: string;
}

export interface Verification {
  accounts: number;
  checked: number;
  unsealed: number;
  broken: BrokenEntry | null;
}

type EntryRow = {
  id: number;
  account_id: number;
  at: string;
  actor_kind: string;
  actor_id: string | null;
  operation: string;
  records: unknown;
  changes: unknown;
  ip: string | null;
  user_agent: string | null;
  seq: number | null;
  prev_hash: string | null;
  hash: string | null;
};

const SEAL_BATCH = 500;
const VERIFY_PAGE = 1000;
const MAX_RETENTION_DAYS = 3650;

/** What an entry's hash is taken over: every field but the hashes themselves. */
export function hashedContent(row: EntryRow, seq: number): string {
  return canonicalJson({
    id: Number(row.id),
    accountId: Number(row.account_id),
    at: row.at,
    actor: { kind: row.actor_kind, id: row.actor_id },
    operation: row.operation,
    records: fromJson(row.records),
    changes: row.changes === null ? null : fromJson(row.changes),
    ip: row.ip,
    userAgent: row.user_agent,
    seq,
  });
}

export function chainHash(previous: string, content: string): string {
  return createHash('sha256').update(previous).update(content).digest('hex');
}

function viewOf(row: EntryRow): AuditEntryView {
  return {
    id: Number(row.id),
    at: row.at,
    actor: { kind: row.actor_kind, id: row.actor_id },
    operation: row.operation,
    records: fromJson(row.records),
    changes: row.changes === null ? null : fromJson(row.changes),
    ip: row.ip,
    userAgent: row.user_agent,
    seq: row.seq === null ? null : Number(row.seq),
    hash: row.hash,
  };
}

export class AuditService {
  constructor(
    private readonly db: Kysely<Tables>,
    private readonly kind: DatabaseKind,
  ) {}

  private filtered(accountId: number, filter: AuditFilter) {
    let query = this.db.selectFrom('audit_entries').where('account_id', '=', accountId);
    if (filter.actor) {
      // the id may hold a colon itself (`operator:billing:2`)
      const colon = filter.actor.indexOf(':');
      const kind = colon < 0 ? filter.actor : filter.actor.slice(0, colon);
      const id = colon < 0 ? undefined : filter.actor.slice(colon + 1);
      query = query.where('actor_kind', '=', kind);
      if (id !== undefined && id !== '') query = query.where('actor_id', '=', id);
    }
    if (filter.operation) query = query.where('operation', '=', filter.operation);
    if (filter.record) {
      const [type, id] = filter.record.split(':');
      if (!type || id === undefined || id === '' || /[%\s]/.test(filter.record))
        throw fieldError('record', 'must be a type and an id: orders:12');
      query = query.where('record_keys', 'like', `% ${type}:${id} %`);
    }
    if (filter.from && filter.to && Date.parse(filter.to) < Date.parse(filter.from))
      throw fieldError('to', 'must not be before from');
    if (filter.from) query = query.where('at', '>=', new Date(filter.from).toISOString());
    if (filter.to) query = query.where('at', '<', new Date(filter.to).toISOString());
    return query;
  }

  /** A page of the account's entries, newest first. */
  async list(scope: Scope, filter: AuditFilter, at: Paging): Promise<Page<AuditEntryView>> {
    requireOwner(scope, 'read the audit trail');
    const query = this.filtered(scope.accountId, filter);
    const [rows, count] = await Promise.all([
      query.selectAll().orderBy('id', 'desc').limit(at.perPage).offset(at.offset).execute(),
      query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { items: rows.map((row) => viewOf(row as EntryRow)), total: Number(count.total) };
  }

  /** Every entry the filter matches, oldest first, a page at a time (the export streams them). */
  async *entries(scope: Scope, filter: AuditFilter): AsyncGenerator<AuditEntryView> {
    requireOwner(scope, 'export the audit trail');
    let after = 0;
    for (;;) {
      const rows = await this.filtered(scope.accountId, filter)
        .selectAll()
        .where('id', '>', after)
        .orderBy('id')
        .limit(VERIFY_PAGE)
        .execute();
      for (const row of rows) yield viewOf(row as EntryRow);
      if (rows.length < VERIFY_PAGE) return;
      after = Number(rows[rows.length - 1]?.id);
    }
  }

  async retention(scope: Scope): Promise<{ retentionDays: number | null }> {
    requireOwner(scope, 'read the audit trail settings');
    const chain = await this.db
      .selectFrom('audit_chains')
      .select('retention_days')
      .where('account_id', '=', scope.accountId)
      .executeTakeFirst();
    return { retentionDays: chain?.retention_days ?? null };
  }

  async setRetention(scope: Scope, retentionDays: number | null): Promise<{ retentionDays: number | null }> {
    requireOwner(scope, 'change the audit trail settings');
    if (retentionDays !== null && (retentionDays < 1 || retentionDays > MAX_RETENTION_DAYS))
      throw fieldError('retentionDays', `must be at most ${MAX_RETENTION_DAYS}`);
    const before = await this.retention(scope);
    await this.db.transaction().execute(async (trx) => {
      await this.ensureChain(trx, scope.accountId);
      declareChange({
        type: 'audit_settings',
        ids: [scope.accountId],
        before,
        after: { retentionDays },
      });
      await trx
        .updateTable('audit_chains')
        .set({ retention_days: retentionDays })
        .where('account_id', '=', scope.accountId)
        .execute();
    });
    return { retentionDays };
  }

  private async ensureChain(db: Kysely<Tables>, accountId: number): Promise<void> {
    await db
      .insertInto('audit_chains')
      .values({ account_id: accountId, last_seq: 0, last_hash: '', start_seq: 1, start_prev_hash: '' })
      .onConflict((conflict) => conflict.column('account_id').doNothing())
      .execute();
  }

  /** Seals the entries written since the last run, every account's; answers how many (no one's change: not audited). */
  seal(): Promise<number> {
    return outsideAudit(() => this.sealAll());
  }

  private async sealAll(): Promise<number> {
    let sealed = 0;
    for (;;) {
      const accounts = await this.db
        .selectFrom('audit_entries')
        .select('account_id')
        .distinct()
        .where('hash', 'is', null)
        .limit(100)
        .execute();
      if (accounts.length === 0) return sealed;
      let progress = 0;
      for (const { account_id } of accounts) progress += await this.sealAccount(Number(account_id));
      sealed += progress;
      if (progress === 0) return sealed;
    }
  }

  private async sealAccount(accountId: number): Promise<number> {
    await this.ensureChain(this.db, accountId);
    return this.db.transaction().execute(async (trx) => {
      let head = trx.selectFrom('audit_chains').selectAll().where('account_id', '=', accountId);
      // only sealers take this lock: the changes themselves never wait on it
      if (this.kind === 'postgres') head = head.forUpdate();
      const chain = await head.executeTakeFirstOrThrow();
      const rows = (await trx
        .selectFrom('audit_entries')
        .selectAll()
        .where('account_id', '=', accountId)
        .where('hash', 'is', null)
        .orderBy('id')
        .limit(SEAL_BATCH)
        .execute()) as EntryRow[];
      let seq = Number(chain.last_seq);
      let previous = chain.last_hash;
      for (const row of rows) {
        seq += 1;
        const hash = chainHash(previous, hashedContent(row, seq));
        await trx
          .updateTable('audit_entries')
          .set({ seq, prev_hash: previous, hash })
          .where('id', '=', row.id)
          .execute();
        previous = hash;
      }
      if (rows.length > 0)
        await trx
          .updateTable('audit_chains')
          .set({ last_seq: seq, last_hash: previous })
          .where('account_id', '=', accountId)
          .execute();
      return rows.length;
    });
  }

  /** Walks every account's chain (or one's) from its retained start; stops at the first broken entry. */
  async verify(accountId?: number): Promise<Verification> {
    await this.seal();
    let chains = this.db.selectFrom('audit_chains').selectAll().orderBy('account_id');
    if (accountId !== undefined) chains = chains.where('account_id', '=', accountId);
    const result: Verification = { accounts: 0, checked: 0, unsealed: 0, broken: null };
    for (const chain of await chains.execute()) {
      result.accounts += 1;
      const account = Number(chain.account_id);
      let expected = Number(chain.start_seq);
      let previous = chain.start_prev_hash;
      let lastId: number | null = null;
      for (;;) {
        const rows = (await this.db
          .selectFrom('audit_entries')
          .selectAll()
          .where('account_id', '=', account)
          .where('seq', '>=', expected)
          .orderBy('seq')
          .limit(VERIFY_PAGE)
          .execute()) as EntryRow[];
        for (const row of rows) {
          const seq = Number(row.seq);
          const id = Number(row.id);
          const broken = (reason: string): Verification => ({
            ...result,
            broken: { accountId: account, entryId: id, reason },
          });
          if (seq !== expected)
            return broken(
              `entry ${expected === seq - 1 ? expected : `${expected}–${seq - 1}`} of the chain is missing`,
            );
          if (row.prev_hash !== previous) return broken('it does not chain to the entry before it');
          if (chainHash(previous, hashedContent(row, seq)) !== row.hash)
            return broken('it was changed after it was sealed');
          previous = row.hash as string;
          expected += 1;
          lastId = id;
          result.checked += 1;
        }
        if (rows.length < VERIFY_PAGE) break;
      }
      if (expected - 1 !== Number(chain.last_seq) || previous !== chain.last_hash)
        return {
          ...result,
          broken: {
            accountId: account,
            entryId: null,
            reason: `the chain ends at place ${expected - 1} (after entry ${lastId ?? 'none'}) but was sealed to ${chain.last_seq}: its last entries are missing`,
          },
        };
    }
    const unsealed = await this.db
      .selectFrom('audit_entries')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('hash', 'is', null)
      .executeTakeFirstOrThrow();
    result.unsealed = Number(unsealed.count);
    return result;
  }

  /** Deletes entries older than each account's retention, from the start of its chain (sealed ones only). */
  applyRetention(now = new Date()): Promise<number> {
    return outsideAudit(() => this.deleteExpired(now));
  }

  private async deleteExpired(now: Date): Promise<number> {
    const chains = await this.db
      .selectFrom('audit_chains')
      .select(['account_id', 'retention_days'])
      .where('retention_days', 'is not', null)
      .execute();
    let deleted = 0;
    for (const chain of chains) {
      const cutoff = new Date(now.getTime() - Number(chain.retention_days) * 86_400_000).toISOString();
      deleted += await this.db.transaction().execute(async (trx) => {
        let head = trx.selectFrom('audit_chains').selectAll().where('account_id', '=', chain.account_id);
        if (this.kind === 'postgres') head = head.forUpdate();
        const locked = await head.executeTakeFirstOrThrow();
        // the newest sealed entry older than the cutoff, among the chain's first (sealed in order, so older first)
        const last = await trx
          .selectFrom('audit_entries')
          .select(['seq', 'hash'])
          .where('account_id', '=', chain.account_id)
          .where('seq', 'is not', null)
          .where('at', '<', cutoff)
          .orderBy('seq', 'desc')
          .limit(1)
          .executeTakeFirst();
        if (!last || last.seq === null || Number(last.seq) < Number(locked.start_seq)) return 0;
        const gone = await trx
          .deleteFrom('audit_entries')
          .where('account_id', '=', chain.account_id)
          .where('seq', '<=', last.seq)
          .executeTakeFirst();
        await trx
          .updateTable('audit_chains')
          .set({ start_seq: Number(last.seq) + 1, start_prev_hash: last.hash as string })
          .where('account_id', '=', chain.account_id)
          .execute();
        return Number(gone.numDeletedRows);
      });
    }
    return deleted;
  }
}

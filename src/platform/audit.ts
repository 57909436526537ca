/**
 * The audit trail's one mechanism: who changed what, written in the change's own transaction.
 *
 * - Who and why: every change runs in an AsyncLocalStorage context naming its actor (an
 *   employee, a scoped API key, an account token, a shop key, an operator, the service itself),
 *   the operation (the route's operationId, `job:<kind>`, `cli:<command>`), and where it came
 *   from (address, user agent). HTTP sets it around the handler of every operation that is not a
 *   read (key-scopes.ts decides what a read is, once per route); the job worker around each job;
 *   the CLI around each command.
 * - In the same transaction: the database driver (db/driver.ts) calls this module's write
 *   observer after each write statement, inside its transaction (a single write is given one, and
 *   SQLite's recipes carry the entry as one more statement), and the first write of a context in
 *   a transaction inserts its entry there; it commits or rolls back with the change.
 * - What changed: the records the path names (`/v2/orders/:id` → orders 12), the id of the first
 *   row the change inserted, ids the body lists; and what the change's code declares with
 *   `declareChange` before it writes: records, and for settings the values before and after
 *   (credentials hidden). A declaration made after an entry was written is added at the next write.
 * - Tamper evidence: entries are sealed into a hash chain per account shortly after (the audit
 *   area's sealer), not here: a chain head locked by every write would serialise all writers.
 *
 * Writes that are bookkeeping rather than someone's change (queues, caches, delivery attempts)
 * make no entry by themselves (`BOOKKEEPING_TABLES`).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { CompiledQuery, Kysely, QueryResult } from 'kysely';
import type { Scope } from './auth.js';
import type { Generated } from 'kysely';
import type { Instant, Id, Json } from './db/column-types.js';
import type { RunStatement, WriteObserver } from './db/driver.js';
import type { RecipeStep } from './db/sqlite-writer.js';
import type { Tables } from './db/tables.js';
import { accessOf } from './key-scopes.js';

export interface AuditTables {
  audit_entries: {
    id: Id;
    /** 0: a change of no account (an operator's command before there is one). */
    account_id: number;
    at: Instant;
    actor_kind: string;
    actor_id: string | null;
    operation: string;
    /** JSON array of {type, ids}. */
    records: Json;
    /** ` type:id type:id ` of the records, for the record filter. */
    record_keys: Generated<string>;
    /** JSON array of {type, ids, before, after} the change declared; null: none. */
    changes: Json | null;
    ip: string | null;
    user_agent: string | null;
    /** The entry's place in its account's chain; null until sealed. */
    seq: number | null;
    prev_hash: string | null;
    hash: string | null;
  };
  audit_chains: {
    account_id: number;
    /** The last sealed entry's seq and hash (0 and '' before the first). */
    last_seq: number;
    last_hash: string;
    /** The first retained entry's seq, and the hash it chains to (entries before it were deleted by retention). */
    start_seq: number;
    start_prev_hash: string;
    /** Entries older than this many days are deleted (the chain stays verifiable); null: kept. */
    retention_days: number | null;
  };
}

export type ActorKind =
  | 'employee'
  | 'api-key'
  | 'account-token'
  | 'shop-key'
  | 'operator'
  | 'system'
  | 'public'
  /** A shop's checkout widget (its publishable key): id, the shop. */
  | 'widget'
  /** A delivery company's status push or webhook: id, the company. */
  | 'carrier'
  /** A buyer on a public page (returns, unsubscribe, a messenger): the entry's ip says from where. */
  | 'buyer';

export interface AuditActor {
  kind: ActorKind;
  id: string | null;
}

export interface RecordRef {
  type: string;
  ids: Array<number | string>;
}

export interface DeclaredChange extends RecordRef {
  before?: unknown;
  after?: unknown;
}

/** The context of the change under way. */
export interface AuditContext {
  accountId: number | null;
  actor: AuditActor;
  operation: string;
  ip: string | null;
  userAgent: string | null;
  /** Records known before any write (the path's ids, the body's). */
  records: RecordRef[];
  changes: DeclaredChange[];
  /** Bumped by every declaration: an entry written before it is brought up to date at the next write. */
  version: number;
  /** Per transaction (the driver's object), per account: the entry written in it. */
  entries: WeakMap<object, Map<number, WrittenEntry>>;
  /** Writes are not audited (a recipe that carries its own entry on the event loop). */
  off: boolean;
}

interface WrittenEntry {
  id: number;
  version: number;
  records: RecordRef[];
}

const contexts = new AsyncLocalStorage<AuditContext>();

/** Tables whose writes are bookkeeping, not someone's change: they make no entry by themselves. */
export const BOOKKEEPING_TABLES: ReadonlySet<string> = new Set([
  'jobs',
  'idempotency_keys',
  'audit_entries',
  'event_consumers',
  'webhook_attempts',
  'webhook_deliveries',
  'transit_observations',
  'transit_stats',
  'files',
  'file_chunks',
  'reference_versions',
  'widget_selections',
  'notifications',
  'buyer_messages',
  'analytical_reports',
  'access_tokens',
]);

export function newAuditContext(
  fields: Pick<AuditContext, 'accountId' | 'actor' | 'operation'> &
    Partial<Pick<AuditContext, 'ip' | 'userAgent' | 'records'>>,
): AuditContext {
  return {
    ip: null,
    userAgent: null,
    records: [],
    ...fields,
    changes: [],
    version: 0,
    entries: new WeakMap(),
    off: false,
  };
}

/** Runs `work` as the change `context` describes: its writes are audited. */
export function runAudited<T>(context: AuditContext, work: () => T): T {
  return contexts.run(context, work);
}

/** Runs `work` as no one's change (a CLI command's start: migrations, reference data). */
export function outsideAudit<T>(work: () => T): T {
  return contexts.exit(work);
}

/** The context of the change under way, if any. */
export function currentAudit(): AuditContext | undefined {
  return contexts.getStore();
}

/**
 * Who a change without a bearer token is, found where the route resolves its caller (a
 * publishable key, a carrier's secret, a returns link, an operator token), and, when that
 * caller belongs to one account, that account: the change is then in the account's chain
 * instead of account 0's. A context that already has an account (a bearer token's) keeps it.
 */
export function identifyAuditCaller(caller: { actor?: AuditActor; accountId?: number }): void {
  const context = contexts.getStore();
  if (!context) return;
  if (caller.actor) context.actor = caller.actor;
  if (caller.accountId !== undefined && context.accountId === null) context.accountId = caller.accountId;
}

/**
 * Runs `work`, a change of one account's records, in that account's chain: for a caller that
 * acts for several accounts in one request or job (a carrier's push of several orders, an
 * operator's warehouse). A context of its own (same actor, operation, address; `records` added
 * to the request's: an update by id names no record itself), so an entry written for another
 * account in the same transaction is not taken for this one's.
 */
export function inAuditAccount<T>(accountId: number, work: () => T, records: RecordRef[] = []): T {
  const context = contexts.getStore();
  if (!context) return work();
  return contexts.run(
    {
      ...context,
      accountId,
      records: [...context.records, ...records],
      changes: [],
      version: 0,
      entries: new WeakMap(),
    },
    work,
  );
}

/** Names of fields that hold a credential (a bot's token, a gateway's API id, a password, a DaData secret key, integration credentials). */
const CREDENTIAL = /(api_?key|secret|secret_?key|token|password|hash|cipher|api_?id|login|credentials)$/i;

/** A copy of `value` with credential-like fields hidden (a settings change must not put a secret in the trail). */
export function withoutCredentials(value: unknown, depth = 0): unknown {
  if (depth > 12 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => withoutCredentials(item, depth + 1));
  const copy: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
    if (inner === undefined) continue;
    copy[key] = CREDENTIAL.test(key) && inner !== null ? '[hidden]' : withoutCredentials(inner, depth + 1);
  }
  return copy;
}

/**
 * What the change about to be written is: its records and, for settings, the values before and
 * after. Call it before the write it describes (an entry already written is updated at the next
 * write of the same transaction). Outside an audited change it does nothing.
 */
export function declareChange(change: DeclaredChange): void {
  const context = contexts.getStore();
  if (!context) return;
  const declared: DeclaredChange = {
    type: change.type,
    ids: change.ids,
    ...(change.before !== undefined ? { before: withoutCredentials(change.before) } : {}),
    ...(change.after !== undefined ? { after: withoutCredentials(change.after) } : {}),
  };
  // a change tried again (a conflict retried) declares itself again: the last declaration stands
  const same = context.changes.findIndex(
    (earlier) => earlier.type === change.type && JSON.stringify(earlier.ids) === JSON.stringify(change.ids),
  );
  if (same >= 0) context.changes[same] = declared;
  else context.changes.push(declared);
  context.version++;
}

/** The table a write statement changes, or null when it cannot be told. */
export function tableOf(query: CompiledQuery): string | null {
  const node = query.query as unknown as {
    kind: string;
    into?: { table?: { identifier?: { name?: string } } };
    table?: { table?: { identifier?: { name?: string } }; node?: { table?: { identifier?: { name?: string } } } };
    from?: { froms?: Array<{ table?: { identifier?: { name?: string } } }> };
    with?: { expressions?: Array<{ expression?: unknown }> };
  };
  // `with written as (insert into orders …) insert into order_events …`: the change is the first insert's
  const first = node.with?.expressions?.[0]?.expression as { kind?: string } | undefined;
  if (first?.kind === 'InsertQueryNode') return tableOf({ ...query, query: first } as CompiledQuery);
  switch (node.kind) {
    case 'InsertQueryNode':
      return node.into?.table?.identifier?.name ?? null;
    case 'UpdateQueryNode':
      return node.table?.table?.identifier?.name ?? node.table?.node?.table?.identifier?.name ?? null;
    case 'DeleteQueryNode':
      return node.from?.froms?.[0]?.table?.identifier?.name ?? null;
    default:
      return tableOfSql(query.sql);
  }
}

export function tableOfSql(text: string): string | null {
  const match = /^\s*(?:insert\s+(?:or\s+\w+\s+)?into|update|delete\s+from|replace\s+into)\s+"?(\w+)"?/i.exec(text);
  return match ? (match[1] as string) : null;
}

interface AstNode {
  kind?: string;
  [field: string]: unknown;
}

function nameOf(node: unknown): string | undefined {
  const column = node as { column?: { name?: unknown; column?: { name?: unknown } } } | undefined;
  const name = column?.column?.name ?? column?.column?.column?.name;
  return typeof name === 'string' ? name : undefined;
}

function accountValue(value: unknown): number | null {
  const number = typeof value === 'bigint' ? Number(value) : value;
  return typeof number === 'number' && Number.isSafeInteger(number) && number > 0 ? number : null;
}

/** `account_id = ?` in a where clause's conjunction (an or, a subquery: not told). */
function accountOfWhere(node: AstNode | undefined, depth = 0): number | null {
  if (!node || depth > 20) return null;
  if (node.kind === 'AndNode' || node.kind === 'ParensNode')
    return (
      accountOfWhere((node.left ?? node.node) as AstNode, depth + 1) ??
      accountOfWhere(node.right as AstNode | undefined, depth + 1)
    );
  if (node.kind !== 'BinaryOperationNode') return null;
  const operator = (node.operator as { operator?: string } | undefined)?.operator;
  const right = node.rightOperand as { kind?: string; value?: unknown } | undefined;
  if (operator !== '=' || right?.kind !== 'ValueNode' || nameOf(node.leftOperand) !== 'account_id') return null;
  return accountValue(right.value);
}

/**
 * The account a write names: an insert's `account_id` value (its first row), an update's or
 * delete's `where account_id = ?` (every store's query is scoped so). Null when it names none.
 */
export function accountOfWrite(query: CompiledQuery): number | null {
  const node = query.query as unknown as AstNode;
  if (node.kind === 'InsertQueryNode') {
    const columns = (node.columns as unknown[] | undefined) ?? [];
    const at = columns.findIndex((column) => {
      const name = (column as { column?: { name?: unknown } }).column?.name;
      return name === 'account_id';
    });
    const rows = (node.values as { values?: Array<{ kind?: string; values?: unknown[] }> } | undefined)?.values;
    const first = rows?.[0];
    if (at < 0 || !first?.values) return null;
    const value = first.values[at];
    return accountValue(
      first.kind === 'PrimitiveValueListNode'
        ? value
        : (value as { kind?: string; value?: unknown } | undefined)?.value,
    );
  }
  if (node.kind === 'UpdateQueryNode' || node.kind === 'DeleteQueryNode')
    return accountOfWhere((node.where as { where?: AstNode } | undefined)?.where);
  return null;
}

function createdId(query: CompiledQuery, result: QueryResult<unknown>): number | null {
  if (query.query.kind !== 'InsertQueryNode' && !/^\s*insert/i.test(query.sql)) return null;
  const row = result.rows[0];
  if (row && typeof row === 'object') {
    const record = row as Record<string, unknown>;
    // its own id, or (a statement inserting the rows of what a first insert made) the id it returns of that
    const names = Object.keys(record);
    const id = record.id ?? (names.length === 1 && names[0]?.endsWith('_id') ? record[names[0]] : undefined);
    if (typeof id === 'number' || typeof id === 'bigint') return Number(id);
  }
  if (result.insertId !== undefined && result.insertId > 0n) return Number(result.insertId);
  return null;
}

function recordsOf(context: AuditContext, own: RecordRef[]): RecordRef[] {
  const all = [...context.records, ...own, ...context.changes.map(({ type, ids }) => ({ type, ids }))];
  const seen = new Set<string>();
  const named = all.filter((record) => {
    const key = `${record.type} ${JSON.stringify(record.ids)}`;
    if (record.ids.length === 0 || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  // a record of no id (a change of many rows, or one whose id is not known) is kept only when it is all there is
  return named.length > 0 ? named : all.slice(0, 1);
}

/** ` orders:12 shops:3 `: what the record filter searches (a record with no id yet: ` orders: `). */
export function recordKeys(records: readonly RecordRef[]): string {
  const keys = records.flatMap((record) =>
    record.ids.length === 0 ? [`${record.type}:`] : record.ids.map((id) => `${record.type}:${id}`),
  );
  return ` ${keys.join(' ')} `.replace(/ {2,}/g, ' ');
}

function changesOf(context: AuditContext): string | null {
  const declared = context.changes.filter((change) => 'before' in change || 'after' in change);
  return declared.length === 0 ? null : JSON.stringify(declared);
}

/** The observer the database calls after each write (install with `database.observeWrites`). */
export function auditObserver(db: Kysely<Tables>, enabled: () => boolean): WriteObserver {
  return {
    observing() {
      const context = contexts.getStore();
      return context !== undefined && !context.off && enabled();
    },
    async afterWrite(run: RunStatement, result: QueryResult<unknown>, transaction: object, query?: CompiledQuery) {
      const context = contexts.getStore();
      if (!context || context.off || !query) return;
      const table = tableOf(query);
      const bookkeeping = table === null || BOOKKEEPING_TABLES.has(table);
      // a caller of no account yet (a public route, an operator token): the account the write itself names;
      // a write naming none belongs with the transaction's entry, if there is one
      const named = context.accountId ?? (bookkeeping ? null : accountOfWrite(query));
      let written = context.entries.get(transaction);
      const entry = named === null ? written?.values().next().value : written?.get(named);
      const accountId = named ?? 0;
      if (entry) {
        if (entry.version === context.version) return;
        entry.version = context.version;
        await run(
          db
            .updateTable('audit_entries')
            .set({
              records: JSON.stringify(recordsOf(context, entry.records)),
              record_keys: recordKeys(recordsOf(context, entry.records)),
              changes: changesOf(context),
            })
            .where('id', '=', entry.id)
            .compile(),
        );
        return;
      }
      if (bookkeeping) return;
      const id = createdId(query, result);
      // an operator's command that makes an account is that account's first change
      if (context.accountId === null && table === 'accounts' && id !== null) context.accountId = id;
      const own: RecordRef[] = [{ type: table, ids: id === null ? [] : [id] }];
      const inserted = await run(
        db
          .insertInto('audit_entries')
          .values(entryValues(context, recordsOf(context, own), context.accountId ?? accountId))
          .returning('id')
          .compile(),
      );
      const entryId = createdId({ query: { kind: 'InsertQueryNode' }, sql: 'insert' } as CompiledQuery, inserted);
      if (entryId === null) return;
      if (!written) {
        written = new Map();
        context.entries.set(transaction, written);
      }
      written.set(context.accountId ?? accountId, { id: entryId, version: context.version, records: own });
    },
    recipeStep(firstSql: string) {
      const context = contexts.getStore();
      if (!context || context.off || !enabled()) return null;
      const table = tableOfSql(firstSql);
      if (table === null || BOOKKEEPING_TABLES.has(table)) return null;
      return recipeEntry(context, table);
    },
    offContext<T>(work: () => T): T {
      const context = contexts.getStore();
      return context ? contexts.run({ ...context, off: true }, work) : work();
    },
  };
}

function entryValues(context: AuditContext, records: RecordRef[], accountId = context.accountId ?? 0) {
  return {
    account_id: accountId,
    at: new Date().toISOString(),
    actor_kind: context.actor.kind,
    actor_id: context.actor.id,
    operation: context.operation,
    records: JSON.stringify(records),
    record_keys: recordKeys(records),
    changes: changesOf(context),
    ip: context.ip,
    user_agent: context.userAgent,
  };
}

/** The entry as one more statement of a SQLite recipe: the record's id is the recipe's first insert's (sqlite-writer.ts). */
function recipeEntry(context: AuditContext, table: string): RecipeStep {
  const known = recordsOf(context, []);
  const values = entryValues(context, known);
  return {
    sql:
      'insert into audit_entries (account_id, at, actor_kind, actor_id, operation, records, changes, ip, user_agent, record_keys) ' +
      "values (?, ?, ?, ?, ?, json_insert(?, '$[#]', json_object('type', ?, 'ids', json_array(cast(? as integer)))), ?, ?, ?, ? || ? || ':' || cast(? as integer) || ' ')",
    parameters: [
      values.account_id,
      values.at,
      values.actor_kind,
      values.actor_id,
      values.operation,
      values.records,
      table,
      null,
      values.changes,
      values.ip,
      values.user_agent,
      values.record_keys,
      table,
      null,
    ],
    firstIdAt: [7, 13],
  };
}

/** Keys sorted at every level: the one text of an entry its hash is taken over. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item)).join(',')}]`;
  const record = value as Record<string, unknown>;
  return `{${Object.keys(record)
    .filter((key) => record[key] !== undefined)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`)
    .join(',')}}`;
}

/** Who a request's scope is, for the trail. */
export function actorOf(scope: Scope | null | undefined, url: string): { accountId: number | null; actor: AuditActor } {
  if (!scope) return { accountId: null, actor: { kind: url.includes('/operator/') ? 'operator' : 'public', id: null } };
  const accountId = scope.accountId;
  if (scope.apiKeyId !== undefined) return { accountId, actor: { kind: 'api-key', id: String(scope.apiKeyId) } };
  if (scope.kind === 'employee' && scope.employeeId !== null)
    return { accountId, actor: { kind: 'employee', id: String(scope.employeeId) } };
  if (scope.kind === 'shop') return { accountId, actor: { kind: 'shop-key', id: String(scope.shopKeyShopId) } };
  return { accountId, actor: { kind: 'account-token', id: null } };
}

const ID_PARAM = /^(id|\w+Id)$/;

/** The records a job's payload names: `orderId: 12` → orders 12, `orderIds: [..]` → orders. */
export function recordsOfPayload(payload: unknown): RecordRef[] {
  if (!payload || typeof payload !== 'object' || Array.isArray(payload)) return [];
  const records: RecordRef[] = [];
  for (const [name, value] of Object.entries(payload as Record<string, unknown>)) {
    const match = /^(\w+)Ids?$/.exec(name);
    if (!match) continue;
    const ids = (Array.isArray(value) ? value.slice(0, MAX_BODY_IDS) : [value]).filter(
      (id): id is number | string => typeof id === 'number' || typeof id === 'string',
    );
    if (ids.length > 0) records.push({ type: pluralOf(match[1] as string), ids });
  }
  return records;
}
const MAX_BODY_IDS = 1000;

/** A record named as the tables are: orderId → orders, companyId → companies, fiasId → fias. */
function pluralOf(word: string): string {
  if (word.endsWith('s')) return word;
  if (/[^aeiou]y$/.test(word)) return `${word.slice(0, -1)}ies`;
  return `${word}s`;
}

/** The records a request names: its path's ids (typed by the path's resource) and a body's `ids`/`orderIds`. */
export function recordsOfRequest(url: string, params: unknown, body: unknown): RecordRef[] {
  const records: RecordRef[] = [];
  const segments = url.split('/').filter((part) => part !== '' && part !== 'v2');
  // named as the tables are: /v2/api-keys/7 → api_keys 7; the segment before the id (/v2/operator/bills/:id → bills)
  const at = segments.indexOf(':id');
  const resource = ((at > 0 ? segments[at - 1] : segments[0]) ?? 'request').replaceAll('-', '_');
  if (params && typeof params === 'object')
    for (const [name, value] of Object.entries(params as Record<string, unknown>)) {
      if (!ID_PARAM.test(name) || (typeof value !== 'number' && typeof value !== 'string')) continue;
      const type = name === 'id' ? resource : pluralOf(name.slice(0, -2));
      records.push({ type, ids: [value] });
    }
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const fields = body as Record<string, unknown>;
    for (const name of ['ids', 'orderIds']) {
      const ids = fields[name];
      if (Array.isArray(ids))
        records.push({
          type: name === 'ids' ? resource : 'orders',
          ids: ids.slice(0, MAX_BODY_IDS).filter((id) => typeof id === 'number' || typeof id === 'string'),
        });
    }
  }
  return records;
}

/**
 * Runs the handler of every operation that is not a read in an audit context (its actor, its
 * operationId, the request's address and user agent, the records it names). Install after
 * key-scopes.ts (whose registry tells reads) and before the routes.
 */
export function installAuditContext(app: FastifyInstance): void {
  // once the answer is on its way the change is over: what the sending writes (an idempotency key's answer) is not part of it
  app.addHook('onSend', async (_request, _reply, payload) => {
    const context = contexts.getStore();
    if (context) context.off = true;
    return payload;
  });
  app.addHook('onRoute', (route) => {
    const methods = (Array.isArray(route.method) ? route.method : [route.method]).map(String);
    const changes = new Map<string, string>();
    for (const method of methods) {
      const access = accessOf(method, route.url);
      if (!access.read) changes.set(method.toUpperCase(), access.operationId ?? `${method} ${route.url}`);
    }
    if (changes.size === 0) return;
    const handler = route.handler;
    route.handler = function auditedHandler(this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
      const operation = changes.get(request.method);
      if (operation === undefined) return handler.call(this, request, reply);
      const url = route.url;
      const context = newAuditContext({
        ...actorOf(request.scope, url),
        operation,
        ip: request.ip,
        userAgent: (request.headers['user-agent'] ?? '').slice(0, 300) || null,
        records: recordsOfRequest(url, request.params, request.body),
      });
      return contexts.run(context, () => handler.call(this, request, reply));
    };
  });
}

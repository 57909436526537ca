/** SQL of notifications, scoped by account and recipient. */
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Tables } from '../../platform/db/tables.js';
import { nowIso } from '../../platform/db/values.js';
import type { Page, Paging } from '../../platform/paging.js';

type Db = Kysely<Tables> | Transaction<Tables>;
export type NotificationRow = Selectable<Tables['notifications']>;
export type NewNotification = Omit<NotificationRow, 'id' | 'emailed_at' | 'read_at'>;

export class NotificationStore {
  constructor(readonly db: Kysely<Tables>) {}

  transaction<T>(work: (trx: Transaction<Tables>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  /** Adds notifications; one already made (same event, type, person) is left as it is. The rows added. */
  async insert(
    rows: NewNotification[],
    db: Db = this.db,
  ): Promise<Array<{ id: number; account_id: number; email_to: string | null }>> {
    if (rows.length === 0) return [];
    return db
      .insertInto('notifications')
      .values(rows)
      .onConflict((conflict) => conflict.columns(['event_id', 'type', 'recipient']).doNothing())
      .returning(['id', 'account_id', 'email_to'])
      .execute();
  }

  async page(
    accountId: number,
    recipient: string,
    filter: { unread?: boolean },
    paging: Paging,
  ): Promise<Page<NotificationRow>> {
    let query = this.db
      .selectFrom('notifications')
      .where('account_id', '=', accountId)
      .where('recipient', '=', recipient);
    if (filter.unread === true) query = query.where('read_at', 'is', null);
    if (filter.unread === false) query = query.where('read_at', 'is not', null);
    const [items, total] = await Promise.all([
      query.selectAll().orderBy('id', 'desc').limit(paging.perPage).offset(paging.offset).execute(),
      query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { items, total: Number(total.total) };
  }

  /** The ids among `ids` that are this person's notifications. */
  async owned(accountId: number, recipient: string, ids: number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('notifications')
      .select('id')
      .where('account_id', '=', accountId)
      .where('recipient', '=', recipient)
      .where('id', 'in', ids)
      .execute();
    return new Set(rows.map((row) => row.id));
  }

  async markRead(accountId: number, recipient: string, ids: number[]): Promise<void> {
    await this.db
      .updateTable('notifications')
      .set({ read_at: nowIso() })
      .where('account_id', '=', accountId)
      .where('recipient', '=', recipient)
      .where('id', 'in', ids)
      .where('read_at', 'is', null)
      .execute();
  }

  /** A notification for its e-mail job (which knows the account). */
  async get(accountId: number, id: number): Promise<NotificationRow | undefined> {
    return this.db
      .selectFrom('notifications')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  async setEmailStatus(accountId: number, id: number, status: 'sent' | 'failed'): Promise<void> {
    await this.db
      .updateTable('notifications')
      .set({ email_status: status, ...(status === 'sent' ? { emailed_at: nowIso() } : {}) })
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .execute();
  }
}

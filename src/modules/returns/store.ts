/** The returns' SQL, always scoped by account. */
import type { Insertable, Kysely, Selectable, Transaction, Updateable } from 'kysely';
import type { Tables } from '../../platform/db/tables.js';
import { fromJson, toJson } from '../../platform/db/values.js';
import type { ReturnSettings } from './rules.js';

export type Db = Kysely<Tables> | Transaction<Tables>;
export type ReturnRow = Selectable<Tables['returns']>;
export type NewReturnRow = Insertable<Tables['returns']>;

export interface ReturnFilter {
  status?: string;
  shopId?: number;
  orderId?: number;
  /** Instants [from, to) of creation. */
  from?: string;
  to?: string;
}

export class ReturnStore {
  constructor(readonly db: Kysely<Tables>) {}

  transaction<T>(work: (trx: Transaction<Tables>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  async insert(row: NewReturnRow, db: Db = this.db): Promise<number> {
    const inserted = await db.insertInto('returns').values(row).returning('id').executeTakeFirstOrThrow();
    return Number(inserted.id);
  }

  async get(accountId: number, id: number, db: Db = this.db): Promise<ReturnRow | undefined> {
    return db
      .selectFrom('returns')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** The order's returns (what they take of its lines). */
  async ofOrder(accountId: number, orderId: number, db: Db = this.db): Promise<ReturnRow[]> {
    return db
      .selectFrom('returns')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('order_id', '=', orderId)
      .orderBy('id')
      .execute();
  }

  async byParcel(accountId: number, parcelOrderId: number): Promise<ReturnRow | undefined> {
    return this.db
      .selectFrom('returns')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('parcel_order_id', '=', parcelOrderId)
      .executeTakeFirst();
  }

  private filtered(accountId: number, filter: ReturnFilter) {
    let query = this.db.selectFrom('returns').where('account_id', '=', accountId);
    if (filter.status !== undefined) query = query.where('status', '=', filter.status);
    if (filter.shopId !== undefined) query = query.where('shop_id', '=', filter.shopId);
    if (filter.orderId !== undefined) query = query.where('order_id', '=', filter.orderId);
    if (filter.from !== undefined) query = query.where('created_at', '>=', filter.from);
    if (filter.to !== undefined) query = query.where('created_at', '<', filter.to);
    return query;
  }

  /** A page, newest first. */
  page(accountId: number, filter: ReturnFilter, paging: { offset: number; perPage: number }): Promise<ReturnRow[]> {
    return this.filtered(accountId, filter)
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(paging.perPage)
      .offset(paging.offset)
      .execute();
  }

  /** How many returns the filter holds. */
  async count(accountId: number, filter: ReturnFilter): Promise<number> {
    const row = await this.filtered(accountId, filter)
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow();
    return Number(row.total);
  }

  /** Writes a change if the return is still in `from` (a compare-and-set: two approvals, one wins). */
  async update(
    accountId: number,
    id: number,
    from: string,
    changes: Updateable<Tables['returns']>,
    db: Db = this.db,
  ): Promise<boolean> {
    const result = await db
      .updateTable('returns')
      .set({ ...changes, updated_at: new Date().toISOString() })
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .where('status', '=', from)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async settingsOf(accountId: number, shopId: number): Promise<ReturnSettings | undefined> {
    const row = await this.db
      .selectFrom('return_settings')
      .select('settings')
      .where('account_id', '=', accountId)
      .where('shop_id', '=', shopId)
      .executeTakeFirst();
    return row ? fromJson<ReturnSettings>(row.settings) : undefined;
  }

  async saveSettings(accountId: number, shopId: number, settings: ReturnSettings): Promise<void> {
    const values = { settings: toJson(settings), updated_at: new Date().toISOString() };
    await this.db
      .insertInto('return_settings')
      .values({ account_id: accountId, shop_id: shopId, ...values })
      .onConflict((conflict) => conflict.columns(['account_id', 'shop_id']).doUpdateSet(values))
      .execute();
  }
}

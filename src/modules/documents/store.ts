/** SQL of the documents area: sticker sets and waybill sets, always scoped by account. */
import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { Tables } from '../../platform/db/tables.js';
import type { DocumentTables } from './tables.js';

export type StickerSetRow = Selectable<DocumentTables['sticker_sets']>;
export type WaybillSetRow = DocumentTables['waybill_sets'];
type NewStickerSet = Omit<Insertable<DocumentTables['sticker_sets']>, 'id'>;
type NewWaybillSet = Omit<WaybillSetRow, 'id'>;

export class DocumentStore {
  constructor(private readonly db: Kysely<Tables>) {}

  async insertStickerSet(row: NewStickerSet): Promise<number> {
    const inserted = await this.db.insertInto('sticker_sets').values(row).returning('id').executeTakeFirstOrThrow();
    return Number(inserted.id);
  }

  /** Sets created in [from, to), oldest first; a shop key sees only its shop's sets. */
  async stickerSetsBetween(
    accountId: number,
    from: string,
    to: string,
    shopId: number | null,
  ): Promise<Array<Omit<StickerSetRow, 'id'> & { id: number }>> {
    let query = this.db
      .selectFrom('sticker_sets')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('created_at', '>=', from)
      .where('created_at', '<', to);
    if (shopId !== null) query = query.where('shop_id', '=', shopId);
    const rows = await query.orderBy('id').execute();
    return rows.map((row) => ({ ...row, id: Number(row.id) }));
  }

  async updateStickerSet(
    accountId: number,
    id: number,
    changes: Pick<Updateable<DocumentTables['sticker_sets']>, 'status' | 'labels_done' | 'files'>,
  ): Promise<void> {
    await this.db
      .updateTable('sticker_sets')
      .set(changes)
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .execute();
  }

  /** The state of the set whose answer is the file of that name (the name is the capability: no account to scope by). */
  async stickerSetOfFile(
    fileName: string,
  ): Promise<{ status: string; labelsDone: number; labelsTotal: number } | null> {
    const row = await this.db
      .selectFrom('sticker_sets')
      .select(['status', 'labels_done', 'labels_total'])
      .where('file_name', '=', fileName)
      .executeTakeFirst();
    return row
      ? { status: row.status, labelsDone: Number(row.labels_done), labelsTotal: Number(row.labels_total) }
      : null;
  }

  /** The label printer resolution of each of these warehouses that has one set. */
  async printerDpi(accountId: number, warehouseIds: number[]): Promise<Map<number, number>> {
    if (warehouseIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('warehouse_label_printers')
      .select(['warehouse_id', 'dpi'])
      .where('account_id', '=', accountId)
      .where('warehouse_id', 'in', warehouseIds)
      .execute();
    return new Map(rows.map((row) => [Number(row.warehouse_id), Number(row.dpi)]));
  }

  async setPrinterDpi(accountId: number, warehouseId: number, dpi: number, now: string): Promise<void> {
    await this.db
      .insertInto('warehouse_label_printers')
      .values({ account_id: accountId, warehouse_id: warehouseId, dpi, updated_at: now })
      .onConflict((conflict) => conflict.columns(['account_id', 'warehouse_id']).doUpdateSet({ dpi, updated_at: now }))
      .execute();
  }

  async insertWaybillSet(row: NewWaybillSet): Promise<number> {
    const inserted = await this.db.insertInto('waybill_sets').values(row).returning('id').executeTakeFirstOrThrow();
    return Number(inserted.id);
  }

  /** Newest first. */
  async waybillSets(
    accountId: number,
    filter: { warehouseId?: number; shopId: number | null },
    offset: number,
    limit: number,
  ): Promise<{ rows: Array<Omit<WaybillSetRow, 'id'> & { id: number }>; total: number }> {
    let query = this.db.selectFrom('waybill_sets').where('account_id', '=', accountId);
    if (filter.warehouseId !== undefined) query = query.where('warehouse_id', '=', filter.warehouseId);
    if (filter.shopId !== null) query = query.where('shop_id', '=', filter.shopId);
    const rows = await query.selectAll().orderBy('id', 'desc').offset(offset).limit(limit).execute();
    const count = await query.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
    return { rows: rows.map((row) => ({ ...row, id: Number(row.id) })), total: Number(count.count) };
  }

  async completeWaybillSet(accountId: number, id: number, actUrl: string, waybillUrl: string | null): Promise<void> {
    await this.db
      .updateTable('waybill_sets')
      .set({ act_url: actUrl, waybill_url: waybillUrl })
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .execute();
  }

  async deleteWaybillSet(accountId: number, id: number): Promise<void> {
    await this.db.deleteFrom('waybill_sets').where('account_id', '=', accountId).where('id', '=', id).execute();
  }
}

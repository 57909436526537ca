import { sql, type Kysely, type Selectable } from 'kysely';
import type { Tables } from '../../platform/db/tables.js';
import { containsPattern as likePattern, nowIso, searchText } from '../../platform/db/values.js';
import type { Page, Paging } from '../../platform/paging.js';

export interface KitLine {
  productId: number;
  count: number;
}

export interface KitValues {
  shopId: number;
  name: string;
  vendorCode: string;
  discount: number;
  lines: KitLine[];
}

export interface KitRecord extends Omit<KitValues, 'lines'> {
  id: number;
}

export interface KitFilter {
  shopId?: number;
  nameContains?: string;
  vendorCodeContains?: string;
  /** Name or vendor code. */
  textContains?: string;
}

function toRecord(row: Selectable<Tables['kits']>): KitRecord {
  return { id: row.id, shopId: row.shop_id, name: row.name, vendorCode: row.vendor_code, discount: row.discount };
}

function toColumns(values: KitValues) {
  return {
    shop_id: values.shopId,
    name: values.name,
    search_name: searchText(values.name),
    vendor_code: values.vendorCode,
    search_vendor_code: searchText(values.vendorCode),
    discount: values.discount,
  };
}

type SearchColumn = 'search_name' | 'search_vendor_code';

/** `column LIKE '%needle%' ESCAPE '\\'`: the escape makes `%` and `_` in the needle literal on SQLite too. */
function contains(column: SearchColumn, needle: string) {
  return sql<boolean>`${sql.ref(column)} like ${likePattern(needle)} escape '\\'`;
}

/** SQL of kits and their goods, always scoped by account. */
export class KitStore {
  constructor(private readonly db: Kysely<Tables>) {}

  async list(accountId: number, filter: KitFilter, paging: Paging): Promise<Page<KitRecord>> {
    let query = this.db.selectFrom('kits').where('account_id', '=', accountId);
    if (filter.shopId !== undefined) query = query.where('shop_id', '=', filter.shopId);
    if (filter.nameContains) query = query.where(contains('search_name', filter.nameContains));
    if (filter.vendorCodeContains) query = query.where(contains('search_vendor_code', filter.vendorCodeContains));
    if (filter.textContains) {
      const needle = filter.textContains;
      query = query.where((eb) => eb.or([contains('search_name', needle), contains('search_vendor_code', needle)]));
    }
    const [rows, count] = await Promise.all([
      query.selectAll().orderBy('id', 'desc').limit(paging.perPage).offset(paging.offset).execute(),
      query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { items: rows.map(toRecord), total: Number(count.total) };
  }

  async get(accountId: number, id: number): Promise<KitRecord | undefined> {
    const row = await this.db
      .selectFrom('kits')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }

  /** The goods of each kit, in their order. */
  async linesOf(accountId: number, kitIds: number[]): Promise<Map<number, KitLine[]>> {
    const lines = new Map<number, KitLine[]>(kitIds.map((id) => [id, []]));
    if (kitIds.length === 0) return lines;
    const rows = await this.db
      .selectFrom('kit_products')
      .select(['kit_id', 'product_id', 'count'])
      .where('account_id', '=', accountId)
      .where('kit_id', 'in', kitIds)
      .orderBy('kit_id')
      .orderBy('position')
      .execute();
    for (const row of rows) lines.get(row.kit_id)?.push({ productId: row.product_id, count: row.count });
    return lines;
  }

  async idByVendorCode(
    accountId: number,
    shopId: number,
    vendorCode: string,
    exceptId?: number,
  ): Promise<number | undefined> {
    let query = this.db
      .selectFrom('kits')
      .select('id')
      .where('account_id', '=', accountId)
      .where('shop_id', '=', shopId)
      .where('vendor_code', '=', vendorCode);
    if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
    return (await query.executeTakeFirst())?.id;
  }

  async insert(accountId: number, values: KitValues): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const now = nowIso();
      const row = await trx
        .insertInto('kits')
        .values({ account_id: accountId, ...toColumns(values), created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('kit_products')
        .values(
          values.lines.map((line, position) => ({
            account_id: accountId,
            kit_id: row.id,
            position,
            product_id: line.productId,
            count: line.count,
          })),
        )
        .execute();
      return row.id;
    });
  }

  async update(accountId: number, id: number, values: KitValues): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable('kits')
        .set({ ...toColumns(values), updated_at: nowIso() })
        .where('account_id', '=', accountId)
        .where('id', '=', id)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return false;
      await trx.deleteFrom('kit_products').where('account_id', '=', accountId).where('kit_id', '=', id).execute();
      await trx
        .insertInto('kit_products')
        .values(
          values.lines.map((line, position) => ({
            account_id: accountId,
            kit_id: id,
            position,
            product_id: line.productId,
            count: line.count,
          })),
        )
        .execute();
      return true;
    });
  }

  async delete(accountId: number, id: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('kit_products').where('account_id', '=', accountId).where('kit_id', '=', id).execute();
      const result = await trx
        .deleteFrom('kits')
        .where('account_id', '=', accountId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    });
  }
}

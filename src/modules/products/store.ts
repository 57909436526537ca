import { sql, type Kysely, type Selectable, type SelectQueryBuilder, type Transaction } from 'kysely';
import type { DatabaseKind } from '../../platform/db/database.js';
import type { Tables } from '../../platform/db/tables.js';
import {
  containsPattern as likePattern,
  flag,
  fromJson,
  gramsToKg,
  nowIso,
  searchText,
  toJson,
  isUniqueViolation,
} from '../../platform/db/values.js';
import { toRoubles } from '../../platform/money.js';
import type { Paging } from '../../platform/paging.js';
import type { ProductSortField } from './schemas.js';

/** A product as the rules see it: money in kopecks, weight in grams. */
export interface ProductValues {
  name: string;
  nameEn: string | null;
  vendorCode: string;
  vat: number | null;
  priceDeclaredKopecks: number | null;
  priceCodKopecks: number | null;
  weightGrams: number | null;
  volume: number | null;
  width: number | null;
  height: number | null;
  length: number | null;
  expirityDays: number | null;
  photo: string | null;
  tnved: string | null;
  barcodes: string[];
  brand: string | null;
  producingCountry: string | null;
  markCodeRequired: boolean;
  batchAccounting: boolean;
  bindings: unknown[];
}

/** What the store reads back: the values in outside units, stock not included. */
export interface ProductRecord {
  id: number;
  name: string;
  nameEn: string | null;
  vendorCode: string;
  vat: number | null;
  priceDeclared: number | null;
  priceCod: number | null;
  weight: number | null;
  volume: number | null;
  dimensions: { width: number | null; height: number | null; length: number | null };
  expirityDays: number | null;
  photo: string | null;
  tnved: string | null;
  barcodes: string[];
  brand: string | null;
  producingCountry: string | null;
  markCodeRequired: boolean;
  batchAccounting: boolean;
  bindings: unknown[];
  deleted: boolean;
}

export interface ProductFilter {
  nameContains?: string;
  vendorCodeContains?: string;
  tnvedContains?: string;
  barcodeContains?: string;
  ids?: number[];
  vendorCodes?: string[];
}

/** Where a keyset read of the list stopped: the last product's sort value and id. */
export interface ProductListPosition {
  value: string | number | null;
  id: number;
}

export interface ProductOrder {
  field: ProductSortField;
  desc: boolean;
}

const SORT_COLUMNS = {
  id: 'id',
  name: 'search_name',
  vendorCode: 'vendor_code',
  priceDeclared: 'price_declared_kopecks',
  priceCod: 'price_cod_kopecks',
  weight: 'weight_grams',
  brand: 'brand',
  tnved: 'tnved',
} as const satisfies Record<ProductSortField, keyof Tables['products']>;

type ProductRow = Selectable<Tables['products']>;

function toRecord(row: ProductRow): ProductRecord {
  return {
    id: row.id,
    name: row.name,
    nameEn: row.name_en,
    vendorCode: row.vendor_code,
    vat: row.vat,
    priceDeclared: row.price_declared_kopecks === null ? null : toRoubles(row.price_declared_kopecks),
    priceCod: row.price_cod_kopecks === null ? null : toRoubles(row.price_cod_kopecks),
    weight: row.weight_grams === null ? null : gramsToKg(row.weight_grams),
    volume: row.volume,
    dimensions: { width: row.width, height: row.height, length: row.length },
    expirityDays: row.expirity_days,
    photo: row.photo,
    tnved: row.tnved,
    barcodes: fromJson<string[]>(row.barcodes),
    brand: row.brand,
    producingCountry: row.producing_country,
    markCodeRequired: flag(row.mark_code_required),
    batchAccounting: flag(row.batch_accounting),
    bindings: fromJson<unknown[]>(row.bindings),
    deleted: row.deleted_at !== null,
  };
}

function toColumns(values: ProductValues) {
  return {
    vendor_code: values.vendorCode,
    search_vendor_code: searchText(values.vendorCode),
    name: values.name,
    search_name: searchText(values.name),
    name_en: values.nameEn,
    vat: values.vat,
    price_declared_kopecks: values.priceDeclaredKopecks,
    price_cod_kopecks: values.priceCodKopecks,
    weight_grams: values.weightGrams,
    volume: values.volume,
    width: values.width,
    height: values.height,
    length: values.length,
    expirity_days: values.expirityDays,
    photo: values.photo,
    tnved: values.tnved,
    search_tnved: searchText(values.tnved),
    barcodes: toJson(values.barcodes),
    search_barcodes: values.barcodes.map((barcode) => searchText(barcode)).join('\n'),
    brand: values.brand,
    producing_country: values.producingCountry,
    mark_code_required: values.markCodeRequired,
    batch_accounting: values.batchAccounting,
    bindings: toJson(values.bindings),
  };
}

/** Columns an import overwrites on a known vendor code: all but the keys and created_at. */
const UPSERT_COLUMNS = [
  'search_vendor_code',
  'name',
  'search_name',
  'name_en',
  'vat',
  'price_declared_kopecks',
  'price_cod_kopecks',
  'weight_grams',
  'volume',
  'width',
  'height',
  'length',
  'expirity_days',
  'photo',
  'tnved',
  'search_tnved',
  'barcodes',
  'search_barcodes',
  'brand',
  'producing_country',
  'mark_code_required',
  'batch_accounting',
  'bindings',
  'updated_at',
] as const satisfies readonly (keyof Tables['products'])[];

/** Rows per INSERT of an import: 27 parameters a row keeps PostgreSQL under its 65535. */
const IMPORT_BATCH = 500;

type SearchColumn = 'search_name' | 'search_vendor_code' | 'search_tnved' | 'search_barcodes';

/** `column LIKE '%needle%' ESCAPE '\\'`: the escape makes `%` and `_` in the needle literal on SQLite too. */
function contains(column: SearchColumn, needle: string) {
  return sql<boolean>`${sql.ref(column)} like ${likePattern(needle)} escape '\\'`;
}

/**
 * On SQLite, a needle of 3 characters or more is an FTS5 phrase over the trigram index
 * `products_search` (migration 0003_catalogue_search): consecutive trigrams are exactly
 * the substring, `%` and `_` are plain characters there, and no row is re-read to check.
 * Shorter needles have no trigram and scan. PostgreSQL's pg_trgm indexes serve the LIKE.
 */
function containsIndexed(engine: DatabaseKind, column: SearchColumn, needle: string) {
  const text = searchText(needle);
  if (engine !== 'sqlite' || [...text].length < 3) return contains(column, needle);
  const phrase = `{${column}} : "${text.replace(/"/g, '""')}"`;
  return sql<boolean>`id in (select rowid from products_search where products_search match ${phrase})`;
}

/** A binding identifier of the product is already another product's. */
export class BindingTakenError extends Error {
  override readonly name = 'BindingTakenError';
}

export interface BoundProductRow {
  id: number;
  vendorCode: string;
  name: string;
  width: number | null;
  height: number | null;
  length: number | null;
  weightGrams: number | null;
}

/** The identifier rows of validated bindings ({marketplaceId, <bindingName>: value, ...}). */
export function bindingRows(bindings: unknown[]): Array<{ marketplace_id: number; name: string; value: string }> {
  const rows = new Map<string, { marketplace_id: number; name: string; value: string }>();
  for (const binding of bindings) {
    if (!binding || typeof binding !== 'object') continue;
    const { marketplaceId, ...identifiers } = binding as Record<string, unknown>;
    if (typeof marketplaceId !== 'number') continue;
    for (const [name, value] of Object.entries(identifiers)) {
      if (typeof value === 'string')
        rows.set(`${marketplaceId}\u0000${name}\u0000${value}`, { marketplace_id: marketplaceId, name, value });
    }
  }
  return [...rows.values()];
}

type ProductSelect = SelectQueryBuilder<Tables, 'products', Selectable<Tables['products']>>;

/** The list's order: the sort column with empty values last in either direction (the engines' defaults differ), then id. */
function inListOrder(query: ProductSelect, order: ProductOrder): ProductSelect {
  const sorted =
    order.field === 'id'
      ? query
      : query.orderBy(SORT_COLUMNS[order.field], (item) => (order.desc ? item.desc() : item.asc()).nullsLast());
  return sorted.orderBy('id', order.desc ? 'desc' : 'asc');
}

/** SQL of the product catalogue, always scoped by account; deleted products are hidden unless asked for. */
export class ProductStore {
  constructor(
    private readonly db: Kysely<Tables>,
    private readonly engine: DatabaseKind,
  ) {}

  /**
   * One page of products; `total` is null when only a count can tell it (the page is full
   * or past the end): see `count`.
   */
  async list(
    accountId: number,
    filter: ProductFilter,
    order: ProductOrder,
    paging: Paging,
  ): Promise<{ items: ProductRecord[]; total: number | null }> {
    const rows = await inListOrder(this.filtered(accountId, filter).selectAll(), order)
      .limit(paging.perPage)
      .offset(paging.offset)
      .execute();
    // A page that is not full ends the list, so its total needs no count: most searches
    // match a page or less, and counting many matches is the dearest part of a search.
    const total =
      rows.length < paging.perPage && (rows.length > 0 || paging.offset === 0) ? paging.offset + rows.length : null;
    return { items: rows.map(toRecord), total };
  }

  /**
   * The next `limit` products of the list's order after `after` (keyset): what the export reads
   * page after page. By offset, each page of a sorted export sorted every match again (100k
   * products by name: 21 s; bench/dashboard-products.ts). Empty values come last, as in `list`.
   */
  async listAfter(
    accountId: number,
    filter: ProductFilter,
    order: ProductOrder,
    after: ProductListPosition | null,
    limit: number,
  ): Promise<{ items: ProductRecord[]; last: ProductListPosition | null }> {
    const column = SORT_COLUMNS[order.field];
    const beyond = order.desc ? '<' : '>';
    let query = this.filtered(accountId, filter).selectAll();
    if (after && order.field === 'id') query = query.where('id', beyond, after.id);
    else if (after && after.value === null) query = query.where(column, 'is', null).where('id', beyond, after.id);
    else if (after)
      query = query.where((eb) =>
        eb.or([
          eb(column, beyond, after.value),
          eb.and([eb(column, '=', after.value), eb('id', beyond, after.id)]),
          eb(column, 'is', null),
        ]),
      );
    const rows = await inListOrder(query, order).limit(limit).execute();
    const lastRow = rows.at(-1);
    return {
      items: rows.map(toRecord),
      last: lastRow ? { value: lastRow[column] ?? null, id: lastRow.id } : null,
    };
  }

  /** How many live products match the filter. */
  async count(accountId: number, filter: ProductFilter): Promise<number> {
    const counted = await this.filtered(accountId, filter)
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow();
    return Number(counted.total);
  }

  private filtered(accountId: number, filter: ProductFilter) {
    let query = this.db.selectFrom('products').where('account_id', '=', accountId).where('deleted_at', 'is', null);
    if (filter.nameContains) query = query.where(containsIndexed(this.engine, 'search_name', filter.nameContains));
    if (filter.vendorCodeContains)
      query = query.where(containsIndexed(this.engine, 'search_vendor_code', filter.vendorCodeContains));
    if (filter.tnvedContains) query = query.where(containsIndexed(this.engine, 'search_tnved', filter.tnvedContains));
    if (filter.barcodeContains)
      query = query.where(containsIndexed(this.engine, 'search_barcodes', filter.barcodeContains));
    if (filter.ids)
      query = filter.ids.length === 0 ? query.where(sql<boolean>`1 = 0`) : query.where('id', 'in', filter.ids);
    if (filter.vendorCodes)
      query =
        filter.vendorCodes.length === 0
          ? query.where(sql<boolean>`1 = 0`)
          : query.where('vendor_code', 'in', filter.vendorCodes);
    return query;
  }

  async get(accountId: number, id: number): Promise<ProductRecord | undefined> {
    const row = await this.db
      .selectFrom('products')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }

  /** Products by id, deleted ones included (kits and orders keep reading what they refer to). */
  async getMany(accountId: number, ids: number[]): Promise<ProductRecord[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('products')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('id', 'in', ids)
      .execute();
    return rows.map(toRecord);
  }

  /** The live products among `ids`. */
  async liveIds(accountId: number, ids: number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('products')
      .select('id')
      .where('account_id', '=', accountId)
      .where('id', 'in', ids)
      .where('deleted_at', 'is', null)
      .execute();
    return rows.map((row) => row.id);
  }

  /** Id of the live product with this vendor code, other than `exceptId`. */
  async idByVendorCode(accountId: number, vendorCode: string, exceptId?: number): Promise<number | undefined> {
    let query = this.db
      .selectFrom('products')
      .select('id')
      .where('account_id', '=', accountId)
      .where('vendor_code', '=', vendorCode)
      .where('deleted_at', 'is', null);
    if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
    return (await query.executeTakeFirst())?.id;
  }

  async insert(accountId: number, values: ProductValues): Promise<number> {
    const now = nowIso();
    return this.db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('products')
        .values({ account_id: accountId, ...toColumns(values), created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      await this.writeBindings(trx, accountId, row.id, values.bindings);
      return row.id;
    });
  }

  async update(accountId: number, id: number, values: ProductValues): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable('products')
        .set({ ...toColumns(values), updated_at: nowIso() })
        .where('account_id', '=', accountId)
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return false;
      await trx
        .deleteFrom('product_bindings')
        .where('account_id', '=', accountId)
        .where('product_id', '=', id)
        .execute();
      await this.writeBindings(trx, accountId, id, values.bindings);
      return true;
    });
  }

  /**
   * The product's binding identifiers as rows: their unique index, not a read before, keeps
   * an identifier to one product per marketplace (a taken one is a BindingTakenError).
   */
  private async writeBindings(
    trx: Transaction<Tables>,
    accountId: number,
    productId: number,
    bindings: unknown[],
  ): Promise<void> {
    const rows = bindingRows(bindings).map((row) => ({ account_id: accountId, product_id: productId, ...row }));
    if (rows.length === 0) return;
    try {
      await trx.insertInto('product_bindings').values(rows).execute();
    } catch (error) {
      if (isUniqueViolation(error)) throw new BindingTakenError();
      throw error;
    }
  }

  /** The products bound to these identifiers of a marketplace, keyed by `name \0 value`. */
  async boundProducts(
    accountId: number,
    marketplaceId: number,
    identifiers: Array<{ name: string; value: string }>,
  ): Promise<Map<string, BoundProductRow>> {
    const found = new Map<string, BoundProductRow>();
    const values = [...new Set(identifiers.map((item) => item.value))];
    for (let start = 0; start < values.length; start += 1000) {
      const rows = await this.db
        .selectFrom('product_bindings')
        .innerJoin('products', 'products.id', 'product_bindings.product_id')
        .select([
          'product_bindings.name as binding',
          'product_bindings.value',
          'products.id',
          'products.vendor_code',
          'products.name',
          'products.width',
          'products.height',
          'products.length',
          'products.weight_grams',
        ])
        .where('product_bindings.account_id', '=', accountId)
        .where('product_bindings.marketplace_id', '=', marketplaceId)
        .where('product_bindings.value', 'in', values.slice(start, start + 1000))
        .where('products.deleted_at', 'is', null)
        .execute();
      for (const row of rows) {
        found.set(`${row.binding}\u0000${row.value}`, {
          id: row.id,
          vendorCode: row.vendor_code,
          name: row.name,
          width: row.width,
          height: row.height,
          length: row.length,
          weightGrams: row.weight_grams,
        });
      }
    }
    return found;
  }

  async markDeleted(accountId: number, id: number): Promise<boolean> {
    const result = await this.db
      .updateTable('products')
      .set({ deleted_at: nowIso() })
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /**
   * Writes many products in one transaction: a new vendor code is inserted, a known one
   * overwrites that product (an upsert on the live-vendor-code index, batched).
   * Returns how many of them already existed.
   */
  async upsertMany(accountId: number, products: ProductValues[]): Promise<{ overwritten: number }> {
    if (products.length === 0) return { overwritten: 0 };
    // One lock order for every import, so two imports sharing vendor codes cannot deadlock.
    const ordered = [...products].sort((a, b) =>
      a.vendorCode < b.vendorCode ? -1 : a.vendorCode > b.vendorCode ? 1 : 0,
    );
    return this.db.transaction().execute(async (trx) => {
      const existing = await this.existingVendorCodes(
        trx,
        accountId,
        ordered.map((product) => product.vendorCode),
      );
      const now = nowIso();
      for (let start = 0; start < ordered.length; start += IMPORT_BATCH) {
        const rows = ordered
          .slice(start, start + IMPORT_BATCH)
          .map((values) => ({ account_id: accountId, ...toColumns(values), created_at: now, updated_at: now }));
        await trx
          .insertInto('products')
          .values(rows)
          .onConflict((conflict) =>
            conflict
              .columns(['account_id', 'vendor_code'])
              .where('deleted_at', 'is', null)
              .doUpdateSet((eb) =>
                Object.fromEntries(UPSERT_COLUMNS.map((column) => [column, eb.ref(`excluded.${column}`)])),
              ),
          )
          .execute();
      }
      // an import overwrites bindings with none: their identifier rows go too
      const overwritten = [...existing];
      for (let start = 0; start < overwritten.length; start += 5000) {
        const ids = trx
          .selectFrom('products')
          .select('id')
          .where('account_id', '=', accountId)
          .where('vendor_code', 'in', overwritten.slice(start, start + 5000));
        await trx
          .deleteFrom('product_bindings')
          .where('account_id', '=', accountId)
          .where('product_id', 'in', ids)
          .execute();
      }
      return { overwritten: existing.size };
    });
  }

  private async existingVendorCodes(
    trx: Transaction<Tables>,
    accountId: number,
    vendorCodes: string[],
  ): Promise<Set<string>> {
    const found = new Set<string>();
    for (let start = 0; start < vendorCodes.length; start += 5000) {
      const rows = await trx
        .selectFrom('products')
        .select('vendor_code')
        .where('account_id', '=', accountId)
        .where('deleted_at', 'is', null)
        .where('vendor_code', 'in', vendorCodes.slice(start, start + 5000))
        .execute();
      for (const row of rows) found.add(row.vendor_code);
    }
    return found;
  }
}

/** The product catalogue of an account: goods with their sizes, weights, values and VAT. */
import { AccountReadCache } from '../../platform/cache.js';
import type { Scope } from '../../platform/auth.js';
import {
  AppError,
  conflict,
  FieldErrorCollector,
  notFound,
  unprocessable,
  type ErrorItem,
} from '../../platform/errors.js';
import { gramsOf } from '../../platform/measures.js';
import { toKopecks } from '../../platform/money.js';
import type { Page, Paging } from '../../platform/paging.js';
import { compileValidator } from '../../platform/validation.js';
import type { CountryDirectory } from '../lists/countries.js';
import { IMPORT_COLUMNS, MAX_IMPORT_ROWS } from './import/layout.js';
import { decodeBase64File, readImportRows, type RawRow } from './import/reader.js';
import { renderImportTemplate } from './import/template.js';
import {
  ProductInput,
  type ImportResult,
  type Product,
  type ProductListQuery,
  type ProductPatch,
  type ProductSortField,
} from './schemas.js';
import { NO_STOCK, type ProductStock } from './stock.js';
import { isUniqueViolation } from '../../platform/db/values.js';
import {
  BindingTakenError,
  type BoundProductRow,
  type ProductFilter,
  type ProductListPosition,
  type ProductRecord,
  type ProductStore,
  type ProductValues,
} from './store.js';

/** A catalogue product bound to a marketplace identifier. */
export type BoundProduct = BoundProductRow;

/** The binding names of a marketplace (data/marketplaces.json), undefined for an unknown one. */
export type BindingNamesOf = (marketplaceId: number) => { name: string; bindingNames: string[] } | undefined;

const BINDING_VALUE_MAX = 255;

function bindingTaken(): AppError {
  return conflict(
    'duplicate_binding',
    'A binding identifier of this product is already bound to another product of this account; an identifier is unique per marketplace within the account.',
    [{ field: 'bindings', message: 'an identifier is already bound to another product' }],
  );
}

/** Import rows are read like a form body: every cell may be text. */
const importRowValidator = compileValidator<ProductInput>(ProductInput, 'querystring');

function duplicateVendorCode(vendorCode: string, existingId: number | undefined): AppError {
  const message = `vendorCode "${vendorCode}" is already used by product ${existingId ?? 'another product'} of this account.`;
  return conflict(
    'duplicate_vendor_code',
    `A product with vendor code "${vendorCode}" already exists; vendor codes are unique within the account.`,
    [{ field: 'vendorCode', message }],
  );
}

function kopecksOf(roubles: number, field: string, problems: FieldErrorCollector): number {
  if (Math.abs(roubles * 100 - Math.round(roubles * 100)) > 1e-6)
    problems.add(field, 'must be given to the kopeck (at most 2 decimals)');
  return toKopecks(roubles);
}

function emptyToNull(value: string | null | undefined): string | null {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
}

/** An import row as the API's Product body: `dimensions.width` nested, barcodes split. */
function rowToInput(row: RawRow): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  const dimensions: Record<string, unknown> = {};
  for (const [key, value] of row.cells) {
    if (key.startsWith('dimensions.')) dimensions[key.slice('dimensions.'.length)] = value;
    else if (key === 'barcodes')
      input.barcodes = String(typeof value === 'number' ? BigInt(Math.round(value)) : value)
        .split(/[,;\n]+/)
        .map((part) => part.trim())
        .filter((part) => part !== '');
    else input[key] = value;
  }
  if (Object.keys(dimensions).length > 0) input.dimensions = dimensions;
  return input;
}

/** The order in which a row's problems are reported: the file's column order. */
const COLUMN_ORDER = new Map(IMPORT_COLUMNS.map((column, index) => [column.key, index]));
function firstProblem(errors: ErrorItem[]): ErrorItem {
  const rank = (item: ErrorItem) =>
    COLUMN_ORDER.get((item.field ?? '').replace(/\[\d+\]$/, '')) ?? IMPORT_COLUMNS.length;
  return [...errors].sort((a, b) => rank(a) - rank(b))[0];
}

const COUNT_TOPIC = 'product-counts';
/** Catalogue rows by id (orders name their products on every creation). */
const RECORDS_TOPIC = 'product-records';
/** Products read per query while an export streams: big enough to be few queries, small enough to hold. */
const EXPORT_PAGE = 1000;

export class ProductService {
  private templateBytes: Promise<Buffer> | undefined;

  constructor(
    private readonly store: ProductStore,
    private readonly countries: CountryDirectory,
    private readonly stock: ProductStock = NO_STOCK,
    private readonly cache: AccountReadCache = new AccountReadCache(false),
    /** Without it (tests of the catalogue alone) bindings are stored as given. */
    private readonly bindingNamesOf: BindingNamesOf | null = null,
  ) {}

  /** The live products bound to these identifiers of a marketplace, keyed by `name \0 value` (the marketplace orders' matching). */
  boundProducts(
    accountId: number,
    marketplaceId: number,
    identifiers: Array<{ name: string; value: string }>,
  ): Promise<Map<string, BoundProduct>> {
    if (identifiers.length === 0) return Promise.resolve(new Map());
    return this.store.boundProducts(accountId, marketplaceId, identifiers);
  }

  /** After any write to the account's products: remembered counts and rows are no longer true. */
  private changed(scope: Scope): void {
    this.cache.invalidate(scope.accountId, COUNT_TOPIC);
    this.cache.invalidate(scope.accountId, RECORDS_TOPIC);
  }

  async list(scope: Scope, query: ProductListQuery, paging: Paging): Promise<Page<Product>> {
    const { filter, order } = await this.listFilter(scope, query);
    const page = await this.store.list(scope.accountId, filter, order, paging);
    // Counting every match of a broad search is the dearest part of a list: remember it.
    const total =
      page.total ??
      (await this.cache.read(scope.accountId, COUNT_TOPIC, JSON.stringify(filter), () =>
        this.store.count(scope.accountId, filter),
      ));
    return { items: await this.present(scope, page.items), total };
  }

  /**
   * Every product the list's filters and sort match (its page and perPage ignored), a page
   * of EXPORT_PAGE at a time: the export streams them without holding the catalogue.
   */
  async *exportPages(scope: Scope, query: ProductListQuery): AsyncGenerator<Product[]> {
    const { filter, order } = await this.listFilter(scope, query);
    for (let after: ProductListPosition | null = null; ; ) {
      const { items, last } = await this.store.listAfter(scope.accountId, filter, order, after, EXPORT_PAGE);
      if (items.length > 0) yield await this.present(scope, items);
      if (items.length < EXPORT_PAGE) return;
      after = last;
    }
  }

  private async listFilter(
    scope: Scope,
    query: ProductListQuery,
  ): Promise<{ filter: ProductFilter; order: { field: ProductSortField; desc: boolean } }> {
    const filter: ProductFilter = {};
    if (query.name) filter.nameContains = query.name;
    if (query.vendorCode) filter.vendorCodeContains = query.vendorCode;
    if (query.tnved) filter.tnvedContains = query.tnved;
    if (query.barcode) filter.barcodeContains = query.barcode;
    if (query.ids) filter.ids = query.ids;
    if (query.vendorCodes) filter.vendorCodes = query.vendorCodes.map((code) => code.trim());
    if (query.fulfilmentWarehouseId !== undefined) {
      const atWarehouse = await this.stock.productIdsAt(scope, query.fulfilmentWarehouseId);
      filter.ids = filter.ids ? filter.ids.filter((id) => atWarehouse.includes(id)) : atWarehouse;
    }
    const field = query.sort ?? 'id';
    return { filter, order: { field, desc: query.desc ?? query.sort === undefined } };
  }

  async get(scope: Scope, id: number): Promise<Product> {
    return (await this.present(scope, [await this.find(scope, id)]))[0];
  }

  /**
   * Products by id for other areas (kits, orders), deleted ones included: what refers to
   * a product keeps reading it after the product leaves the catalogue.
   */
  async getMany(scope: Scope, ids: number[]): Promise<Map<number, Product>> {
    const products = await this.present(scope, [...(await this.catalogueOf(scope, ids)).values()]);
    return new Map(products.map((product) => [product.id, product]));
  }

  /**
   * The catalogue rows of these products, without their stock: what an order's lines are filled
   * from. Remembered until the account's products change; stock is read fresh by `getMany` only,
   * so making an order skips that query (6 % of the event loop's profile under `POST /v2/orders`).
   */
  async catalogueOf(scope: Scope, ids: number[]): Promise<Map<number, ProductRecord>> {
    const unique = [...new Set(ids)].sort((a, b) => a - b);
    const records = await this.cache.read(scope.accountId, RECORDS_TOPIC, unique.join(','), () =>
      this.store.getMany(scope.accountId, unique),
    );
    return new Map(records.map((record) => [record.id, record]));
  }

  /** Ids of the live products with these exact vendor codes. */
  async idsByVendorCode(scope: Scope, vendorCodes: string[]): Promise<Map<string, number>> {
    const codes = [...new Set(vendorCodes)];
    if (codes.length === 0) return new Map();
    const page = await this.store.list(
      scope.accountId,
      { vendorCodes: codes },
      { field: 'id', desc: false },
      { page: 1, perPage: codes.length, offset: 0 },
    );
    return new Map(page.items.map((record) => [record.vendorCode, record.id]));
  }

  /** Which of `ids` are products of the account's catalogue (not deleted). */
  async existingIds(scope: Scope, ids: number[]): Promise<Set<number>> {
    return new Set(await this.store.liveIds(scope.accountId, [...new Set(ids)]));
  }

  async create(scope: Scope, input: ProductInput): Promise<number> {
    const values = this.toValues(input);
    const existing = await this.store.idByVendorCode(scope.accountId, values.vendorCode);
    if (existing !== undefined) throw duplicateVendorCode(values.vendorCode, existing);
    try {
      const id = await this.store.insert(scope.accountId, values);
      this.changed(scope);
      return id;
    } catch (error) {
      if (error instanceof BindingTakenError) throw bindingTaken();
      if (isUniqueViolation(error)) throw duplicateVendorCode(values.vendorCode, undefined);
      throw error;
    }
  }

  async replace(scope: Scope, id: number, input: ProductInput): Promise<void> {
    await this.find(scope, id);
    await this.write(scope, id, this.toValues(input));
  }

  /** Changes only what is sent; `null` clears a field. */
  async patch(scope: Scope, id: number, patch: ProductPatch): Promise<void> {
    const current = await this.find(scope, id);
    const pick = <K extends keyof ProductPatch & keyof ProductRecord>(key: K) =>
      patch[key] !== undefined ? patch[key] : current[key];
    const merged: ProductInput = {
      name: patch.name ?? current.name,
      vendorCode: patch.vendorCode ?? current.vendorCode,
      nameEn: pick('nameEn'),
      vat: pick('vat') as ProductInput['vat'],
      priceDeclared: pick('priceDeclared'),
      priceCod: pick('priceCod'),
      weight: pick('weight'),
      volume: pick('volume'),
      expirityDays: pick('expirityDays'),
      photo: pick('photo'),
      tnved: pick('tnved'),
      barcodes: patch.barcodes ?? current.barcodes,
      brand: pick('brand'),
      producingCountry: pick('producingCountry'),
      markCodeRequired: patch.markCodeRequired ?? current.markCodeRequired,
      batchAccounting: patch.batchAccounting ?? current.batchAccounting,
      bindings: patch.bindings ?? current.bindings,
      dimensions: { ...current.dimensions, ...patch.dimensions },
    };
    await this.write(scope, id, this.toValues(merged));
  }

  /** Takes the product out of the catalogue; kits (and orders) that use it keep reading it. */
  async delete(scope: Scope, id: number): Promise<void> {
    if (!(await this.store.markDeleted(scope.accountId, id))) throw notFound('Product', id);
    this.changed(scope);
  }

  /**
   * Imports an xlsx (base64): every good row is created or overwrites the product of its
   * vendor code; bad rows are reported by row number and never stop the good ones.
   */
  async import(scope: Scope, fileBase64: string): Promise<ImportResult> {
    const rows = await readImportRows(decodeBase64File(fileBase64));
    if (rows.length > MAX_IMPORT_ROWS) {
      throw unprocessable(
        'import_too_large',
        `The file holds ${rows.length} products; one import takes at most ${MAX_IMPORT_ROWS}. Split the file; nothing was imported.`,
        [{ field: 'file', message: `holds ${rows.length} product rows, more than ${MAX_IMPORT_ROWS}` }],
      );
    }
    const errors: ImportResult['errors'] = {};
    const valid: ProductValues[] = [];
    const rowOfVendorCode = new Map<string, number>();
    for (const row of rows) {
      let values: ProductValues;
      try {
        values = this.toValues(importRowValidator.parse(rowToInput(row)));
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        const problem = firstProblem(error.errors);
        errors[String(row.rowNumber)] = { field: problem.field ?? 'file', message: problem.message };
        continue;
      }
      const earlier = rowOfVendorCode.get(values.vendorCode);
      if (earlier !== undefined) {
        errors[String(row.rowNumber)] = { field: 'vendorCode', message: `repeats the vendor code of row ${earlier}` };
        continue;
      }
      rowOfVendorCode.set(values.vendorCode, row.rowNumber);
      valid.push(values);
    }
    try {
      await this.store.upsertMany(scope.accountId, valid);
    } finally {
      this.changed(scope);
    }
    return { success: valid.length, total: rows.length, errors };
  }

  /** The xlsx template of the import (built once per process). */
  async importTemplate(): Promise<Buffer> {
    this.templateBytes ??= renderImportTemplate();
    return this.templateBytes;
  }

  private async write(scope: Scope, id: number, values: ProductValues): Promise<void> {
    const existing = await this.store.idByVendorCode(scope.accountId, values.vendorCode, id);
    if (existing !== undefined) throw duplicateVendorCode(values.vendorCode, existing);
    try {
      if (!(await this.store.update(scope.accountId, id, values))) throw notFound('Product', id);
      this.changed(scope);
    } catch (error) {
      if (error instanceof BindingTakenError) throw bindingTaken();
      if (isUniqueViolation(error)) throw duplicateVendorCode(values.vendorCode, undefined);
      throw error;
    }
  }

  private async find(scope: Scope, id: number): Promise<ProductRecord> {
    const record = await this.store.get(scope.accountId, id);
    if (!record) throw notFound('Product', id);
    return record;
  }

  private async present(scope: Scope, records: ProductRecord[]): Promise<Product[]> {
    const stock =
      records.length === 0
        ? new Map()
        : await this.stock.of(
            scope,
            records.map((record) => record.id),
          );
    return records.map(({ deleted: _deleted, ...record }) => {
      const held = stock.get(record.id);
      return { ...record, quantity: held?.quantity ?? null, rests: held?.rests ?? [] };
    });
  }

  /** The rules beyond the schema; throws a 400 listing every problem. */
  private toValues(input: ProductInput): ProductValues {
    const problems = new FieldErrorCollector();
    const name = input.name.trim();
    const vendorCode = input.vendorCode.trim();
    if (name === '') problems.add('name', 'must not be empty');
    if (vendorCode === '') problems.add('vendorCode', 'must not be empty');
    const money = (value: number | null | undefined, field: string) =>
      value === undefined || value === null ? null : kopecksOf(value, field, problems);
    const priceDeclaredKopecks = money(input.priceDeclared, 'priceDeclared');
    const priceCodKopecks = money(input.priceCod, 'priceCod');
    const weightGrams =
      input.weight === undefined || input.weight === null ? null : gramsOf(input.weight, 'weight', problems);
    const producingCountry = emptyToNull(input.producingCountry)?.toUpperCase() ?? null;
    if (producingCountry !== null && !this.countries.has(producingCountry))
      problems.add('producingCountry', `"${producingCountry}" is not a known country code`);
    const barcodes = [
      ...new Set((input.barcodes ?? []).map((barcode) => barcode.trim()).filter((barcode) => barcode !== '')),
    ];
    const bindings = this.validBindings(input.bindings ?? [], problems);
    problems.throwIfAny();
    return {
      name,
      nameEn: emptyToNull(input.nameEn),
      vendorCode,
      vat: input.vat ?? null,
      priceDeclaredKopecks,
      priceCodKopecks,
      weightGrams,
      volume: input.volume ?? null,
      width: input.dimensions?.width ?? null,
      height: input.dimensions?.height ?? null,
      length: input.dimensions?.length ?? null,
      expirityDays: input.expirityDays ?? null,
      photo: emptyToNull(input.photo),
      tnved: emptyToNull(input.tnved),
      barcodes,
      brand: emptyToNull(input.brand),
      producingCountry,
      markCodeRequired: input.markCodeRequired ?? false,
      batchAccounting: input.batchAccounting ?? false,
      bindings,
    };
  }

  /**
   * Each binding is {marketplaceId, <one or more of that marketplace's bindingNames>: value};
   * stored normalised (numeric marketplaceId, trimmed text values).
   */
  private validBindings(bindings: unknown[], problems: FieldErrorCollector): unknown[] {
    const namesOf = this.bindingNamesOf;
    if (!namesOf) return bindings;
    return bindings.map((binding, index) => {
      const field = `bindings[${index}]`;
      if (!binding || typeof binding !== 'object' || Array.isArray(binding)) {
        problems.add(field, 'must be an object {marketplaceId, <binding name>: value}');
        return binding;
      }
      const { marketplaceId: rawId, ...identifiers } = binding as Record<string, unknown>;
      const marketplaceId =
        typeof rawId === 'number'
          ? rawId
          : typeof rawId === 'string' && /^\d{1,9}$/.test(rawId.trim())
            ? Number(rawId)
            : NaN;
      const marketplace = Number.isInteger(marketplaceId) ? namesOf(marketplaceId) : undefined;
      if (!marketplace) {
        problems.add(`${field}.marketplaceId`, 'must be the id of a marketplace (GET /v2/marketplaces)');
        return binding;
      }
      const normalised: Record<string, unknown> = { marketplaceId };
      for (const [name, value] of Object.entries(identifiers)) {
        const text =
          typeof value === 'number' && Number.isFinite(value)
            ? String(value)
            : typeof value === 'string'
              ? value.trim()
              : null;
        if (!marketplace.bindingNames.includes(name))
          problems.add(
            `${field}.${name}`,
            `is not a binding of ${marketplace.name} (its bindingNames: ${marketplace.bindingNames.join(', ')})`,
          );
        else if (!text || text.length > BINDING_VALUE_MAX)
          problems.add(`${field}.${name}`, `must be a text of 1 to ${BINDING_VALUE_MAX} characters`);
        else normalised[name] = text;
      }
      if (Object.keys(identifiers).length === 0)
        problems.add(
          field,
          `names no identifier (${marketplace.name}'s bindingNames: ${marketplace.bindingNames.join(', ')})`,
        );
      return normalised;
    });
  }
}

/** Kits of a shop: named sets of catalogue products sold together, with a default discount. */
import { requireShopAccess, type Scope } from '../../platform/auth.js';
import { conflict, FieldErrorCollector, forbidden, notFound, type AppError } from '../../platform/errors.js';
import type { Page, Paging } from '../../platform/paging.js';
import type { ProductService } from '../products/service.js';
import type { ShopService } from '../shops/service.js';
import type { Kit, KitInput, KitListQuery } from './schemas.js';
import { isUniqueViolation } from '../../platform/db/values.js';
import type { KitFilter, KitRecord, KitStore, KitValues } from './store.js';

type ShopHeader = string | string[] | undefined;

function duplicateVendorCode(vendorCode: string, shopId: number, existingId: number | undefined): AppError {
  return conflict(
    'duplicate_vendor_code',
    `A kit with vendor code "${vendorCode}" already exists in shop ${shopId}; kit vendor codes are unique within a shop.`,
    [{ field: 'vendorCode', message: `is already used by kit ${existingId ?? 'another kit'} of shop ${shopId}` }],
  );
}

export class KitService {
  constructor(
    private readonly store: KitStore,
    private readonly shops: ShopService,
    private readonly products: ProductService,
  ) {}

  /** A shop key sees its own shop's kits; `shopId` (or the Shop-Id header) narrows to one shop. */
  async list(scope: Scope, query: KitListQuery, paging: Paging, shopHeader: ShopHeader): Promise<Page<Kit>> {
    const filter: KitFilter = {};
    if (query.shopId !== undefined) {
      requireShopAccess(scope, query.shopId);
      filter.shopId = query.shopId;
    } else {
      const shop = await this.shops.resolveShopHeader(scope, shopHeader, false);
      if (shop) filter.shopId = shop.id;
    }
    if (query.name) filter.nameContains = query.name;
    if (query.vendorCode) filter.vendorCodeContains = query.vendorCode;
    if (query.search) filter.textContains = query.search;
    const page = await this.store.list(scope.accountId, filter, paging);
    return { items: await this.present(scope, page.items), total: page.total };
  }

  /** The goods of the shop's kits with these vendor codes (fulfilment expands an order's kits into them). */
  async componentsByVendorCode(
    scope: Scope,
    shopId: number,
    vendorCodes: string[],
  ): Promise<Map<string, Array<{ productId: number; count: number }>>> {
    const ids = new Map<string, number>();
    for (const code of new Set(vendorCodes)) {
      const id = await this.store.idByVendorCode(scope.accountId, shopId, code);
      if (id !== undefined) ids.set(code, id);
    }
    const lines = await this.store.linesOf(scope.accountId, [...ids.values()]);
    return new Map([...ids].map(([code, id]) => [code, lines.get(id) ?? []]));
  }

  async get(scope: Scope, id: number): Promise<Kit> {
    return (await this.present(scope, [await this.find(scope, id)]))[0];
  }

  async create(scope: Scope, input: KitInput, shopHeader: ShopHeader): Promise<number> {
    const values = await this.validate(scope, input, shopHeader);
    const existing = await this.store.idByVendorCode(scope.accountId, values.shopId, values.vendorCode);
    if (existing !== undefined) throw duplicateVendorCode(values.vendorCode, values.shopId, existing);
    try {
      return await this.store.insert(scope.accountId, values);
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateVendorCode(values.vendorCode, values.shopId, undefined);
      throw error;
    }
  }

  /** PUT: the whole kit; without `shopId` it stays in its shop. */
  async replace(scope: Scope, id: number, input: KitInput, shopHeader: ShopHeader): Promise<void> {
    const current = await this.find(scope, id);
    const values = await this.validate(scope, { ...input, shopId: input.shopId ?? current.shopId }, shopHeader);
    const existing = await this.store.idByVendorCode(scope.accountId, values.shopId, values.vendorCode, id);
    if (existing !== undefined) throw duplicateVendorCode(values.vendorCode, values.shopId, existing);
    try {
      if (!(await this.store.update(scope.accountId, id, values))) throw notFound('Kit', id);
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateVendorCode(values.vendorCode, values.shopId, undefined);
      throw error;
    }
  }

  async delete(scope: Scope, id: number): Promise<void> {
    await this.find(scope, id);
    if (!(await this.store.delete(scope.accountId, id))) throw notFound('Kit', id);
  }

  private async find(scope: Scope, id: number): Promise<KitRecord> {
    const record = await this.store.get(scope.accountId, id);
    if (!record) throw notFound('Kit', id);
    if (scope.shopKeyShopId !== null && scope.shopKeyShopId !== record.shopId) {
      throw forbidden(
        `Kit ${id} belongs to shop ${record.shopId}; this API key belongs to shop ${scope.shopKeyShopId}.`,
      );
    }
    return record;
  }

  private async present(scope: Scope, records: KitRecord[]): Promise<Kit[]> {
    const lines = await this.store.linesOf(
      scope.accountId,
      records.map((record) => record.id),
    );
    const productIds = [...lines.values()].flat().map((line) => line.productId);
    const products = await this.products.getMany(scope, productIds);
    return records.map((record) => ({
      ...record,
      products: (lines.get(record.id) ?? []).flatMap((line) => {
        const product = products.get(line.productId);
        return product ? [{ ...product, count: line.count }] : [];
      }),
    }));
  }

  private async validate(scope: Scope, input: KitInput, shopHeader: ShopHeader): Promise<KitValues> {
    const problems = new FieldErrorCollector();
    let shopId: number;
    if (input.shopId !== undefined) {
      shopId = input.shopId;
      requireShopAccess(scope, shopId);
      if (!(await this.shops.exists(scope, shopId)))
        problems.add('shopId', `shop ${shopId} does not exist in this account`);
    } else {
      const shop = await this.shops.resolveShopHeader(scope, shopHeader, false);
      if (shop) shopId = shop.id;
      else {
        problems.add('shopId', 'is required (or send the Shop-Id header)');
        shopId = 0;
      }
    }
    const name = input.name.trim();
    const vendorCode = input.vendorCode.trim();
    if (name === '') problems.add('name', 'must not be empty');
    if (vendorCode === '') problems.add('vendorCode', 'must not be empty');

    const known = await this.products.existingIds(
      scope,
      input.products.map((line) => line.id),
    );
    const seen = new Map<number, number>();
    input.products.forEach((line, index) => {
      const earlier = seen.get(line.id);
      if (earlier !== undefined)
        problems.add(
          `products[${index}].id`,
          `product ${line.id} is already listed at products[${earlier}]; raise its count instead`,
        );
      else if (!known.has(line.id))
        problems.add(`products[${index}].id`, `product ${line.id} does not exist in this account`);
      seen.set(line.id, earlier ?? index);
    });
    problems.throwIfAny();
    return {
      shopId,
      name,
      vendorCode,
      discount: input.discount ?? 0,
      lines: input.products.map((line) => ({ productId: line.id, count: line.count })),
    };
  }
}

/**
 * Fulfilment stock as the other areas see it: the products' `quantity` and `rests`
 * (ProductStock), and the reservations of orders of fulfilment shops (OrderFulfilment).
 * Every change is a guarded UPDATE of a stock row plus its movement (stock-store.ts).
 */
import { processScope, type Scope } from '../../platform/auth.js';
import { outboxRows, writeOrderEvents } from '../events/outbox.js';
import type { KitService } from '../kits/service.js';
import type { Shop } from '../shops/schemas.js';
import type { ShopService } from '../shops/service.js';
import type { GoodsShortage, OrderFulfilment, ReservationPlan, StockActor } from '../orders/fulfilment-port.js';
import type { OrderDoc } from '../orders/document.js';
import type { Product, ProductRest } from '../products/schemas.js';
import type { ProductService } from '../products/service.js';
import type { ProductStock } from '../products/stock.js';
import type { WarehouseService } from '../warehouses/service.js';
import { demandOf, type Demand } from './rules.js';
import { refusedGoods } from '../orders/partial-buyout.js';
import type { ReturnInspectionService } from './return-inspections.js';
import type { Db, MovementKind, MovementNote, StockHolder, StockRow, StockStore } from './stock-store.js';

/** How often a reservation re-reads a row that others took from meanwhile before giving up on it. */
const RETRIES_PER_ROW = 50;

export class StockService implements ProductStock, OrderFulfilment {
  /**
   * @param catalogue the products, kits and shops, which show stock and so are built after it:
   *   a declared dependency the composition root closes over, read only once requests run.
   */
  constructor(
    readonly store: StockStore,
    private readonly warehouses: WarehouseService,
    private readonly catalogue: () => { products: ProductService; kits: KitService; shops: ShopService },
    /** Where returned parcels wait for the staff's inspection. */
    readonly inspections: ReturnInspectionService,
  ) {}

  private get products(): ProductService {
    return this.catalogue().products;
  }

  private get kits(): KitService {
    return this.catalogue().kits;
  }

  private get shops(): ShopService {
    return this.catalogue().shops;
  }

  /** On hand per warehouse and product just before an instant (reports: stock balance, storage charged). */
  onHandBefore(
    accountId: number,
    before: string,
    fulfilmentWarehouseId?: number,
  ): Promise<Array<{ fulfilmentWarehouseId: number; productId: number; quantity: number }>> {
    return this.store.onHandBefore(accountId, before, fulfilmentWarehouseId);
  }

  /** On-hand movements of the account in [from, to), in time order, page by page (reports). */
  movementsBetween(
    accountId: number,
    from: string,
    to: string,
    options: { kinds?: MovementKind[]; fulfilmentWarehouseId?: number } = {},
  ) {
    return this.store.movementsBetween(accountId, from, to, options);
  }

  countMovementsBetween(
    accountId: number,
    from: string,
    to: string,
    options: { kinds?: MovementKind[]; fulfilmentWarehouseId?: number } = {},
  ): Promise<number> {
    return this.store.countMovementsBetween(accountId, from, to, options);
  }

  countStockLines(accountId: number, fulfilmentWarehouseId?: number): Promise<number> {
    return this.store.countStockLines(accountId, fulfilmentWarehouseId);
  }

  /** The account's shops whose goods are kept at a fulfilment warehouse, with their notification settings. */
  async shopsAt(accountId: number, fulfilmentWarehouseId: number): Promise<Shop[]> {
    const scope: Scope = { accountId, timeZone: 'UTC', kind: 'account', shopKeyShopId: null, employeeId: null };
    const page = await this.shops.list(scope, { onlyFulfilment: 1 }, { page: 1, perPage: 1000, offset: 0 });
    return page.items.filter((shop) => shop.warehouse.fulfilmentWarehouseId === fulfilmentWarehouseId);
  }

  // ---------------------------------------------------------------- ProductStock

  async of(
    scope: Scope,
    productIds: number[],
  ): Promise<Map<number, { quantity: number | null; rests: ProductRest[] }>> {
    const rows = await this.store.rowsOf(scope.accountId, productIds);
    const answer = new Map<number, { quantity: number | null; rests: ProductRest[] }>();
    if (rows.length === 0) return answer;
    const names = new Map((await this.warehouses.fulfilmentWarehouses()).map((item) => [item.id, item.name]));
    for (const row of rows) {
      let entry = answer.get(row.productId);
      if (!entry) answer.set(row.productId, (entry = { quantity: 0, rests: [] }));
      let rest = entry.rests.find((item) => item.warehouseId === row.fulfilmentWarehouseId);
      if (!rest) {
        rest = {
          warehouseId: row.fulfilmentWarehouseId,
          name: names.get(row.fulfilmentWarehouseId) ?? '',
          quantity: 0,
          reserved: 0,
          available: 0,
          defective: 0,
          batches: [],
        };
        entry.rests.push(rest);
      }
      rest.quantity += row.quantity;
      rest.reserved += row.reserved;
      rest.available += row.quantity - row.reserved;
      rest.defective += row.defective;
      if (row.batch !== '')
        rest.batches.push({
          batch: row.batch,
          expires: row.expires,
          quantity: row.quantity,
          reserved: row.reserved,
          available: row.quantity - row.reserved,
        });
      entry.quantity = (entry.quantity ?? 0) + row.quantity - row.reserved;
    }
    return answer;
  }

  async productIdsAt(scope: Scope, fulfilmentWarehouseId: number): Promise<number[]> {
    return this.store.productIdsAt(scope.accountId, fulfilmentWarehouseId);
  }

  // ---------------------------------------------------------------- OrderFulfilment

  async plan(scope: Scope, doc: OrderDoc): Promise<ReservationPlan> {
    const place = await this.placeOf(scope.accountId, doc);
    const demand = await this.demand(scope, doc);
    const ids = [...demand.needs.keys()];
    const products = ids.length ? await this.products.getMany(scope, ids) : new Map<number, Product>();
    const borders =
      place === null
        ? []
        : (await this.shopsAt(scope.accountId, place)).flatMap((shop) => {
            const low = shop.notifications.events.productEndsInFulfilment;
            return low.enabled && low.border !== null ? [{ shopId: shop.id, border: low.border }] : [];
          });
    return {
      borders,
      fulfilmentWarehouseId: place,
      // products in id order: two orders reserving the same goods take their rows in one order
      needs: [...demand.needs]
        .sort((a, b) => a[0] - b[0])
        .map(([productId, count]) => ({
          productId,
          count,
          name: products.get(productId)?.name ?? null,
          vendorCode: products.get(productId)?.vendorCode ?? null,
        })),
      unknown: demand.unknown.map((line) => ({ name: line.name, vendorCode: line.vendorCode, count: line.count })),
    };
  }

  reserve(
    db: Db,
    accountId: number,
    orderId: number,
    plan: ReservationPlan,
    actor: StockActor,
  ): Promise<GoodsShortage[]> {
    return this.reserveFor(db, accountId, { orderId }, plan, actor);
  }

  async release(db: Db, accountId: number, orderId: number, actor: StockActor): Promise<void> {
    await this.releaseFor(db, accountId, { orderId }, actor);
  }

  // ---------------------------------------------------------------- marketplace orders

  /**
   * What a marketplace order shipped from a fulfilment warehouse takes: its matched goods
   * (kits are not bound to marketplaces, so no expansion), in product id order like orders'
   * plans. Worked out before the caller's transaction.
   */
  async planGoods(
    accountId: number,
    fulfilmentWarehouseId: number,
    lines: Array<{ productId: number; count: number; name: string | null; vendorCode: string | null }>,
  ): Promise<ReservationPlan> {
    const needs = new Map<number, ReservationPlan['needs'][number]>();
    for (const line of lines) {
      const need = needs.get(line.productId);
      if (need) need.count += line.count;
      else needs.set(line.productId, { ...line });
    }
    const borders = (await this.shopsAt(accountId, fulfilmentWarehouseId)).flatMap((shop) => {
      const low = shop.notifications.events.productEndsInFulfilment;
      return low.enabled && low.border !== null ? [{ shopId: shop.id, border: low.border }] : [];
    });
    return {
      borders,
      fulfilmentWarehouseId,
      needs: [...needs.values()].sort((a, b) => a.productId - b.productId),
      unknown: [],
    };
  }

  /** Holds a marketplace order's goods, all or nothing (the shortages, nothing held, when any is short). */
  reserveForMarketplaceOrder(
    db: Db,
    accountId: number,
    marketplaceOrderId: number,
    plan: ReservationPlan,
    actor: StockActor,
  ): Promise<GoodsShortage[]> {
    return this.reserveFor(db, accountId, { marketplaceOrderId }, plan, actor);
  }

  /** Gives back what a marketplace order holds (it was canceled). */
  releaseMarketplaceOrder(db: Db, accountId: number, marketplaceOrderId: number, actor: StockActor): Promise<void> {
    return this.releaseFor(db, accountId, { marketplaceOrderId }, actor);
  }

  /** The marketplace took the parcel (shipped or delivered): the goods held leave the warehouse. */
  shipMarketplaceOrder(db: Db, accountId: number, marketplaceOrderId: number, actor: StockActor): Promise<void> {
    return this.shipFor(db, accountId, { marketplaceOrderId }, actor);
  }

  private async reserveFor(
    db: Db,
    accountId: number,
    holder: StockHolder,
    plan: ReservationPlan,
    actor: StockActor,
  ): Promise<GoodsShortage[]> {
    const place = plan.fulfilmentWarehouseId;
    if (place === null) return describe(plan, new Map());
    const orderId = 'orderId' in holder ? holder.orderId : 0;
    const note: MovementNote = {
      ...actor,
      ...holder,
      reason:
        'orderId' in holder
          ? `reserved for order ${holder.orderId}`
          : `reserved for marketplace order ${holder.marketplaceOrderId}`,
    };
    let failed: GoodsShortage | null = null;
    const drained: Array<{ need: ReservationPlan['needs'][number]; before: number; after: number }> = [];
    for (const need of plan.needs) {
      const { got, before } = await this.take(db, accountId, place, need.productId, need.count, note);
      if (got < need.count) {
        failed = {
          id: need.productId,
          name: need.name,
          vendorCode: need.vendorCode,
          restCount: got,
          missingCount: need.count - got,
        };
        break;
      }
      drained.push({ need, before, after: before - got });
    }
    if (!failed && plan.unknown.length === 0) {
      await this.lowStockEvents(db, accountId, orderId, place, plan.borders, drained);
      return [];
    }
    // short: give back what this order took here, so the other orders of a batch are judged on the stock they would find
    await this.releaseFor(db, accountId, holder, actor);
    const shortages = describe(
      plan,
      await this.availableAt(
        accountId,
        place,
        plan.needs.map((need) => need.productId),
        db,
      ),
    );
    // goods given back by others meanwhile may cover it now; the reservation failed all the same
    return shortages.length > 0 ? shortages : [failed as GoodsShortage];
  }

  async shortages(scope: Scope, doc: OrderDoc): Promise<GoodsShortage[]> {
    const plan = await this.plan(scope, doc);
    const available =
      plan.fulfilmentWarehouseId === null
        ? new Map<number, number>()
        : await this.availableAt(
            scope.accountId,
            plan.fulfilmentWarehouseId,
            plan.needs.map((need) => need.productId),
          );
    return describe(plan, available);
  }

  private async releaseFor(db: Db, accountId: number, holder: StockHolder, actor: StockActor): Promise<void> {
    const note: MovementNote = {
      ...actor,
      ...holder,
      reason:
        'orderId' in holder
          ? `reserve of order ${holder.orderId} released`
          : `reserve of marketplace order ${holder.marketplaceOrderId} released`,
    };
    for (const allocation of await this.store.allocationsOf(db, accountId, holder)) {
      if (allocation.state === 'reserved')
        await this.store.release(
          db,
          accountId,
          allocation,
          {
            id: allocation.stockId,
            fulfilmentWarehouseId: allocation.fulfilmentWarehouseId,
            productId: allocation.productId,
          },
          note,
        );
    }
  }

  async ship(db: Db, accountId: number, orderId: number, actor: StockActor): Promise<void> {
    await this.shipFor(db, accountId, { orderId }, actor);
  }

  private async shipFor(db: Db, accountId: number, holder: StockHolder, actor: StockActor): Promise<void> {
    const note: MovementNote = {
      ...actor,
      ...holder,
      reason:
        'orderId' in holder
          ? `order ${holder.orderId} handed to the delivery company`
          : `marketplace order ${holder.marketplaceOrderId} handed over for delivery`,
    };
    for (const allocation of await this.store.allocationsOf(db, accountId, holder)) {
      if (allocation.state === 'reserved')
        await this.store.ship(
          db,
          accountId,
          allocation,
          {
            id: allocation.stockId,
            fulfilmentWarehouseId: allocation.fulfilmentWarehouseId,
            productId: allocation.productId,
          },
          note,
        );
    }
  }

  /**
   * The returned parcel is back at the warehouse: what came back joins the inspection queue
   * (return-inspections.ts), and nothing is on hand until the staff have looked at it. What
   * came back: a partial buyout's refused lines, else everything the order took (kits expanded).
   */
  async receiveReturn(db: Db, accountId: number, orderId: number, _actor: StockActor, doc: OrderDoc): Promise<boolean> {
    const shipped = (await this.store.allocationsOf(db, accountId, { orderId })).filter(
      (allocation) => allocation.state === 'shipped',
    );
    const lines = doc.partialBuyout
      ? refusedGoods(doc.partialBuyout)
      : shipped.map((allocation) => ({ productId: allocation.productId, count: allocation.quantity }));
    return this.inspections.enqueueReturnedParcel(
      { accountId, orderId, source: doc.partialBuyout ? 'partial-buyout' : 'refusal', returnId: null, lines },
      db,
    );
  }

  async receiveReturnParcel(
    db: Db,
    parcel: {
      accountId: number;
      parcelOrderId: number;
      goodsOrderId: number;
      returnId: number;
      lines: { productId: number; count: number }[];
    },
  ): Promise<boolean> {
    return this.inspections.enqueueReturnedParcel(
      {
        accountId: parcel.accountId,
        orderId: parcel.parcelOrderId,
        goodsOrderId: parcel.goodsOrderId,
        source: 'return',
        returnId: parcel.returnId,
        lines: parcel.lines,
      },
      db,
    );
  }

  /** What a shop's CMS is told of products at a fulfilment warehouse (product-quantity-update): each one's vendor code and available units. */
  async quantitiesAt(
    accountId: number,
    fulfilmentWarehouseId: number,
    productIds: number[],
  ): Promise<Map<number, { vendorCode: string | null; available: number }>> {
    const available = await this.availableAt(accountId, fulfilmentWarehouseId, productIds);
    const products = productIds.length
      ? await this.products.getMany(processScope(accountId), productIds)
      : new Map<number, Product>();
    return new Map(
      productIds.map((id) => [
        id,
        { vendorCode: products.get(id)?.vendorCode ?? null, available: available.get(id) ?? 0 },
      ]),
    );
  }

  /** Available units per product at a fulfilment warehouse. */
  async availableAt(
    accountId: number,
    fulfilmentWarehouseId: number,
    productIds: number[],
    db?: Db,
  ): Promise<Map<number, number>> {
    const rows = await this.store.rowsAt(accountId, fulfilmentWarehouseId, productIds, db);
    const available = new Map<number, number>();
    for (const row of rows)
      available.set(row.productId, (available.get(row.productId) ?? 0) + row.quantity - row.reserved);
    return available;
  }

  // ---------------------------------------------------------------- helpers

  /**
   * Takes up to `need` units of a product, first-expiring batch first. A row another
   * reservation took from meanwhile is read again: the guarded UPDATE decides, never a
   * stale read.
   */
  private async take(
    db: Db,
    accountId: number,
    fulfilmentWarehouseId: number,
    productId: number,
    need: number,
    note: MovementNote,
  ): Promise<{ got: number; before: number }> {
    let got = 0;
    const rows = await this.store.rowsAt(accountId, fulfilmentWarehouseId, [productId], db);
    const before = rows.reduce((sum, row) => sum + row.quantity - row.reserved, 0);
    for (const first of rows) {
      let row: StockRow | undefined = first;
      for (let attempt = 0; row && got < need && attempt < RETRIES_PER_ROW; attempt++) {
        const count = Math.min(need - got, row.quantity - row.reserved);
        if (count <= 0) break;
        if (await this.store.reserve(db, accountId, row, count, note)) got += count;
        else row = await this.store.row(accountId, row.id, db);
      }
      if (got >= need) break;
    }
    return { got, before };
  }

  /**
   * productEndsInFulfilment: a shop is told once, when a reservation takes a product's
   * available stock from above its border to or below it (the reserving order is the event's).
   */
  private async lowStockEvents(
    db: Db,
    accountId: number,
    orderId: number,
    fulfilmentWarehouseId: number,
    borders: ReservationPlan['borders'],
    drained: Array<{ need: ReservationPlan['needs'][number]; before: number; after: number }>,
  ): Promise<void> {
    const now = new Date().toISOString();
    for (const { shopId, border } of borders) {
      for (const { need, before, after } of drained) {
        if (!(before > border && after <= border)) continue;
        const payload = {
          cmsId: null,
          trackNumber: null,
          productId: need.productId,
          vendorCode: need.vendorCode,
          available: after,
          border,
          fulfilmentWarehouseId,
        };
        await writeOrderEvents(
          db,
          outboxRows(
            accountId,
            shopId,
            orderId,
            [{ type: 'fulfilment.product_ends', statusFrom: null, statusTo: null, payload }],
            now,
          ),
        );
      }
    }
  }

  private async placeOf(accountId: number, doc: OrderDoc): Promise<number | null> {
    if (!doc.fulfilment || doc.warehouseId === null) return null;
    return (await this.warehouses.fulfilmentOf(accountId, doc.warehouseId))?.fulfilmentWarehouseId ?? null;
  }

  private async demand(scope: Scope, doc: OrderDoc): Promise<Demand> {
    const unnamed = doc.products
      .filter((line) => line.id === null && line.vendorCode)
      .map((line) => (line.vendorCode as string).trim());
    const kits =
      unnamed.length && doc.shopId !== null
        ? await this.kits.componentsByVendorCode(scope, doc.shopId, unnamed)
        : new Map();
    const byCode = unnamed.length ? await this.products.idsByVendorCode(scope, unnamed) : new Map<string, number>();
    return demandOf(
      doc.products.map((line) => ({
        productId: line.id,
        vendorCode: line.vendorCode,
        name: line.name,
        count: line.count,
      })),
      kits,
      byCode,
    );
  }
}

/** The goods of a plan that `available` does not cover, and the lines that name no goods. */
function describe(plan: ReservationPlan, available: Map<number, number>): GoodsShortage[] {
  const short = plan.needs
    .map((need) => ({ need, rest: Math.max(0, available.get(need.productId) ?? 0) }))
    .filter(({ need, rest }) => rest < need.count)
    .map(({ need, rest }) => ({
      id: need.productId,
      name: need.name,
      vendorCode: need.vendorCode,
      restCount: rest,
      missingCount: need.count - rest,
    }));
  return [...short, ...plan.unknown.map((line) => ({ id: null, ...line, restCount: 0, missingCount: line.count }))];
}

/**
 * The parcels of buyers' returns (modules/returns asks): an order in the reverse direction, made
 * from the delivered order with `reversedInputOf` (the buyer sends, the shop's warehouse
 * receives), only the returned lines, carrying `returnOf`. Priced and registered like any order,
 * billed to the shop like any delivery, tracked like any parcel.
 */
import type { ReturnParcelInfo } from '../../carriers/types.js';
import type { Scope } from '../../platform/auth.js';
import type { JobQueue } from '../../platform/jobs.js';
import type { OrderComposer } from './composer.js';
import { parseDoc, reversedInputOf, type OrderDoc } from './document.js';
import type { OrderFulfilment } from './fulfilment-port.js';
import { queueRegistration } from './order-jobs.js';
import { accessibleOrder } from './refusals.js';
import type { OrderInput, StatusHistoryItem } from './schemas.js';
import { STATUS } from './state.js';
import type { Db, OrderStore } from './store.js';

/** What a return parcel is made of. */
export interface ReturnParcelSpec {
  /** Lines of the source order (index in its products) and how many units come back. */
  lines: Array<{ line: number; count: number }>;
  companyId: number;
  /** 1: the buyer drops it at `pointId`; 4: the company's courier collects it. */
  pickup: { type: 1 | 4; pointId: number | null };
  returnOf: { returnId: number; orderId: number } | null;
  comment: string | null;
}

type Delivered = OrderDoc & { id: number };

export class ReturnParcelOrders {
  constructor(
    private readonly store: OrderStore,
    private readonly composer: OrderComposer,
    private readonly jobs: JobQueue,
    private readonly fulfilment: OrderFulfilment,
    private readonly historyItem: (code: number, at: string, description?: string | null) => StatusHistoryItem,
  ) {}

  /**
   * The parcel, not written: the returned lines, with the company and the way the buyer chose
   * (drop-off at a point: pickup type 1 with its point; the company's courier: 4), delivered to
   * the warehouse's door. Priced like any order: its price is the return's cost. The shop's id
   * is kept (its bill carries the parcel), the goods' product ids too.
   */
  async compose(scope: Scope, sourceId: number, spec: ReturnParcelSpec): Promise<OrderDoc> {
    const record = await accessibleOrder(this.store, scope, sourceId);
    const source = parseDoc(record.doc);
    const reversed = reversedInputOf(source);
    const lines = spec.lines.filter((line) => line.count > 0 && source.products[line.line]);
    const input: OrderInput = {
      ...reversed,
      cmsId: source.cmsId ? `${source.cmsId}-R${spec.returnOf?.returnId ?? ''}` : null,
      products: lines.map((line) => ({
        ...(reversed.products ?? [])[line.line],
        count: line.count,
        priceCod: 0,
        prePay: 0,
      })),
      // the parcel is weighed by its goods: the original's places and overall weight were for every line
      places: [],
      dimensions: undefined,
      priceDeclared: null,
      discount: 0,
      pickup: { type: spec.pickup.type, date: null, pointId: spec.pickup.pointId },
      delivery: { company: { id: spec.companyId }, type: 2, services: [], point: null },
      comment: spec.comment,
    };
    const now = new Date().toISOString();
    // the buyer sends it, not the shop: composed without a shop (a shop key would name its own), the shop set after
    const sender: Scope = { ...scope, shopKeyShopId: null };
    const doc = await this.composer.compose(sender, input, undefined, [this.historyItem(STATUS.draft, now)], false);
    doc.shopId = source.shopId;
    doc.brand = source.brand;
    doc.returnOf = spec.returnOf;
    lines.forEach((line, index) => {
      if (doc.products[index]) doc.products[index].id = source.products[line.line].id;
    });
    return doc;
  }

  /** Writes a parcel composed above, confirmed and queued for registration with its company, in `trx`. */
  async create(scope: Scope, doc: OrderDoc, trx: Db): Promise<number> {
    const now = new Date().toISOString();
    doc.status = STATUS.confirmed;
    doc.statusHistory = [this.historyItem(STATUS.confirmed, now, 'Return parcel'), ...doc.statusHistory];
    const id = await this.store.insert(scope.accountId, doc, {}, trx);
    await queueRegistration(this.jobs, scope.accountId, id, trx);
    return id;
  }

  /**
   * A return parcel reached the shop's fulfilment warehouse: the goods it carries (lines of the
   * delivered order `goodsOrderId`) join the warehouse's inspection queue, in `trx`. True when
   * they joined it (false: not a fulfilment order's goods, nothing of the catalogue, or queued already).
   */
  toInspection(
    trx: Db,
    parcel: {
      accountId: number;
      parcelOrderId: number;
      goodsOrderId: number;
      returnId: number;
      lines: { productId: number; count: number }[];
    },
  ): Promise<boolean> {
    return this.fulfilment.receiveReturnParcel(trx, parcel);
  }

  /** The order as stored, for the returns area (no shop check: the caller has checked the return's). */
  async recordOf(accountId: number, id: number): Promise<Delivered | null> {
    const record = await this.store.get(accountId, id);
    return record ? { id: record.id, ...parseDoc(record.doc) } : null;
  }

  /** An order of the shop by its own number (cmsId) or our id, for the returns page's lookup; null when none. */
  async byShopNumber(accountId: number, shopId: number, number: string): Promise<Delivered | null> {
    const byNumber = await this.store.find(accountId, { cmsId: number }, shopId);
    const record =
      byNumber ??
      (/^\d{1,15}$/.test(number) ? await this.store.find(accountId, { id: Number(number) }, shopId) : undefined);
    // a return parcel carries the shop's id too: it is no order a buyer returns goods from
    if (!record) return null;
    const doc = parseDoc(record.doc);
    return doc.returnOf ? null : { id: record.id, ...doc };
  }
}

/** What a company's return product asks of the original: its track number, and the return's code. */
export async function returnParcelInfo(store: OrderStore, accountId: number, doc: OrderDoc): Promise<ReturnParcelInfo> {
  const originalOrderId = doc.returnOf?.orderId ?? 0;
  const original = await store.get(accountId, originalOrderId);
  return {
    code: /^Return (R[0-9A-Z]{10})$/.exec(doc.comment ?? '')?.[1] ?? null,
    originalOrderId,
    originalTrackNumber: original?.trackNumber ?? null,
  };
}

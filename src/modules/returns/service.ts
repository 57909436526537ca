/**
 * Returns: a buyer (the returns page) or the shop (POST /v2/returns) asks to send goods of a
 * delivered order back; the shop approves it (or its rules do), refuses it, or it is cancelled;
 * on approval the return parcel — an order in the reverse direction (orders' returnOf) — is made
 * and registered with the chosen company; its statuses move the return (parcels.ts). Every step
 * writes a `return.*` event in its transaction, for webhooks and CMS callbacks.
 */
import { requireShopAccess, type Scope } from '../../platform/auth.js';
import { declareChange } from '../../platform/audit.js';
import type { AccountReadCache } from '../../platform/cache.js';
import { todayIn } from '../../platform/clock.js';
import {
  AppError,
  conflict,
  FieldErrorCollector,
  fieldError,
  forbidden,
  notFound,
  unprocessable,
} from '../../platform/errors.js';
import { fromJson, toJson } from '../../platform/db/values.js';
import type { FileStore } from '../../platform/files.js';
import type { Paging, Page } from '../../platform/paging.js';
import { startOfDay, addDays } from '../../platform/clock.js';
import type { ReferenceData } from '../companies/reference.js';
import type { OrderDoc } from '../orders/document.js';
import type { OrderService } from '../orders/service.js';
import type { ShopService } from '../shops/service.js';
import { refundKopecks, writeReturnEvent, type ReturnEventType } from './events.js';
import type { ReturnLinks } from './links.js';
import { parcelSpec, ReturnWays, type ReturnOption } from './ways.js';

export type { ReturnOption } from './ways.js';
import { checkPhoto } from './photos.js';
import {
  allows,
  approvedByRules,
  daysBetween,
  defaultSettings,
  DELIVERED_STATUSES,
  goodsKopecksOf,
  newReturnCode,
  payerOf,
  returnableCounts,
  unitPriceKopecks,
  type ReturnLine,
  type ReturnReason,
  type ReturnSettings,
  type ReturnStep,
  type ReturnWay,
} from './rules.js';
import type { ReturnListQuery, ReturnRequestInput, ReturnView } from './schemas.js';
import type { Db, ReturnRow, ReturnStore } from './store.js';

export type Delivered = OrderDoc & { id: number };

export const RETURNS_CACHE_TOPIC = 'returns';

const kopecks = (roubles: number | null | undefined) => Math.round((roubles ?? 0) * 100);
const roubles = (value: number) => Math.round(value) / 100;

/** The day of an order's first delivered status (the account's day), or null when it was never delivered. */
export function deliveredDay(doc: OrderDoc, timeZone: string): string | null {
  const delivered = [...doc.statusHistory].reverse().find((item) => DELIVERED_STATUSES.includes(item.code));
  return delivered ? todayIn(timeZone, new Date(delivered.date)) : null;
}

export class ReturnService {
  constructor(
    private readonly store: ReturnStore,
    private readonly orders: OrderService,
    private readonly shops: ShopService,
    private readonly reference: ReferenceData,
    private readonly files: FileStore,
    private readonly links: ReturnLinks,
    private readonly cache: AccountReadCache,
  ) {
    this.ways = new ReturnWays(reference, orders);
  }

  /** The ways back and their prices (ways.ts). */
  private readonly ways: ReturnWays;

  /** Every committed write of an account's returns: its remembered pages and counts are stale. */
  changed(accountId: number): void {
    this.cache.invalidate(accountId, RETURNS_CACHE_TOPIC);
  }

  // ---------------------------------------------------------------- settings

  async settings(scope: Scope, shopId: number): Promise<ReturnSettings & { pageUrl: string }> {
    requireShopAccess(scope, shopId);
    await this.shops.get(scope, shopId);
    const settings = (await this.store.settingsOf(scope.accountId, shopId)) ?? defaultSettings(null);
    return { ...settings, pageUrl: this.links.shopUrl({ accountId: scope.accountId, shopId }) };
  }

  /** The returns page of one order (the tracking page and the delivered message link to it); null for an order without a shop. */
  orderPageUrl(accountId: number, shopId: number | null, orderId: number): string | null {
    return shopId === null ? null : this.links.orderUrl({ accountId, shopId, orderId });
  }

  async saveSettings(
    scope: Scope,
    shopId: number,
    settings: ReturnSettings,
  ): Promise<ReturnSettings & { pageUrl: string }> {
    requireShopAccess(scope, shopId);
    await this.shops.get(scope, shopId);
    const problems = new FieldErrorCollector();
    const seen = new Set<string>();
    for (const [index, entry] of settings.ways.entries()) {
      if (seen.has(entry.way)) problems.add(`ways[${index}].way`, 'is given twice');
      seen.add(entry.way);
      for (const [at, companyId] of entry.companyIds.entries()) {
        const company = (await this.reference.registry.companyOf(scope.accountId, companyId))?.company;
        const field = `ways[${index}].companyIds[${at}]`;
        if (!company) problems.add(field, `${companyId} is not a delivery company of this account`);
        else if (entry.way === 'post' && !company.isPost) problems.add(field, `${company.name} is not a post company`);
        else if (entry.way === 'point' && (company.isPost || company.pickup?.dropOff === false))
          problems.add(field, `${company.name} takes no parcels at its points`);
        else if (entry.way === 'courier' && !company.pickup?.direct)
          problems.add(field, `${company.name} has no courier to collect parcels`);
      }
    }
    problems.throwIfAny();
    declareChange({
      type: 'return_settings',
      ids: [shopId],
      before: (await this.store.settingsOf(scope.accountId, shopId)) ?? null,
      after: settings,
    });
    await this.store.saveSettings(scope.accountId, shopId, settings);
    return { ...settings, pageUrl: this.links.shopUrl({ accountId: scope.accountId, shopId }) };
  }

  /** The shop's rules; a shop that never saved any returns to its order's own company's points. */
  async settingsFor(accountId: number, shopId: number, order: Delivered | null): Promise<ReturnSettings> {
    const saved = await this.store.settingsOf(accountId, shopId);
    if (saved) return saved;
    const companyId = order?.delivery.company.id;
    return defaultSettings(typeof companyId === 'number' ? companyId : null);
  }

  // ---------------------------------------------------------------- reads

  async list(scope: Scope, query: ReturnListQuery, paging: Paging): Promise<Page<ReturnView>> {
    if (query.shopId !== undefined) requireShopAccess(scope, query.shopId);
    if (query.dateFrom && query.dateTo && query.dateTo < query.dateFrom)
      throw fieldError('dateTo', 'must be on or after dateFrom');
    const shopId = scope.shopKeyShopId ?? query.shopId;
    const filter = {
      ...(query.status ? { status: query.status } : {}),
      ...(shopId !== undefined ? { shopId } : {}),
      ...(query.orderId !== undefined ? { orderId: query.orderId } : {}),
      ...(query.dateFrom ? { from: startOfDay(query.dateFrom, scope.timeZone) } : {}),
      ...(query.dateTo ? { to: startOfDay(addDays(query.dateTo, 1), scope.timeZone) } : {}),
    };
    // a count reads the filter's whole index range: remembered until the account's returns change
    const key = JSON.stringify(filter);
    const [rows, total] = await Promise.all([
      this.cache.read(scope.accountId, RETURNS_CACHE_TOPIC, `page:${key}:${paging.offset}:${paging.perPage}`, () =>
        this.store.page(scope.accountId, filter, paging),
      ),
      this.cache.read(scope.accountId, RETURNS_CACHE_TOPIC, `count:${key}`, () =>
        this.store.count(scope.accountId, filter),
      ),
    ]);
    return { items: rows.map((row) => this.view(row)), total };
  }

  async get(scope: Scope, id: number): Promise<ReturnView> {
    return this.view(await this.accessible(scope, id));
  }

  /** The order's returns as the buyer's page shows them. */
  async ofOrder(accountId: number, orderId: number): Promise<ReturnView[]> {
    return (await this.store.ofOrder(accountId, orderId)).map((row) => this.view(row));
  }

  private async accessible(scope: Scope, id: number): Promise<ReturnRow> {
    const row = await this.store.get(scope.accountId, id);
    if (!row) throw notFound('Return', id);
    if (scope.shopKeyShopId !== null && Number(row.shop_id) !== scope.shopKeyShopId)
      throw forbidden(`Return ${id} is of another shop than this key's.`);
    return row;
  }

  view(row: ReturnRow): ReturnView {
    const lines = fromJson<ReturnLine[]>(row.lines);
    const goods = Number(row.goods_kopecks);
    const cost = Number(row.cost_kopecks);
    return {
      id: Number(row.id),
      shopId: Number(row.shop_id),
      orderId: Number(row.order_id),
      orderNumber: row.order_number,
      status: row.status as ReturnView['status'],
      code: row.code,
      way: row.way as ReturnWay,
      companyId: Number(row.company_id),
      pointId: row.point_id === null ? null : Number(row.point_id),
      lines: lines.map((line) => ({
        line: line.line,
        productId: line.productId,
        name: line.name,
        vendorCode: line.vendorCode,
        count: line.count,
        price: roubles(line.priceKopecks),
        reason: line.reason,
        comment: line.comment,
      })),
      photos: fromJson<string[]>(row.photos).map((name) => this.files.urlOf(name)),
      goodsSum: roubles(goods),
      cost: roubles(cost),
      payer: row.payer as 'shop' | 'buyer',
      refundSum: roubles(refundKopecks(goods, cost, row.payer)),
      createdBy: row.created_by as 'buyer' | 'shop',
      approvedBy: row.approved_by as ReturnView['approvedBy'],
      refusalReason: row.refusal_reason,
      parcelOrderId: row.parcel_order_id === null ? null : Number(row.parcel_order_id),
      createdAt: new Date(row.created_at).toISOString(),
      updatedAt: new Date(row.updated_at).toISOString(),
    };
  }

  /** The ways back the shop allows from where the buyer received the order, each priced for these lines (ways.ts). */
  options(
    scope: Scope,
    order: Delivered,
    settings: ReturnSettings,
    lines: Array<{ line: number; count: number; reason: ReturnReason }>,
  ): Promise<ReturnOption[]> {
    return this.ways.options(scope, order, settings, lines);
  }

  // ---------------------------------------------------------------- making a return

  /** The shop's own return (POST /v2/returns): no window, any way the company takes; approved at once. */
  async create(scope: Scope, body: ReturnRequestInput & { orderId: number }): Promise<ReturnView> {
    const order = await this.orders.get(scope, body.orderId);
    if (order.shopId === null)
      throw unprocessable('order_state', `Order ${body.orderId} has no shop: a return goes back to a shop.`);
    const settings = await this.settingsFor(scope.accountId, order.shopId, order);
    const id = await this.make(scope, order, settings, body, { by: 'shop', language: 'ru', checkWays: false });
    await this.approve(scope, id, 'shop');
    return this.get(scope, id);
  }

  /**
   * The buyer's return from the returns page (the caller has opened the order by its signed link
   * or its number and phone). Within the shop's window and ways; approved at once when its rules say so.
   */
  async requestByBuyer(
    accountId: number,
    timeZone: string,
    order: Delivered,
    body: ReturnRequestInput,
    language: 'ru' | 'en',
  ): Promise<ReturnView> {
    const scope: Scope = { accountId, timeZone, kind: 'account', shopKeyShopId: null, employeeId: null };
    const shopId = order.shopId as number;
    const settings = await this.settingsFor(accountId, shopId, order);
    const window = this.window(order, settings, timeZone);
    if (!settings.enabled || !window.open)
      throw unprocessable('order_state', 'The return window of this order has closed.');
    const id = await this.make(scope, order, settings, body, { by: 'buyer', language, checkWays: true });
    const row = (await this.store.get(accountId, id)) as ReturnRow;
    const lines = fromJson<ReturnLine[]>(row.lines);
    if (
      approvedByRules(settings, {
        reasons: lines.map((line) => line.reason),
        goodsKopecks: Number(row.goods_kopecks),
        daysSinceDelivery: window.days,
      })
    )
      await this.approve(scope, id, 'rules');
    return this.get(scope, id);
  }

  /** Whether the order is still within the shop's window: days since its delivery. */
  window(
    order: Delivered,
    settings: ReturnSettings,
    timeZone: string,
  ): { open: boolean; days: number; lastDay: string | null } {
    const day = deliveredDay(order, timeZone);
    if (!day || !DELIVERED_STATUSES.includes(order.status)) return { open: false, days: 0, lastDay: null };
    const days = daysBetween(day, todayIn(timeZone));
    return { open: days <= settings.windowDays, days, lastDay: addDays(day, settings.windowDays) };
  }

  /** What of each line may still come back. */
  async returnable(accountId: number, order: Delivered): Promise<number[]> {
    const others = await this.store.ofOrder(accountId, order.id);
    return returnableCounts(
      order.products,
      others.map((row) => ({ status: row.status, lines: fromJson<ReturnLine[]>(row.lines) })),
    );
  }

  private async make(
    scope: Scope,
    order: Delivered,
    settings: ReturnSettings,
    body: ReturnRequestInput,
    how: { by: 'buyer' | 'shop'; language: 'ru' | 'en'; checkWays: boolean },
  ): Promise<number> {
    if (!DELIVERED_STATUSES.includes(order.status))
      throw conflict('order_state', `Order ${order.id} is not delivered: only delivered goods are returned.`, [
        { id: order.id, message: 'not delivered' },
      ]);
    const problems = new FieldErrorCollector();
    const left = await this.returnable(scope.accountId, order);
    const wanted = new Map<number, number>();
    for (const [index, line] of body.lines.entries()) {
      if (!order.products[line.line]) problems.add(`lines[${index}].line`, `the order has no line ${line.line}`);
      else if (wanted.has(line.line)) problems.add(`lines[${index}].line`, `line ${line.line} is given twice`);
      else if (line.count > left[line.line])
        problems.add(`lines[${index}].count`, `at most ${left[line.line]} of line ${line.line} may still be returned`);
      wanted.set(line.line, line.count);
    }
    const chosen = body.lines.filter((line) => line.count > 0);
    if (chosen.length === 0 && body.lines.length > 0) problems.add('lines', 'return at least one unit');
    const needsPoint = body.way !== 'courier';
    if (needsPoint && !body.pointId) problems.add('pointId', `is required for the way ${body.way}`);
    if (needsPoint && body.pointId) {
      const point = this.reference.registry.point(body.pointId);
      if (!point || point.companyId !== body.companyId)
        problems.add('pointId', `is not a point of company ${body.companyId}`);
      else if ((body.way === 'post') !== (point.type === 3))
        problems.add('pointId', body.way === 'post' ? 'is not a post office' : 'is a post office: choose the way post');
    }
    if (how.checkWays) {
      const allowed = settings.ways.find((entry) => entry.way === body.way);
      if (!allowed?.companyIds.includes(body.companyId))
        problems.add('companyId', `the shop takes no returns by ${body.way} with company ${body.companyId}`);
    }
    const photos = body.photos ?? [];
    const checked = photos.map((photo, index) => {
      const bytes = Buffer.from(photo.data, 'base64');
      const check = checkPhoto(bytes);
      if (!check.ok) problems.add(`photos[${index}]`, check.reason);
      return { bytes, check };
    });
    problems.throwIfAny();

    const lines: ReturnLine[] = chosen.map((line) => {
      const product = order.products[line.line];
      return {
        line: line.line,
        productId: product.id,
        name: product.name,
        vendorCode: product.vendorCode,
        count: line.count,
        priceKopecks: unitPriceKopecks({
          id: product.id,
          name: product.name,
          vendorCode: product.vendorCode,
          count: product.count,
          priceCod: product.priceCod ?? 0,
          discount: product.discount ?? 0,
          priceDeclared: product.priceDeclared ?? 0,
        }),
        reason: line.reason,
        comment: line.comment?.trim() || null,
      };
    });
    const choice = { way: body.way, companyId: body.companyId, pointId: body.pointId ?? null };
    const cost = await this.ways.priceOf(scope, order, lines, choice);
    if (cost === null)
      throw unprocessable(
        'option_unavailable',
        `Company ${body.companyId} cannot carry this return ${body.way === 'courier' ? 'by courier' : 'from that point'}: choose another way back.`,
        [{ field: 'companyId', message: 'cannot carry this return' }],
      );
    const names: string[] = [];
    for (const { bytes, check } of checked) {
      if (!check.ok) continue;
      const stored = await this.files.put(scope.accountId, {
        bytes,
        contentType: check.contentType,
        extension: check.extension,
        downloadName: `return-photo.${check.extension}`,
      });
      names.push(stored.name);
    }
    const now = new Date().toISOString();
    const made = await this.store.transaction(async (trx) => {
      // counted again inside the write: two tabs of the same page must not return one unit twice
      const again = returnableCounts(
        order.products,
        (await this.store.ofOrder(scope.accountId, order.id, trx)).map((row) => ({
          status: row.status,
          lines: fromJson<ReturnLine[]>(row.lines),
        })),
      );
      for (const line of lines)
        if (line.count > again[line.line])
          throw conflict('order_changed', 'Another return of this order took these goods meanwhile: read it again.');
      const row = {
        account_id: scope.accountId,
        shop_id: order.shopId as number,
        order_id: order.id,
        order_number: order.cmsId,
        status: 'requested',
        code: newReturnCode(),
        way: body.way,
        company_id: body.companyId,
        point_id: body.way === 'courier' ? null : (body.pointId ?? null),
        cost_kopecks: kopecks(cost),
        payer: payerOf(settings.payer, lines),
        goods_kopecks: goodsKopecksOf(lines),
        lines: toJson(lines),
        photos: toJson(names),
        created_by: how.by,
        approved_by: null,
        refusal_reason: null,
        parcel_order_id: null,
        language: how.language,
        created_at: now,
        updated_at: now,
      };
      const id = await this.store.insert(row, trx);
      await writeReturnEvent(trx, { ...row, id }, order, 'return.requested');
      return id;
    });
    this.changed(scope.accountId);
    return made;
  }

  // ---------------------------------------------------------------- steps

  /** Approves a requested return: its parcel is made and queued for registration with the company. */
  async approve(scope: Scope, id: number, by: 'shop' | 'rules' = 'shop'): Promise<ReturnView> {
    const row = await this.accessible(scope, id);
    this.check('approve', row);
    const order = await this.orders.returnParcels.recordOf(scope.accountId, Number(row.order_id));
    if (!order) throw notFound('Order', Number(row.order_id));
    const lines = fromJson<ReturnLine[]>(row.lines);
    const choice = {
      way: row.way as ReturnWay,
      companyId: Number(row.company_id),
      pointId: row.point_id === null ? null : Number(row.point_id),
    };
    const doc = await this.orders.returnParcels.compose(
      scope,
      order.id,
      parcelSpec(lines, choice, { returnId: id, orderId: order.id }, row.code),
    );
    await this.store.transaction(async (trx) => {
      const parcelId = await this.orders.returnParcels.create(scope, doc, trx);
      const changes = {
        status: 'approved',
        approved_by: by,
        parcel_order_id: parcelId,
        cost_kopecks: kopecks(doc.delivery.price ?? roubles(Number(row.cost_kopecks))),
      };
      if (!(await this.store.update(scope.accountId, id, row.status, changes, trx))) throw raced(id);
      await writeReturnEvent(trx, { ...row, ...changes }, order, 'return.approved');
    });
    this.changed(scope.accountId);
    this.orders.changed(scope.accountId, { created: true });
    return this.get(scope, id);
  }

  async refuse(scope: Scope, id: number, reason: string): Promise<ReturnView> {
    return this.step(scope, id, 'refuse', { status: 'refused', refusal_reason: reason.trim() }, 'return.refused');
  }

  async cancel(scope: Scope, id: number): Promise<ReturnView> {
    const row = await this.accessible(scope, id);
    this.check('cancel', row);
    const view = await this.step(scope, id, 'cancel', { status: 'cancelled' }, 'return.cancelled');
    // the parcel not yet handed over is called off with its company (the orders' cancel)
    if (row.parcel_order_id !== null)
      await this.orders.cancel(scope, [Number(row.parcel_order_id)]).catch((error: unknown) => {
        if (!(error instanceof AppError)) throw error;
      });
    return view;
  }

  private async step(
    scope: Scope,
    id: number,
    step: ReturnStep,
    changes: { status: string; refusal_reason?: string },
    type: ReturnEventType,
  ): Promise<ReturnView> {
    const row = await this.accessible(scope, id);
    this.check(step, row);
    const order = await this.orders.returnParcels.recordOf(scope.accountId, Number(row.order_id));
    await this.store.transaction(async (trx) => {
      if (!(await this.store.update(scope.accountId, id, row.status, changes, trx))) throw raced(id);
      await writeReturnEvent(trx, { ...row, ...changes }, order, type);
    });
    this.changed(scope.accountId);
    return this.get(scope, id);
  }

  private check(step: ReturnStep, row: ReturnRow): void {
    if (!allows(step, row.status))
      throw conflict('order_state', `Return ${row.id} is ${row.status}: it cannot be ${PAST[step]}.`, [
        { id: Number(row.id), message: row.status },
      ]);
  }

  /**
   * The return parcel moved (parcels.ts, from its order's status): on its way, or at the shop.
   * Written in the caller's transaction with its event; false when the return is elsewhere already.
   */
  async parcelMoved(trx: Db, row: ReturnRow, order: Delivered | null, to: 'in_transit' | 'received'): Promise<boolean> {
    if (!allows(to, row.status)) return false;
    if (!(await this.store.update(Number(row.account_id), Number(row.id), row.status, { status: to }, trx)))
      return false;
    await writeReturnEvent(
      trx,
      { ...row, status: to },
      order,
      to === 'in_transit' ? 'return.in_transit' : 'return.received',
    );
    return true;
  }

  /** The warehouse inspected what came back (the inspection queue's end): the return is closed; the caller calls `changed` once committed. */
  async close(accountId: number, id: number, trx: Db): Promise<boolean> {
    const row = await this.store.get(accountId, id, trx);
    if (!row || !allows('close', row.status)) return false;
    return this.store.update(accountId, id, row.status, { status: 'closed' }, trx);
  }
}

const PAST: Record<ReturnStep, string> = {
  approve: 'approved',
  refuse: 'refused',
  cancel: 'cancelled',
  in_transit: 'sent',
  received: 'received',
  close: 'closed',
};

function raced(id: number): AppError {
  return conflict('concurrent_change', `Return ${id} was changed at the same moment: read it again.`);
}

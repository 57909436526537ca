/**
 * The first-run checklist of an account: each step's tick read from the data it is about,
 * asked every time (no "done" flag is kept, so a step undone — a contract disconnected, a key
 * replaced — shows undone again). Only other areas' services are asked.
 */
import { requireAccountWide, type Scope } from '../../platform/auth.js';
import { AppError } from '../../platform/errors.js';
import type { CarrierIntegrationService } from '../carrier-integrations/service.js';
import type { OrderService } from '../orders/service.js';
import type { ShopService } from '../shops/service.js';
import type { WarehouseService } from '../warehouses/service.js';
import type { WidgetService } from '../widget/service.js';
import type { Checklist } from './schemas.js';

export class ChecklistService {
  constructor(
    private readonly warehouses: WarehouseService,
    private readonly shops: ShopService,
    private readonly contracts: CarrierIntegrationService,
    private readonly widget: WidgetService,
    private readonly orders: OrderService,
  ) {}

  async of(scope: Scope): Promise<Checklist> {
    requireAccountWide(scope, 'read the set-up checklist');
    const accountId = scope.accountId;
    const [warehouseId, shops, connected, facts] = await Promise.all([
      this.warehouses.firstId(accountId),
      this.shops.keyUse(accountId),
      this.contracts.connectedCompanies(accountId),
      this.widget.setUpFacts(accountId),
    ]);
    const testOrder = await this.testOrder(scope, facts.orderIds);
    const keyedShop = facts.keyedShops[0] ?? null;
    const pluginShop = shops.find((shop) => shop.keyUsed)?.id ?? null;
    const steps: Checklist['steps'] = {
      warehouse: { done: warehouseId !== null, warehouseId },
      shop: { done: shops.length > 0, shopId: shops[0]?.id ?? null },
      deliveryCompanies: { done: connected.length > 0, connected },
      widget: { done: keyedShop !== null, shopId: keyedShop },
      testOrder,
      cmsPlugin: { done: pluginShop !== null, shopId: pluginShop },
    };
    return { complete: Object.values(steps).every((step) => step.done), steps };
  }

  /** The latest order made from a widget selection: done once one such order has its sticker (any of the latest). */
  private async testOrder(scope: Scope, orderIds: number[]): Promise<Checklist['steps']['testOrder']> {
    let latest: Checklist['steps']['testOrder'] | null = null;
    for (const id of orderIds) {
      let order: Awaited<ReturnType<OrderService['get']>>;
      try {
        order = await this.orders.get(scope, id);
      } catch (error) {
        // an order deleted since (a draft): the next one
        if (error instanceof AppError && error.statusCode === 404) continue;
        throw error;
      }
      const seen = { done: order.stickerFormed, orderId: id, status: order.status, stickerFormed: order.stickerFormed };
      latest ??= seen;
      if (order.stickerFormed) return seen;
    }
    return latest ?? { done: false, orderId: null, status: null, stickerFormed: false };
  }
}

/**
 * Who collects from a warehouse and what a pickup covers: the companies that send a courier
 * there (the instance's, and an account's contracted ones for a direct shipment), the orders
 * a pickup takes (read live while it is current, the ones it took once it has ended), their
 * weight and the company's price. Reads only; the sender's side (service.ts) and the
 * company's (courier-jobs.ts) both ask it, and the answer must be the same for both.
 */
import { toKopecks } from '../../platform/money.js';
import type { ReferenceData } from '../companies/reference.js';
import type { PickupCompanyOffer } from '../companies/schemas.js';
import type { DeliveryCompanyService } from '../companies/service.js';
import { actOrderOf } from '../documents/service.js';
import type { OrderDoc } from '../orders/document.js';
import type { OrderService } from '../orders/service.js';
import type { Warehouse } from '../warehouses/schemas.js';
import { PICKUP_STATUS } from './schemas.js';
import type { PickupRecord } from './store.js';

/** Most orders one pickup covers (and one act lists). */
const MAX_PICKUP_ORDERS = 1000;
/** The statuses of a pickup not yet ended: it covers what is ready now, and can be canceled. */
export const CURRENT = [PICKUP_STATUS.new, PICKUP_STATUS.scheduled] as const;

export type OrderView = OrderDoc & { id: number };

export class PickupCoverage {
  constructor(
    private readonly orders: OrderService,
    private readonly companies: DeliveryCompanyService,
    private readonly reference: ReferenceData,
  ) {}

  /** The orders a current pickup covers: its warehouse's at 13 leaving that day, of its company (4) or of every consolidating company (3). */
  async covered(accountId: number, pickup: PickupRecord, warehouse: Warehouse): Promise<OrderView[]> {
    const companyIds =
      pickup.type === 4 ? [pickup.companyId] : (await this.offersAt(accountId, warehouse, 3)).map((offer) => offer.id);
    return this.orders.readyForPickup(
      accountId,
      {
        warehouseId: warehouse.id,
        date: pickup.date,
        type: pickup.type,
        byDefault: warehouse.pickupType === pickup.type,
        companyIds,
      },
      MAX_PICKUP_ORDERS,
    );
  }

  /** What a pickup covers now while it is current, or the orders it took once it has ended. */
  async ordersOf(accountId: number, record: PickupRecord, warehouse: Warehouse): Promise<OrderView[]> {
    const current = (CURRENT as readonly number[]).includes(record.status);
    return current
      ? await this.covered(accountId, record, warehouse)
      : await this.orders.byIds(accountId, record.orderIds ?? []);
  }

  /**
   * Who collects from the warehouse: the instance's companies serving its locality, and for a
   * direct shipment (4) also the account's contracted real companies that send a courier
   * (CDEK intakes). The service's consolidated pickup (3) hands over to the instance's only.
   */
  async offersAt(accountId: number, warehouse: Warehouse, type: 3 | 4): Promise<PickupCompanyOffer[]> {
    const offers = this.companies.pickupCompanies(warehouse.address.city, type);
    if (type !== 4 || warehouse.address.city.countryCode.toUpperCase() !== 'RU') return offers;
    for (const { company } of await this.reference.registry.companiesOf(accountId)) {
      if (company.driver !== 'contract' || !company.pickup?.direct || offers.some((offer) => offer.id === company.id))
        continue;
      offers.push({
        id: company.id,
        name: company.name,
        price: company.pickup.pricePickup,
        countFree: company.pickup.countFree ?? 0,
        commentAvailable: company.pickup.commentAvailable ?? false,
      });
    }
    return offers;
  }

  /** The company's price for the pickup, 0 from its `countFree` orders (fixed when Done). */
  async priceKopecksOf(
    accountId: number,
    pickup: PickupRecord,
    warehouse: Warehouse,
    countOrders: number,
  ): Promise<number> {
    const offer = (await this.offersAt(accountId, warehouse, pickup.type)).find((item) => item.id === pickup.companyId);
    if (!offer) return 0;
    return offer.countFree > 0 && countOrders >= offer.countFree ? 0 : toKopecks(offer.price);
  }

  weightGramsOf(pickup: PickupRecord, orders: OrderView[]): number {
    if (orders.length === 0) return pickup.weightGrams;
    return orders.reduce((sum, order) => sum + Math.round(actOrderOf(order).weightKg * 1000), 0);
  }
}

/**
 * Where a bill's lines come from: a list of charge sources, each answering "the lines
 * charged to this account in [from, to)". Deliveries and their services, fulfilment and
 * storage are here; pickups plug in with a source of their own (`ChargeSource`).
 */
import { toKopecks } from '../../platform/money.js';
import type { OrderService } from '../orders/service.js';
import type { StockService } from '../fulfilment/stock-service.js';
import type { PickupService } from '../pickups/service.js';
import { chargesOf, deliveredByTheShop } from './rules.js';

/** What a bill line says and costs (kopecks). */
export interface ChargeLine {
  /** The source's name: delivery, service, fulfilment, storage, pickup... */
  source: string;
  description: string;
  orderId: number | null;
  quantity: number;
  amount: number;
}

/** A billing period of one account, as instants and as the dates it covers. */
export interface ChargePeriod {
  accountId: number;
  timeZone: string;
  /** Instants [from, to). */
  from: string;
  to: string;
  /** First day and the day after the last one. */
  start: string;
  end: string;
}

/** One kind of work the service charges for: its lines of a period of an account. */
export interface ChargeSource {
  readonly name: string;
  chargesIn(period: ChargePeriod): AsyncIterable<ChargeLine>;
}

/** The rates of data/billing.json, in roubles. */
export interface BillingRates {
  service: { name: string; inn: string; kpp: string; address: string; bank: string };
  fulfilment: { perOrder: number; perUnit: number };
  storage: { perUnitDay: number };
}

/** Deliveries handed over in the period (first status 14 or later), and their services. */
export class DeliveryCharges implements ChargeSource {
  readonly name = 'delivery';

  constructor(private readonly orders: OrderService) {}

  async *chargesIn(period: ChargePeriod): AsyncGenerator<ChargeLine> {
    for await (const order of this.orders.scanForReport(period.accountId, {
      handedOver: { from: period.from, to: period.to },
    })) {
      if (deliveredByTheShop(order)) continue;
      const charges = chargesOf(order);
      const label = order.cmsId ? `${order.id} (${order.cmsId})` : String(order.id);
      yield {
        source: 'delivery',
        // a return parcel (modules/returns) is billed like any delivery, named for what it is
        description: `${order.returnOf ? `Доставка возврата ${order.returnOf.returnId} по заказу ${order.returnOf.orderId}: заказ ${label}` : `Доставка заказа ${label}`}, ${order.delivery.company.name ?? `служба ${order.delivery.company.id}`}`,
        orderId: order.id,
        quantity: 1,
        amount: charges.delivery,
      };
      for (const service of charges.services)
        yield {
          source: 'service',
          description: `${service.name}, заказ ${label}`,
          orderId: order.id,
          quantity: 1,
          amount: service.amount,
        };
    }
  }
}

/** Orders whose goods were shipped from a fulfilment warehouse in the period: per order and per unit. */
export class FulfilmentCharges implements ChargeSource {
  readonly name = 'fulfilment';

  constructor(
    private readonly stock: StockService,
    private readonly rates: BillingRates['fulfilment'],
  ) {}

  async *chargesIn(period: ChargePeriod): AsyncGenerator<ChargeLine> {
    // orders of the service and marketplace orders shipped from a fulfilment warehouse alike
    const units = new Map<number, number>();
    const marketplaceUnits = new Map<number, number>();
    for await (const movement of this.stock.movementsBetween(period.accountId, period.from, period.to, {
      kinds: ['ship'],
    })) {
      if (movement.orderId !== null) units.set(movement.orderId, (units.get(movement.orderId) ?? 0) - movement.delta);
      else if (movement.marketplaceOrderId !== null)
        marketplaceUnits.set(
          movement.marketplaceOrderId,
          (marketplaceUnits.get(movement.marketplaceOrderId) ?? 0) - movement.delta,
        );
    }
    const perOrder = toKopecks(this.rates.perOrder);
    const perUnit = toKopecks(this.rates.perUnit);
    for (const [orderId, count] of [...units].sort((a, b) => a[0] - b[0])) {
      yield {
        source: 'fulfilment',
        description: `Сборка и отгрузка заказа ${orderId} со склада фулфилмента, единиц: ${count}`,
        orderId,
        quantity: count,
        amount: perOrder + perUnit * count,
      };
    }
    for (const [marketplaceOrderId, count] of [...marketplaceUnits].sort((a, b) => a[0] - b[0])) {
      yield {
        source: 'fulfilment',
        description: `Сборка и отгрузка заказа маркетплейса ${marketplaceOrderId} со склада фулфилмента, единиц: ${count}`,
        orderId: null,
        quantity: count,
        amount: perOrder + perUnit * count,
      };
    }
  }
}

/** Goods kept at the fulfilment warehouses: unit-days (the units on hand at the end of each day of the period). */
export class StorageCharges implements ChargeSource {
  readonly name = 'storage';

  constructor(
    private readonly stock: StockService,
    private readonly rates: BillingRates['storage'],
    private readonly dayEnds: (period: ChargePeriod) => string[],
    private readonly warehouseName: (id: number) => Promise<string>,
  ) {}

  async *chargesIn(period: ChargePeriod): AsyncGenerator<ChargeLine> {
    const ends = this.dayEnds(period);
    const unitDays = new Map<number, number>();
    for (const row of await this.stock.onHandBefore(period.accountId, period.from))
      unitDays.set(
        row.fulfilmentWarehouseId,
        (unitDays.get(row.fulfilmentWarehouseId) ?? 0) + row.quantity * ends.length,
      );
    let day = 0;
    for await (const movement of this.stock.movementsBetween(period.accountId, period.from, period.to)) {
      while (movement.at >= ends[day]) day += 1;
      // a unit that arrives (or leaves) on a day counts at that day's end and every later one
      unitDays.set(
        movement.fulfilmentWarehouseId,
        (unitDays.get(movement.fulfilmentWarehouseId) ?? 0) + movement.delta * (ends.length - day),
      );
    }
    const rate = toKopecks(this.rates.perUnitDay);
    for (const [warehouseId, count] of [...unitDays].sort((a, b) => a[0] - b[0])) {
      if (count <= 0) continue;
      yield {
        source: 'storage',
        description: `Хранение на складе «${await this.warehouseName(warehouseId)}», единице-дней: ${count}`,
        orderId: null,
        quantity: count,
        amount: rate * count,
      };
    }
  }
}

/** Pickups the courier collected in the period, at the price fixed when they were Done (free ones are left out). */
export class PickupCharges implements ChargeSource {
  readonly name = 'pickup';

  constructor(private readonly pickups: PickupService) {}

  async *chargesIn(period: ChargePeriod): AsyncGenerator<ChargeLine> {
    for (const pickup of await this.pickups.chargesIn(period.accountId, period.from, period.to)) {
      if (pickup.priceKopecks === 0) continue;
      const label = pickup.number ? `${pickup.id} (${pickup.number})` : String(pickup.id);
      yield {
        source: 'pickup',
        description: `Забор груза ${label} ${pickup.date}, ${pickup.companyName}, заказов: ${pickup.countOrders}`,
        orderId: null,
        quantity: 1,
        amount: pickup.priceKopecks,
      };
    }
  }
}

/**
 * What an order is charged and what its cash on delivery remits, from the order as GET
 * answers it (the same stored facts the API shows). Pure: money in kopecks.
 */
import type { PaidBy } from '../../documents/report-sheets.js';
import { toKopecks } from '../../platform/money.js';
import type { OrderDoc } from '../orders/document.js';

export { deliveredAt, handedOverAt } from '../orders/state.js';

/**
 * An order of the account's own delivery method ('{accountId}_{methodId}'): the shop carries it
 * and collects its cash itself, so the service neither bills its delivery nor remits its COD.
 */
export function deliveredByTheShop(doc: Pick<OrderDoc, 'delivery'>): boolean {
  return typeof doc.delivery.company.id === 'string';
}

export type { PaidBy };

/** How the recipient paid on delivery: pay.type 3 is card; otherwise cash where the company took cash. */
export function paidBy(doc: Pick<OrderDoc, 'pay' | 'delivery'>): PaidBy {
  if (doc.pay.type === 3) return 'card';
  return doc.delivery.cashPaymentAvailable || !doc.delivery.cardPaymentAvailable ? 'cash' : 'card';
}

/** The cash on delivery collected: of a partial buyout only what its bought lines paid (order.partialBuyout), else the order's. */
export function collectedKopecks(doc: Pick<OrderDoc, 'priceCod' | 'partialBuyout'>): number {
  return toKopecks(doc.partialBuyout ? doc.partialBuyout.collected : doc.priceCod);
}

/** The commission of collecting the cash on delivery: withheld from the cash, so never billed (of a partial buyout: on the collected sum). */
export function codCommissionKopecks(doc: Pick<OrderDoc, 'pay' | 'delivery' | 'priceCod' | 'partialBuyout'>): number {
  if (doc.priceCod <= 0) return 0;
  if (doc.partialBuyout) return toKopecks(doc.partialBuyout.commission);
  return toKopecks(
    paidBy(doc) === 'card' ? (doc.delivery.priceCommissionCodCard ?? 0) : (doc.delivery.priceCommissionCod ?? 0),
  );
}

export interface OrderCharges {
  /** The delivery itself: the carriage, insurance and acquiring. */
  delivery: number;
  services: Array<{ id: number; name: string; amount: number }>;
}

/**
 * The cost to the shop of a handed-over order, split into the delivery and its services.
 * Known `factPrice` is the whole (services and the COD commission inside it); before
 * delivery the net parts of the price are added up (totalPrice would carry the widget's
 * customer price rules). The COD commission is left out: the remittance withholds it.
 */
export function chargesOf(doc: Pick<OrderDoc, 'pay' | 'delivery' | 'priceCod' | 'partialBuyout'>): OrderCharges {
  const services = doc.delivery.services.map((service) => ({
    id: service.id,
    name: service.name,
    amount: toKopecks(service.price),
  }));
  const servicesTotal = services.reduce((sum, service) => sum + service.amount, 0);
  const delivery =
    doc.delivery.factPrice !== null
      ? toKopecks(doc.delivery.factPrice) - servicesTotal - codCommissionKopecks(doc)
      : toKopecks(doc.delivery.price ?? 0) +
        toKopecks(doc.delivery.priceCommissionDeclared ?? 0) +
        toKopecks(doc.delivery.priceCommissionAcquiring ?? 0);
  return { delivery, services };
}

/** One order of a cash-on-delivery remittance (agent report 1). */
export interface RemittanceLine {
  orderId: number;
  cmsId: string | null;
  trackNumber: string | null;
  /** Instant of delivery. */
  deliveredAt: string;
  paidBy: PaidBy;
  collected: number;
  commission: number;
  due: number;
}

export function remittanceLineOf(doc: OrderDoc & { id: number }, at: string): RemittanceLine {
  const collected = collectedKopecks(doc);
  const commission = codCommissionKopecks(doc);
  return {
    orderId: doc.id,
    cmsId: doc.cmsId,
    trackNumber: doc.trackNumber,
    deliveredAt: at,
    paidBy: paidBy(doc),
    collected,
    commission,
    due: collected - commission,
  };
}

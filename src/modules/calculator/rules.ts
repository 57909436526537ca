/** Pure rules of the calculator: commissions into the total, widget price rules, working days. */
import { addDays, weekdayOf } from '../../platform/clock.js';
import { percentOf, toKopecks } from '../../platform/money.js';
import { commissionKopecks } from '../../carriers/tariff/pricing.js';
import type { CarrierQuote } from '../../carriers/types.js';

export interface OrderMoney {
  declaredKopecks: number;
  codKopecks: number;
  clientPriceKopecks: number;
  prePayKopecks: number;
}

export interface Commissions {
  declared: number;
  codCash: number;
  codCard: number;
  acquiring: number;
}

/**
 * Declared value -> insurance; cash on delivery plus the delivery price the customer pays
 * on delivery -> COD (cash and card); the customer's prepayment of delivery -> acquiring.
 */
export function commissionsOf(quote: CarrierQuote, money: OrderMoney): Commissions {
  const onDelivery = money.codKopecks + money.clientPriceKopecks;
  return {
    declared: commissionKopecks(money.declaredKopecks, quote.commissions.declared),
    codCash: commissionKopecks(onDelivery, quote.commissions.codCash),
    codCard: commissionKopecks(onDelivery, quote.commissions.codCard),
    acquiring: commissionKopecks(money.prePayKopecks, quote.commissions.acquiring),
  };
}

/** The total: delivery, required services, insurance, COD (cash where the company takes cash, else card) and acquiring. */
export function totalKopecks(
  deliveryKopecks: number,
  requiredServicesKopecks: number,
  commissions: Commissions,
  cashAvailable: boolean,
): number {
  return (
    deliveryKopecks +
    requiredServicesKopecks +
    commissions.declared +
    (cashAvailable ? commissions.codCash : commissions.codCard) +
    commissions.acquiring
  );
}

/** How the recipient paid what was collected on delivery; `none` when nothing was (no COD). */
export type CodPayment = 'cash' | 'card' | 'none';

/** The money of a priced delivery as answered (an order's `delivery`, a calculator option), roubles. */
export interface PricedDelivery {
  priceDelivery: number;
  /** The required services (their prices are part of the total). */
  requiredServices: Array<{ price: number }>;
  priceCommissionDeclared: number;
  priceCommissionCod: number;
  priceCommissionCodCard: number;
  priceCommissionAcquiring: number;
}

/**
 * The cost of a priced delivery to the shop (kopecks): what `totalKopecks` adds up, but with
 * only the COD commission that applies to how the recipient paid (card, cash, or none).
 * No widget rules: those change what the customer is charged, not what the company charges.
 */
export function deliveryCostKopecks(delivery: PricedDelivery, paid: CodPayment): number {
  const commissions: Commissions = {
    declared: toKopecks(delivery.priceCommissionDeclared),
    codCash: paid === 'cash' ? toKopecks(delivery.priceCommissionCod) : 0,
    codCard: paid === 'card' ? toKopecks(delivery.priceCommissionCodCard) : 0,
    acquiring: toKopecks(delivery.priceCommissionAcquiring),
  };
  const services = delivery.requiredServices.reduce((sum, service) => sum + toKopecks(service.price), 0);
  return totalKopecks(toKopecks(delivery.priceDelivery), services, commissions, paid !== 'card');
}

export interface PriceRule {
  type?: number | null;
  companyId?: number | null;
  kind: 'markup' | 'discount' | 'fixed';
  percent?: number | null;
  amount?: number | null;
}

export interface PriceRules {
  rules: PriceRule[];
  freeDeliveryFromKopecks: number | null;
  rounding: { stepKopecks: number; mode: 'up' | 'down' | 'nearest' } | null;
}

/** The customer's price of a delivery after the shop's widget rules, in order: rules, free delivery, rounding. */
export function applyPriceRules(
  kopecks: number,
  rules: PriceRules,
  context: { type: number; companyId: number; orderKopecks: number },
): number {
  let price = kopecks;
  for (const rule of rules.rules) {
    if (rule.type !== undefined && rule.type !== null && rule.type !== context.type) continue;
    if (rule.companyId !== undefined && rule.companyId !== null && rule.companyId !== context.companyId) continue;
    const amount = Math.round((rule.amount ?? 0) * 100);
    if (rule.kind === 'fixed') price = amount;
    else if (rule.kind === 'markup') price = price + percentOf(price, rule.percent ?? 0) + amount;
    else price = Math.max(0, price - percentOf(price, rule.percent ?? 0) - amount);
  }
  if (rules.freeDeliveryFromKopecks !== null && context.orderKopecks >= rules.freeDeliveryFromKopecks) price = 0;
  if (rules.rounding && price > 0 && rules.rounding.stepKopecks > 0) {
    const step = rules.rounding.stepKopecks;
    const round = rules.rounding.mode === 'up' ? Math.ceil : rules.rounding.mode === 'down' ? Math.floor : Math.round;
    price = round(price / step) * step;
  }
  return price;
}

/** Monday..Sunday as 0..6 of a `YYYY-MM-DD`. */
export function isWorkingDay(date: string, holidays: ReadonlySet<string>): boolean {
  return weekdayOf(date) < 5 && !holidays.has(date);
}

/** The date `days` working days after `start` (0: start itself, or the next working day). */
export function addWorkingDays(start: string, days: number, holidays: ReadonlySet<string>): string {
  let date = start;
  while (!isWorkingDay(date, holidays)) date = addDays(date, 1);
  for (let left = days; left > 0; ) {
    date = addDays(date, 1);
    if (isWorkingDay(date, holidays)) left -= 1;
  }
  return date;
}

export function calendarDaysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

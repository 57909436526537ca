/**
 * A calculator quote's price as the buyer would pay it, and the quotes in price order: the order
 * form's price list and the checkout settings' preview read both.
 */
import type { Schemas } from './api';
import { formatMoney } from './format';
import type { Locale, Translate } from './i18n';

export type Quote = Schemas['DeliveryCompany'];
export type DeliveryTypeKey = '1' | '2' | '3';
export type QuotesByType = Record<DeliveryTypeKey, Quote[]>;

export interface QuotePrice {
  /** Roubles; null when the answer carries no price (its points sent as ids only). */
  amount: number | null;
  /** A pickup point company's price is each point's own (a far point costs more): amount is the cheapest point's. */
  perPoint: boolean;
}

export function quotePrice(quote: Quote): QuotePrice {
  if (quote.totalPrice !== undefined) return { amount: quote.totalPrice, perPoint: false };
  if (quote.points && quote.points.length > 0) {
    const prices = quote.points.flatMap((point) => (typeof point === 'number' ? [] : [point.totalPrice]));
    return { amount: prices.length > 0 ? Math.min(...prices) : null, perPoint: true };
  }
  return { amount: quote.priceDelivery ?? null, perPoint: false };
}

/** Every quote of every delivery type in one list: cheapest first, equal prices by fewer days; unpriced last. */
export function quotesByPrice(quotes: QuotesByType): Array<{ type: DeliveryTypeKey; quote: Quote }> {
  const all = (['1', '2', '3'] as const).flatMap((type) => quotes[type].map((quote) => ({ type, quote })));
  const price = (quote: Quote) => quotePrice(quote).amount ?? Number.POSITIVE_INFINITY;
  return all.sort(
    (a, b) =>
      price(a.quote) - price(b.quote) ||
      a.quote.deliveryDays.min - b.quote.deliveryDays.min ||
      a.quote.deliveryDays.max - b.quote.deliveryDays.max,
  );
}

/** The cheapest quote of a type, or null when the type has none. */
export function cheapestOf(quotes: Quote[]): Quote | null {
  return quotesByPrice({ '1': quotes, '2': [], '3': [] })[0]?.quote ?? null;
}

/** The price as a person reads it: a point company's "from" its cheapest point, or that it depends on the point. */
export function quotePriceText(price: QuotePrice, locale: Locale, t: Translate): string {
  if (price.perPoint)
    return price.amount === null ? t('priceByPoint') : t('priceFrom', { price: formatMoney(price.amount, locale) });
  return formatMoney(price.amount, locale);
}

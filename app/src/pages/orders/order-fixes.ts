/**
 * The problem list's one-click fixes, each through the API the order form already uses: the order
 * is read (GET /v2/orders/{id}), turned into the form's draft, changed, and saved with
 * PUT /v2/orders/{id} — the service prices and validates an edit as it does the form's, so a fix
 * cannot save what the form would refuse.
 */
import { api, ok, type Order, type Schemas } from '../../api';
import { calculatorBodyOf, draftFromOrder, optionKey, orderBodyOf, type OrderDraft } from './order-draft';

export type Quote = Schemas['DeliveryCompany'];
export type Quotes = Record<'1' | '2' | '3', Quote[]>;

/** A quote's price: its own total, else its cheapest point's. */
export function quotePrice(quote: Quote): number | null {
  if (quote.totalPrice !== undefined && quote.totalPrice !== null) return quote.totalPrice;
  const prices = (quote.points ?? []).flatMap((point) => (typeof point === 'number' ? [] : [point.totalPrice]));
  return prices.length > 0 ? Math.min(...prices) : null;
}

/**
 * The quote the order should take now: its own company and tariff if still offered, else the
 * cheapest tariff of the same company and way (a tariff renamed or withdrawn), else none.
 */
export function requote(quotes: Quotes, option: NonNullable<OrderDraft['option']>): Quote | null {
  const sameWay = quotes[String(option.type) as '1' | '2' | '3'] ?? [];
  const exact = sameWay.find((quote) => optionKey(option.type, quote) === option.key);
  if (exact) return exact;
  const sameCompany = sameWay
    .filter((quote) => String(quote.deliveryCompanyId) === String(option.companyId))
    .map((quote) => ({ quote, price: quotePrice(quote) }))
    .filter((entry): entry is { quote: Quote; price: number } => entry.price !== null)
    .sort((left, right) => left.price - right.price);
  return sameCompany[0]?.quote ?? null;
}

export class NoQuoteError extends Error {
  constructor() {
    super('no-quote');
    this.name = 'NoQuoteError';
  }
}

async function draftOf(id: number): Promise<OrderDraft> {
  return draftFromOrder(ok(await api.GET('/v2/orders/{id}', { params: { path: { id } } })));
}

/** The calculator's quotes for the order as it stands (the shop's widget settings applied). */
export async function quotesFor(draft: OrderDraft): Promise<Quotes> {
  const body = calculatorBodyOf(draft);
  if (!body || draft.shopId === null) throw new NoQuoteError();
  return ok(await api.POST('/v2/calculator', { params: { header: { 'Shop-Id': draft.shopId } }, body })) as Quotes;
}

async function save(id: number, draft: OrderDraft): Promise<Order> {
  ok(await api.PUT('/v2/orders/{id}', { params: { path: { id } }, body: orderBodyOf(draft) }));
  return ok(await api.GET('/v2/orders/{id}', { params: { path: { id } } }));
}

/** Re-price: the calculator again, the order's company and tariff (or the company's cheapest now), saved. */
export async function repriceOrder(id: number): Promise<Order> {
  const draft = await draftOf(id);
  if (!draft.option) throw new NoQuoteError();
  const quote = requote(await quotesFor(draft), draft.option);
  if (!quote) throw new NoQuoteError();
  const option = {
    key: optionKey(draft.option.type, quote),
    type: draft.option.type,
    companyId: quote.deliveryCompanyId,
    tariff: quote.tariffName ?? null,
  };
  return save(id, { ...draft, option });
}

/** The order's company and tariff with the points it offers now (for the point picker). */
export async function pointChoiceFor(id: number): Promise<{ draft: OrderDraft; quote: Quote | null }> {
  const draft = await draftOf(id);
  if (!draft.option || draft.option.type !== 1) return { draft, quote: null };
  return { draft, quote: requote(await quotesFor(draft), draft.option) };
}

/** Change point: the order saved with another point of its company and tariff. */
export async function changeOrderPoint(id: number, draft: OrderDraft, pointId: number): Promise<Order> {
  return save(id, { ...draft, pointId });
}

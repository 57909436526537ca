/**
 * Partial buyout at the point (status 47): the recipient takes some lines and refuses the rest.
 * Which lines, and the sums that follow: the cash on delivery collected for the bought lines
 * only, the company's commission on that sum only, and the delivery's cost to the shop (the
 * carriage in full: the parcel did travel). The refused lines travel back with the parcel
 * (71, then 74 partly returned). Pure: money in kopecks inside, roubles in the document.
 */
import { toKopecks, toRoubles } from '../../platform/money.js';
import type { CodPayment } from '../calculator/rules.js';
import { factPriceOf, type OrderDoc } from './document.js';
import type { BuyoutInput, PartialBuyout } from './schemas.js';
import type { BuyoutReport } from '../../carriers/types.js';

/** What the recipient bought of one line: by its position in products, or by its vendor code (the company's article). */
export type BoughtLine = BuyoutReport['lines'][number];
export type { BuyoutReport };

/** A buyout of the API (roubles) as the companies report it (kopecks). */
export function buyoutReportOf(input: BuyoutInput): BuyoutReport {
  return {
    lines: input.lines.map((line) => ({
      ...(line.index !== undefined ? { index: line.index } : {}),
      ...(line.vendorCode !== undefined ? { vendorCode: line.vendorCode } : {}),
      count: line.count,
    })),
    ...(input.collected !== undefined ? { collectedKopecks: toKopecks(input.collected) } : {}),
  };
}

/** Why the order cannot end in a partial buyout, or null when it can (the point allows it, something is paid on delivery). */
export function partialBuyoutRefusal(doc: Pick<OrderDoc, 'delivery' | 'priceCod' | 'products'>): string | null {
  if (!doc.delivery.partialBuyoutAvailable)
    return "the order's point (or company) does not allow a partial buyout (partialBuyoutAvailable is false)";
  if (doc.priceCod <= 0) return 'nothing is paid on delivery: a prepaid parcel is taken or refused whole';
  if (doc.products.reduce((sum, line) => sum + line.count, 0) < 2) return 'the order has a single unit';
  return null;
}

/** Units bought per line of products, from a report by position or vendor code; an error text when it does not fit the order. */
export function boughtPerLine(
  products: ReadonlyArray<{ vendorCode: string | null; id: number | null; count: number }>,
  lines: readonly BoughtLine[],
): number[] | string {
  const bought = products.map(() => 0);
  for (const line of lines) {
    let index = line.index;
    if (index === undefined && line.vendorCode !== undefined) {
      // the article a company was given: the vendor code, else the product id, else the position (shipment-request.ts)
      index = products.findIndex(
        (product, position) =>
          (product.vendorCode ?? (product.id === null ? String(position + 1) : String(product.id))) ===
            line.vendorCode && bought[position] < product.count,
      );
      if (index < 0) return `no line of the order has the article ${line.vendorCode}`;
    }
    if (index === undefined || index < 0 || index >= products.length || !Number.isInteger(index))
      return `line ${index ?? '?'} is not a line of the order`;
    if (!Number.isInteger(line.count) || line.count < 0) return `line ${index}: a count is a whole number of units`;
    bought[index] += line.count;
    if (bought[index] > products[index].count)
      return `line ${index}: ${bought[index]} bought of ${products[index].count} in the order`;
  }
  const total = bought.reduce((sum, count) => sum + count, 0);
  const all = products.reduce((sum, line) => sum + line.count, 0);
  if (total === 0) return 'nothing was bought: that is a refusal (462), not a partial buyout';
  if (total === all) return 'everything was bought: that is a delivery (44), not a partial buyout';
  return bought;
}

/** The cash on delivery of the bought units: goods less their discounts, less the order's discount, plus the buyer's delivery charge. */
export function collectedKopecksOf(doc: OrderDoc, bought: readonly number[]): number {
  const goods = doc.products.reduce(
    (sum, line, index) =>
      sum + Math.max(0, toKopecks(line.priceCod ?? 0) - toKopecks(line.discount ?? 0)) * (bought[index] ?? 0),
    0,
  );
  const delivery = Math.max(0, toKopecks(doc.clientPrice ?? 0) - toKopecks(doc.clientPrePay ?? 0));
  return Math.min(toKopecks(doc.priceCod), Math.max(0, goods - toKopecks(doc.discount ?? 0)) + delivery);
}

/**
 * The company's commission for collecting `collected`: its percent of that sum where the price
 * has one, else the priced commission in proportion to what was collected of what was asked.
 */
export function commissionKopecksOf(doc: OrderDoc, collected: number, paid: CodPayment): number {
  if (paid === 'none' || collected <= 0) return 0;
  const delivery = doc.delivery;
  const percent = paid === 'card' ? (delivery.percentCommissionCodCard ?? 0) : (delivery.percentCommissionCod ?? 0);
  if (percent > 0) return Math.round((collected * percent) / 100);
  const full = toKopecks(paid === 'card' ? (delivery.priceCommissionCodCard ?? 0) : (delivery.priceCommissionCod ?? 0));
  const asked = toKopecks(doc.priceCod);
  return asked > 0 ? Math.round((full * collected) / asked) : 0;
}

/** The order's partial buyout and the delivery's cost to the shop as it turned out. */
export function applyPartialBuyout(
  doc: OrderDoc,
  bought: readonly number[],
  paid: CodPayment,
  at: string,
  reportedCollectedKopecks?: number,
): { partialBuyout: PartialBuyout; factPrice: number | null } {
  const asked = toKopecks(doc.priceCod);
  const collected =
    reportedCollectedKopecks !== undefined
      ? Math.max(0, Math.min(asked, Math.round(reportedCollectedKopecks)))
      : collectedKopecksOf(doc, bought);
  const commission = commissionKopecksOf(doc, collected, paid);
  const partialBuyout: PartialBuyout = {
    date: at,
    lines: doc.products.map((line, index) => ({
      index,
      id: line.id,
      vendorCode: line.vendorCode,
      name: line.name,
      count: line.count,
      bought: bought[index] ?? 0,
      refused: line.count - (bought[index] ?? 0),
    })),
    priceCod: doc.priceCod,
    collected: toRoubles(collected),
    commission: toRoubles(commission),
  };
  const roubles = toRoubles(commission);
  const factPrice = factPriceOf(
    { ...doc.delivery, priceCommissionCod: roubles, priceCommissionCodCard: roubles },
    paid,
  );
  return { partialBuyout, factPrice };
}

/** Units per product that came back (the refused units of product lines); lines without a product id are left out. */
export function refusedGoods(partialBuyout: PartialBuyout): Array<{ productId: number; count: number }> {
  return partialBuyout.lines
    .filter((line) => line.id !== null && line.refused > 0)
    .map((line) => ({ productId: line.id as number, count: line.refused }));
}

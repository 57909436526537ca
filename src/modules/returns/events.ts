/**
 * A return's events: every step writes one `return.*` row into the order events outbox, in the
 * step's transaction, under the order the goods come back from; webhooks and CMS callbacks read
 * it from there. The payload carries the return as it is after the step (lines, sums, costs), so
 * a CMS can refund without asking.
 */
import { fromJson } from '../../platform/db/values.js';
import { outboxRows, writeOrderEvents } from '../events/outbox.js';
import type { ReturnEventPayload } from '../events/types.js';
import type { OrderDoc } from '../orders/document.js';
import type { ReturnLine } from './rules.js';
import type { Db, ReturnRow } from './store.js';

export type ReturnEventType =
  | 'return.requested'
  | 'return.approved'
  | 'return.refused'
  | 'return.cancelled'
  | 'return.in_transit'
  | 'return.received';

const roubles = (kopecks: number) => Math.round(kopecks) / 100;

/** What the shop refunds: the goods, less the way back when the buyer pays it (kopecks). */
export function refundKopecks(goods: number, cost: number, payer: string): number {
  return Math.max(0, goods - (payer === 'buyer' ? cost : 0));
}

export function returnEventData(
  row: Omit<ReturnRow, 'id' | 'updated_at'> & { id: number | bigint },
): ReturnEventPayload {
  const lines = fromJson<ReturnLine[]>(row.lines);
  const goods = Number(row.goods_kopecks);
  const cost = Number(row.cost_kopecks);
  return {
    id: Number(row.id),
    status: row.status,
    code: row.code,
    way: row.way,
    companyId: Number(row.company_id),
    lines: lines.map((line) => ({
      line: line.line,
      productId: line.productId,
      vendorCode: line.vendorCode,
      name: line.name,
      count: line.count,
      price: roubles(line.priceKopecks),
      reason: line.reason,
    })),
    goodsSum: roubles(goods),
    cost: roubles(cost),
    payer: row.payer,
    refundSum: roubles(refundKopecks(goods, cost, row.payer)),
    parcelOrderId: row.parcel_order_id === null ? null : Number(row.parcel_order_id),
    refusalReason: row.refusal_reason,
  };
}

export async function writeReturnEvent(
  trx: Db,
  row: Omit<ReturnRow, 'id' | 'updated_at'> & { id: number | bigint },
  order: Pick<OrderDoc, 'cmsId' | 'trackNumber'> | null,
  type: ReturnEventType,
): Promise<void> {
  await writeOrderEvents(
    trx,
    outboxRows(
      Number(row.account_id),
      Number(row.shop_id),
      Number(row.order_id),
      [
        {
          type,
          statusFrom: null,
          statusTo: null,
          payload: {
            cmsId: order?.cmsId ?? null,
            trackNumber: order?.trackNumber ?? null,
            return: returnEventData(row),
          },
        },
      ],
      new Date().toISOString(),
    ),
  );
}

/**
 * CDEK's side of an order's journey: its status codes as ours, the statuses of an order's
 * answer (GET /v2/orders/{uuid}, "Информация о заказе") and of an ORDER_STATUS webhook
 * ("Подписка на вебхуки") as our tracking events, and the subscriptions already made. Apart
 * from mapper.ts because it reads what CDEK tells us after registration; the request side
 * (quoting, registering) shares nothing with it. mapper.ts re-exports it for the driver.
 */
import type { TrackingEvent } from '../types.js';

/** CDEK's order status codes (`statuses[].code`, webhook `attributes.code`) to ours; unknown ones are not events. */
export const CDEK_STATUS: Readonly<Record<string, number>> = {
  ACCEPTED: 13,
  CREATED: 13,
  RECEIVED_AT_SHIPMENT_WAREHOUSE: 41,
  READY_TO_SHIP_AT_SENDING_OFFICE: 41,
  READY_FOR_SHIPMENT_IN_SENDER_CITY: 41,
  // on the way (CDEK's list carries two names for several steps: both are taken)
  READY_FOR_SHIPMENT_IN_TRANSIT_CITY: 411,
  PASSED_TO_CARRIER_AT_SENDING_OFFICE: 411,
  TAKEN_BY_TRANSPORTER_FROM_SENDER_CITY: 411,
  SEND_TO_TRANSIT_OFFICE: 411,
  SENT_TO_TRANSIT_CITY: 411,
  MET_AT_TRANSIT_OFFICE: 411,
  ACCEPTED_IN_TRANSIT_CITY: 411,
  ACCEPTED_AT_TRANSIT_WAREHOUSE: 411,
  RETURNED_TO_TRANSIT_WAREHOUSE: 411,
  READY_TO_SHIP_IN_TRANSIT_OFFICE: 411,
  PASSED_TO_CARRIER_AT_TRANSIT_OFFICE: 411,
  TAKEN_BY_TRANSPORTER_FROM_TRANSIT_CITY: 411,
  SENT_TO_RECIPIENT_CITY: 411,
  ACCEPTED_IN_RECIPIENT_CITY: 412,
  MET_AT_RECIPIENT_OFFICE: 412,
  ACCEPTED_AT_RECIPIENT_CITY_WAREHOUSE: 412,
  ACCEPTED_AT_PICK_UP_POINT: 42,
  POSTOMAT_POSTED: 42,
  TAKEN_BY_COURIER: 43,
  DELIVERED: 44,
  POSTOMAT_RECEIVED: 44,
  NOT_DELIVERED: 462,
  RETURNED_TO_RECIPIENT_CITY_WAREHOUSE: 51,
  POSTOMAT_SEIZED: 51,
  // the return's way back
  SENT_TO_SENDER_CITY: 71,
  MET_AT_SENDING_OFFICE: 71,
  ACCEPTED_IN_SENDER_CITY: 71,
  RETURNED_TO_SENDER_CITY_WAREHOUSE: 71,
  RETURNED: 72,
  REMOVED: 10,
};

function statusEvent(trackNumber: string, code: unknown, at: unknown, name: unknown): TrackingEvent | null {
  const statusCode = typeof code === 'string' ? CDEK_STATUS[code] : undefined;
  if (statusCode === undefined) return null;
  return {
    trackNumber,
    statusCode,
    at: typeof at === 'string' && !Number.isNaN(Date.parse(at)) ? new Date(at).toISOString() : new Date().toISOString(),
    description: typeof name === 'string' ? name : (code as string),
  };
}

interface CdekOrderEntity {
  statuses?: Array<{ code?: unknown; date_time?: unknown; name?: unknown }>;
  packages?: Array<{ items?: Array<{ ware_key?: unknown; amount?: unknown; delivery_amount?: unknown }> }>;
  delivery_detail?: { payment_sum?: unknown };
}

/**
 * A partial delivery ("частичная доставка") as CDEK's order answer tells it: the order is
 * DELIVERED ("Вручен") while some item's `delivery_amount` (units handed over) is below its
 * `amount`; `delivery_detail.payment_sum` is the cash taken from the recipient for what was
 * handed over. Null when everything (or nothing said of it) was handed over.
 */
export function partialDeliveryOf(entity: CdekOrderEntity | undefined): TrackingEvent['buyout'] | null {
  const items = (entity?.packages ?? []).flatMap((pack) => (Array.isArray(pack?.items) ? pack.items : []));
  const counted = items.filter(
    (item) =>
      typeof item?.ware_key === 'string' && typeof item.amount === 'number' && typeof item.delivery_amount === 'number',
  ) as Array<{ ware_key: string; amount: number; delivery_amount: number }>;
  if (counted.length === 0 || counted.every((item) => item.delivery_amount >= item.amount)) return null;
  const paid = entity?.delivery_detail?.payment_sum;
  return {
    lines: counted
      .filter((item) => item.delivery_amount > 0)
      .map((item) => ({ vendorCode: item.ware_key, count: Math.min(item.delivery_amount, item.amount) })),
    ...(typeof paid === 'number' && Number.isFinite(paid) ? { collectedKopecks: Math.round(paid * 100) } : {}),
  };
}

/** An order's `entity.statuses[]` (newest first in CDEK's answer) as our events, oldest first; a partial delivery's DELIVERED is 47 with what was bought. */
export function eventsOfOrder(trackNumber: string, body: unknown): TrackingEvent[] {
  const entity = (body as { entity?: CdekOrderEntity } | null)?.entity;
  const statuses = entity?.statuses;
  if (!Array.isArray(statuses)) return [];
  const partial = partialDeliveryOf(entity);
  return statuses
    .map((status) => statusEvent(trackNumber, status?.code, status?.date_time, status?.name))
    .filter((event): event is TrackingEvent => event !== null)
    .map((event) =>
      partial && event.statusCode === 44 && partial.lines.length > 0
        ? { ...event, statusCode: 47, buyout: partial }
        : event,
    )
    .sort((a, b) => a.at.localeCompare(b.at));
}

/** A webhook of type ORDER_STATUS as our event (null: another type, or a status we do not track). */
export function eventOfWebhook(body: unknown): TrackingEvent | null {
  const update = body as {
    type?: unknown;
    attributes?: { cdek_number?: unknown; code?: unknown; status_date_time?: unknown; is_return?: unknown };
  } | null;
  if (update?.type !== 'ORDER_STATUS' || typeof update.attributes?.cdek_number !== 'string') return null;
  return statusEvent(
    update.attributes.cdek_number,
    update.attributes.code,
    update.attributes.status_date_time,
    update.attributes.code,
  );
}

/** The uuids of GET /v2/webhooks's ORDER_STATUS subscriptions to `url` (its answer: an array of `{uuid, type, url}`). */
export function statusWebhookUuids(body: unknown, url: string): string[] {
  if (!Array.isArray(body)) return [];
  return body
    .filter(
      (item: { type?: unknown; url?: unknown; uuid?: unknown } | null) =>
        item?.type === 'ORDER_STATUS' && item.url === url && typeof item.uuid === 'string',
    )
    .map((item: { uuid: string }) => item.uuid);
}

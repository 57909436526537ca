/**
 * CDEK's courier intakes ("Регистрация заявки на вызов курьера"): our pickup request as
 * POST /v2/intakes and its answer's newest status as our pickup state. Apart from mapper.ts
 * because a pickup concerns a warehouse's day of parcels, not an order; mapper.ts re-exports
 * it for the driver.
 */
import type { PickupProgress, PickupRequest } from '../types.js';

/** POST /v2/intakes body: the courier comes to the warehouse within its hours. */
export function intakeRequest(request: PickupRequest): object {
  const address = [request.address.street, request.address.house, request.address.bulk, request.address.flat]
    .filter(Boolean)
    .join(', ');
  return {
    intake_date: request.date,
    intake_time_from: request.hours.from,
    intake_time_to: request.hours.to,
    name: `Отправления (${request.countOrders})`,
    weight: Math.max(1, Math.round(request.weightKg * 1000)),
    from_location: { country_code: request.address.countryCode, city: request.address.city, address },
    sender: { name: request.contact.name, phones: [{ number: request.contact.phone }] },
    ...(request.comment ? { comment: request.comment } : {}),
  };
}

/** GET /v2/intakes/{uuid}: its newest status as our pickup state. */
export function intakeProgress(body: unknown): PickupProgress {
  const statuses =
    (body as { entity?: { statuses?: Array<{ code?: unknown; date_time?: unknown }> } } | null)?.entity?.statuses ?? [];
  const newest = [...statuses].sort((a, b) => String(b?.date_time ?? '').localeCompare(String(a?.date_time ?? '')))[0]
    ?.code;
  if (newest === 'DONE') return { state: 'done' };
  if (newest === 'REMOVED' || newest === 'INVALID' || newest === 'DELAYED')
    return { state: 'canceled', message: `CDEK: ${String(newest)}` };
  return { state: 'scheduled' };
}

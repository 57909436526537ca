/**
 * Yandex Delivery, "other day" B2B platform API: our model <-> its JSON (pure; no I/O).
 *
 * Sources (read, not copied): Yandex Delivery's documentation of the platform API
 * (yandex.com/support/delivery-profile/ru/api/other-day: 1.01 pricing-calculator, 2.02
 * pickup-points/list, 3.01 offers/create, 3.02 offers/confirm, 3.03 request/info (by
 * `request_id` or `request_code`), 3.09 request/history, 3.10 request/cancel, 4.01
 * request/generate-labels, the status model), the C# client restub/YandexDeliverySdk
 * (DataContracts: field names, the status enum, `{code, message}` errors), and the MCP
 * server A1-x-Tech/mcp-yandex-dostavka (which calls are side-effect free). Money is kopecks
 * in requests and "225.7 RUB" strings in answers; weights grams, sides cm.
 */
import {
  DEFAULT_SIDES_CM,
  type CarrierQuote,
  type DeliveryType,
  type ImportedPoint,
  type QuoteRequest,
  type ShipmentRequest,
  type TrackingEvent,
} from '../types.js';

/** Our delivery type -> Yandex's tariff / last-mile policy. */
const POLICY: Record<1 | 2, 'self_pickup' | 'time_interval'> = { 1: 'self_pickup', 2: 'time_interval' };
const TARIFF_NAMES: Record<1 | 2, string> = { 1: 'Яндекс Доставка в пункт выдачи', 2: 'Яндекс Доставка курьером' };

/** Yandex's refusal `{code, message}` as one sentence, or null when the body is not one. */
export function problemOf(body: unknown): string | null {
  const problem = body as { code?: unknown; message?: unknown } | null;
  if (
    !problem ||
    typeof problem !== 'object' ||
    (typeof problem.code !== 'string' && typeof problem.message !== 'string')
  )
    return null;
  const message =
    typeof problem.message === 'string' && problem.message !== '' ? problem.message : String(problem.code);
  return (typeof problem.code === 'string' ? `${message} (${problem.code})` : message).slice(0, 500);
}

/** "225.7 RUB" (or a bare number) as kopecks; null when it is not a price. */
export function kopecksOf(price: unknown): number | null {
  const amount =
    typeof price === 'number'
      ? price
      : typeof price === 'string'
        ? Number(price.trim().split(/\s+/)[0]?.replace(',', '.'))
        : NaN;
  return Number.isFinite(amount) && amount >= 0 ? Math.round(amount * 100) : null;
}

/** A place's `physical_dims`: grams, and dx length, dy height, dz width (the documentation's order) in cm. */
/** `physical_dims`: grams and cm, always with sides (the default cube when unknown), for the quote and the order alike. */
function dimsOf(
  weightGrams: number,
  known: [number, number, number] | null,
): { weight_gross: number; dx: number; dy: number; dz: number } {
  const sides = known ?? DEFAULT_SIDES_CM;
  return {
    weight_gross: Math.max(1, Math.round(weightGrams)),
    dx: Math.ceil(sides[0]),
    dy: Math.ceil(sides[2]),
    dz: Math.ceil(sides[1]),
  };
}

function placesOf(cargo: QuoteRequest['cargo']): Array<{ physical_dims: ReturnType<typeof dimsOf> }> {
  const places = cargo.places.length > 0 ? cargo.places : [{ weightGrams: cargo.weightGrams, sidesCm: null }];
  return places.map((place) => ({ physical_dims: dimsOf(place.weightGrams, place.sidesCm) }));
}

/**
 * POST pricing-calculator body for one delivery type, or null when the type cannot be
 * priced: a courier delivery is priced to the recipient's locality (the calculator knows
 * no street yet), a pickup-point delivery to the point the calculator chose (`pointCode`).
 */
export function pricingRequest(request: QuoteRequest, type: DeliveryType, stationId: string): object | null {
  if (type === 3) return null;
  if (type === 1 && !request.pointCode) return null;
  if (type === 2 && !request.recipient.name) return null;
  return {
    source: { platform_station_id: stationId },
    destination: type === 1 ? { platform_station_id: request.pointCode } : { address: request.recipient.name },
    tariff: POLICY[type],
    total_weight: Math.max(1, Math.round(request.cargo.weightGrams)),
    // the declared value: Yandex prices its share in (an order sends it as `assessed_unit_price`)
    total_assessed_price: Math.max(0, Math.round(request.declaredKopecks ?? 0)),
    // priced as prepaid: the commission on a payment at delivery is added by the calculator (COMMISSION_ON_PAYMENT)
    client_price: 0,
    payment_method: 'already_paid',
    places: placesOf(request.cargo),
  };
}

/**
 * The commission Yandex takes on a payment at delivery (its offers' `pricing_commission_on_delivery_payment`,
 * 2.2% in its documentation); its pricing already holds the assessed value's share.
 */
const COMMISSION_ON_PAYMENT = 2.2;

/** The pricing-calculator answer `{pricing_total, delivery_days}` as a quote of the type asked. */
export function quoteOfPricing(body: unknown, type: 1 | 2): CarrierQuote[] {
  const pricing = body as { pricing_total?: unknown; delivery_days?: unknown } | null;
  const price = kopecksOf(pricing?.pricing_total);
  if (price === null) return [];
  const days = Number(pricing?.delivery_days ?? 0) || 0;
  return [
    {
      type,
      tariffName: TARIFF_NAMES[type],
      priceDeliveryKopecks: price,
      days: { min: days, max: days },
      services:
        type === 1
          ? [
              { id: 4, priceKopecks: 0 },
              { id: 7, priceKopecks: 0 },
            ]
          : [{ id: 4, priceKopecks: 0 }],
      commissions: {
        declared: { percent: 0, minimumKopecks: 0 },
        codCash: { percent: COMMISSION_ON_PAYMENT, minimumKopecks: 0 },
        codCard: { percent: COMMISSION_ON_PAYMENT, minimumKopecks: 0 },
        acquiring: { percent: 0, minimumKopecks: 0 },
      },
    },
  ];
}

/**
 * POST offers/create body. `info.operator_request_id` is our order number (Yandex keeps it
 * unique per client and finds the order by it: request/info `request_code`). One place and
 * one item standing for the order: its price is what the recipient pays at delivery (card
 * only: Yandex takes no cash), its assessed price the declared value.
 */
/**
 * The goods as offers/create's `items` (kopecks per unit: `unit_price` what the recipient pays
 * for one at delivery, else its declared value; `assessed_unit_price` its declared value), all
 * in the one place sent. Yandex refuses two items of one article ("Item's articles must be
 * unique"), so a repeated vendor code gets the line's position appended.
 */
function itemsOf(order: ShipmentRequest, barcode: string): object[] {
  const details = order.details;
  const withCod = order.codKopecks > 0;
  const goods = details?.goods?.length
    ? details.goods
    : [
        {
          name: `Заказ ${details?.number ?? order.orderId}`,
          article: String(order.orderId),
          count: 1,
          codKopecks: order.codKopecks,
          declaredKopecks: order.declaredKopecks,
          weightGrams: null,
          vat: null,
        },
      ];
  const seen = new Set<string>();
  return goods.map((line, index) => {
    const article = seen.has(line.article) ? `${line.article}-${index + 1}` : line.article;
    seen.add(article);
    return {
      count: line.count,
      name: line.name,
      article,
      billing_details: {
        unit_price: withCod ? line.codKopecks : line.declaredKopecks,
        assessed_unit_price: line.declaredKopecks,
      },
      place_barcode: barcode,
    };
  });
}

export function offersRequest(order: ShipmentRequest, stationId: string): object {
  const details = order.details;
  if (!details) throw new Error('Yandex Delivery needs the recipient and the address of the order');
  const [lastName, firstName, patronymic] = details.recipient.fullName.trim().split(/\s+/);
  // the place's barcode is printed as a barcode: ASCII, so our order id rather than the shop's number (often Cyrillic)
  const barcode = `${order.orderId}-1`;
  const withCod = order.codKopecks > 0;
  const address = details.address;
  const street = [address.street, address.house].filter(Boolean).join(', ');
  const fullAddress = [address.city, street].filter(Boolean).join(', ');
  return {
    info: {
      operator_request_id: details.number,
      ...(details.comment ? { comment: details.comment.slice(0, 300) } : {}),
    },
    source: { platform_station: { platform_id: stationId } },
    destination:
      order.type === 1 && details.pointCode
        ? { type: 'platform_station', platform_station: { platform_id: details.pointCode } }
        : {
            type: 'custom_location',
            custom_location: {
              details: {
                full_address: fullAddress,
                locality: address.city,
                ...(address.region ? { region: address.region } : {}),
                ...(address.street ? { street: address.street } : {}),
                ...(address.house ? { house: address.house } : {}),
                ...(address.flat ? { apartment: address.flat } : {}),
                ...(address.postalCode ? { postal_code: address.postalCode } : {}),
              },
            },
          },
    items: itemsOf(order, barcode),
    places: [
      {
        physical_dims: dimsOf(order.cargo.weightGrams, details.sidesCm ?? order.cargo.places[0]?.sidesCm ?? null),
        barcode,
      },
    ],
    // the delivery charge the recipient pays, apart from the goods (kopecks)
    billing_info: {
      payment_method: withCod ? 'card_on_receipt' : 'already_paid',
      delivery_cost: withCod ? (details.deliveryCodKopecks ?? 0) : 0,
    },
    recipient_info: {
      first_name: firstName ?? details.recipient.fullName,
      ...(lastName && firstName ? { last_name: lastName } : {}),
      ...(patronymic ? { patronymic } : {}),
      phone: details.recipient.phone,
      ...(details.recipient.email ? { email: details.recipient.email } : {}),
    },
    last_mile_policy: order.type === 1 ? 'self_pickup' : 'time_interval',
  };
}

/** The offer to confirm: the cheapest of offers/create's answer (the earliest delivery among equals); null when none. */
export function bestOffer(body: unknown): string | null {
  const offers = (body as { offers?: unknown } | null)?.offers;
  if (!Array.isArray(offers)) return null;
  let best: { id: string; price: number; by: string } | null = null;
  for (const offer of offers as Array<{
    offer_id?: unknown;
    offer_details?: { pricing_total?: unknown; delivery_interval?: { min?: unknown } };
  } | null>) {
    if (typeof offer?.offer_id !== 'string' || offer.offer_id === '') continue;
    const price = kopecksOf(offer.offer_details?.pricing_total) ?? Number.MAX_SAFE_INTEGER;
    const by = String(offer.offer_details?.delivery_interval?.min ?? '');
    if (!best || price < best.price || (price === best.price && by < best.by)) best = { id: offer.offer_id, price, by };
  }
  return best?.id ?? null;
}

/** offers/confirm answer `{request_id}`. */
export function confirmedRequestId(body: unknown): string | null {
  const id = (body as { request_id?: unknown } | null)?.request_id;
  return typeof id === 'string' && id !== '' ? id : null;
}

export interface YandexRequestInfo {
  requestId: string;
  /** The recipient's tracking page (`sharing_url`), when Yandex gives one. */
  sharingUrl: string | null;
  status: string | null;
}

/** GET request/info answer. */
export function requestInfo(body: unknown): YandexRequestInfo | null {
  const info = body as { request_id?: unknown; sharing_url?: unknown; state?: { status?: unknown } } | null;
  if (typeof info?.request_id !== 'string' || info.request_id === '') return null;
  return {
    requestId: info.request_id,
    sharingUrl: typeof info.sharing_url === 'string' && info.sharing_url !== '' ? info.sharing_url : null,
    status: typeof info.state?.status === 'string' ? info.state.status : null,
  };
}

/** Whether a refusal says the order number is already taken (a confirmation whose answer was lost). */
export function isDuplicateNumber(message: string): boolean {
  return /already was request with such code/i.test(message);
}

/**
 * The platform's request statuses (status model, `state.status`) to our status codes. The
 * detail statuses before the parcel reaches the sorting centre read as "ready for shipment"
 * (13), like CDEK's CREATED; statuses without a counterpart (FINISHED after a delivery,
 * DRAFT, VALIDATING, code and storage notices) are not events.
 */
export const YANDEX_STATUS: Readonly<Record<string, number>> = {
  CREATED: 13,
  DELIVERY_PROCESSING_STARTED: 13,
  DELIVERY_TRACK_RECIEVED: 13,
  SORTING_CENTER_PROCESSING_STARTED: 13,
  SORTING_CENTER_TRACK_RECEIVED: 13,
  SORTING_CENTER_TRACK_LOADED: 13,
  DELIVERY_LOADED: 13,
  SORTING_CENTER_LOADED: 13,
  SORTING_CENTER_AT_START: 41,
  SORTING_CENTER_PREPARED: 411,
  SORTING_CENTER_TRANSMITTED: 411,
  DELIVERY_AT_START: 411,
  DELIVERY_AT_START_SORT: 411,
  DELIVERY_TRANSPORTATION: 411,
  DELIVERY_ARRIVED: 412,
  DELIVERY_ARRIVED_PICKUP_POINT: 42,
  DELIVERY_TRANSPORTATION_RECIPIENT: 43,
  DELIVERY_TRANSMITTED_TO_RECIPIENT: 44,
  DELIVERY_DELIVERED: 44,
  PARTICULARLY_DELIVERED: 47,
  DELIVERY_ATTEMPT_FAILED: 46,
  DELIVERY_UPDATED_BY_SHOP: 46,
  DELIVERY_UPDATED_BY_RECIPIENT: 46,
  DELIVERY_UPDATED_BY_DELIVERY: 46,
  DELIVERY_STORAGE_PERIOD_EXPIRED: 51,
  RETURN_PREPARING: 51,
  SORTING_CENTER_RETURN_PREPARING: 51,
  SORTING_CENTER_RETURN_PREPARING_SENDER: 51,
  SORTING_CENTER_RETURN_ARRIVED: 61,
  RETURN_TRANSPORTATION_STARTED: 71,
  RETURN_ARRIVED_DELIVERY: 71,
  RETURN_TRANSMITTED_FULFILMENT: 71,
  RETURN_READY_FOR_PICKUP: 62,
  RETURN_RETURNED: 72,
  SORTING_CENTER_RETURN_RETURNED: 72,
  CANCELLED: 10,
  CANCELLED_USER: 10,
  CANCELLED_IN_PLATFORM: 10,
  CANCELED_IN_PLATFORM: 10,
  SORTING_CENTER_CANCELLED: 10,
  CANCELLED_BY_RECIPIENT: 461,
};

/** Cancel reasons that mean the recipient refused, not the shop. */
const RECIPIENT_REASONS = new Set(['USER_CHANGED_MIND', 'CLIENT_REQUEST']);

export function statusCodeOf(status: string, reason?: unknown): number | null {
  const code = YANDEX_STATUS[status];
  if (code === undefined) return null;
  return code === 10 && typeof reason === 'string' && RECIPIENT_REASONS.has(reason) ? 461 : code;
}

function momentOf(utc: unknown, unix: unknown): string {
  if (typeof utc === 'string' && !Number.isNaN(Date.parse(utc))) return new Date(utc).toISOString();
  if (typeof unix === 'number' && Number.isFinite(unix)) return new Date(unix * 1000).toISOString();
  return new Date().toISOString();
}

/** GET request/history `{state_history: [{status, description, timestamp, timestamp_utc, reason}]}` as our events, oldest first. */
export function eventsOfHistory(trackNumber: string, body: unknown): TrackingEvent[] {
  const history = (body as { state_history?: unknown } | null)?.state_history;
  if (!Array.isArray(history)) return [];
  const events: TrackingEvent[] = [];
  for (const state of history as Array<{
    status?: unknown;
    description?: unknown;
    timestamp?: unknown;
    timestamp_utc?: unknown;
    reason?: unknown;
  } | null>) {
    if (typeof state?.status !== 'string') continue;
    const statusCode = statusCodeOf(state.status, state.reason);
    if (statusCode === null) continue;
    events.push({
      trackNumber,
      statusCode,
      at: momentOf(state.timestamp_utc, state.timestamp),
      description: typeof state.description === 'string' && state.description !== '' ? state.description : state.status,
    });
  }
  return events.sort((a, b) => a.at.localeCompare(b.at));
}

/** request/cancel answer `{status: CREATED | SUCCESS | ERROR, reason, description}`: the refusal's text, or null when accepted. */
export function cancelRefusal(body: unknown): string | null {
  const answer = body as { status?: unknown; reason?: unknown; description?: unknown } | null;
  if (answer?.status !== 'ERROR') return null;
  return (
    [answer.description, answer.reason].filter((part) => typeof part === 'string' && part !== '').join(' ') ||
    'Yandex Delivery did not cancel the order.'
  );
}

const COUNTRY_CODES: Readonly<Record<string, string>> = {
  Россия: 'RU',
  Беларусь: 'BY',
  Казахстан: 'KZ',
  Армения: 'AM',
  Кыргызстан: 'KG',
  Узбекистан: 'UZ',
};

function clock(time: unknown, fallback: string): string {
  const value = time as { hours?: unknown; minutes?: unknown } | null;
  if (typeof value?.hours !== 'number') return fallback;
  return `${String(value.hours).padStart(2, '0')}:${String(typeof value.minutes === 'number' ? value.minutes : 0).padStart(2, '0')}`;
}

/** A point's `schedule.restrictions` (`days` 1 Monday .. 7 Sunday) as seven days, Monday first; an open end is midnight. */
export function scheduleOf(schedule: unknown): ImportedPoint['schedule'] {
  const week: ImportedPoint['schedule'] = Array.from({ length: 7 }, () => null);
  const restrictions = (schedule as { restrictions?: unknown } | null)?.restrictions;
  for (const rule of Array.isArray(restrictions)
    ? (restrictions as Array<{ days?: unknown; time_from?: unknown; time_to?: unknown } | null>)
    : []) {
    if (!Array.isArray(rule?.days)) continue;
    const hours = { from: clock(rule.time_from, '00:00'), to: clock(rule.time_to, '24:00') };
    for (const day of rule.days) if (typeof day === 'number' && day >= 1 && day <= 7) week[day - 1] = hours;
  }
  return week;
}

/**
 * pickup-points/list `points[]` as imported points: pickup points (1) and lockers
 * (`terminal`, 2); drop-off warehouses and points already deactivated are not ours to
 * offer. Yandex takes no cash at its points (`payment_methods` knows only prepaid and card
 * at receipt); its directory gives no weight limit (the card's apply).
 */
export function pointsOf(body: unknown, now = new Date()): ImportedPoint[] {
  const list = (body as { points?: unknown } | null)?.points;
  if (!Array.isArray(list)) return [];
  const points: ImportedPoint[] = [];
  for (const item of list as Array<Record<string, unknown> | null>) {
    const position = item?.position as { latitude?: unknown; longitude?: unknown } | undefined;
    const address = (item?.address ?? {}) as {
      country?: unknown;
      locality?: unknown;
      postal_code?: unknown;
      full_address?: unknown;
      street?: unknown;
      house?: unknown;
      comment?: unknown;
    };
    if (!item || typeof item.id !== 'string' || (item.type !== 'pickup_point' && item.type !== 'terminal')) continue;
    if (
      typeof position?.latitude !== 'number' ||
      typeof position.longitude !== 'number' ||
      typeof address.locality !== 'string'
    )
      continue;
    const deactivation = typeof item.deactivation_date === 'string' ? Date.parse(item.deactivation_date) : NaN;
    if (!Number.isNaN(deactivation) && deactivation <= now.getTime()) continue;
    const methods = Array.isArray(item.payment_methods) ? item.payment_methods : [];
    const services = (item.pickup_services ?? {}) as { is_fitting_allowed?: unknown };
    const instruction =
      typeof item.instruction === 'string' && item.instruction !== ''
        ? item.instruction
        : typeof address.comment === 'string' && address.comment !== ''
          ? address.comment
          : null;
    points.push({
      code: item.id,
      type: item.type === 'terminal' ? 2 : 1,
      name: typeof item.name === 'string' ? item.name : item.id,
      countryCode: typeof address.country === 'string' ? (COUNTRY_CODES[address.country] ?? address.country) : 'RU',
      city: address.locality,
      postalCode: typeof address.postal_code === 'string' && address.postal_code !== '' ? address.postal_code : null,
      address:
        typeof address.full_address === 'string'
          ? address.full_address
          : [address.street, address.house].filter((part) => typeof part === 'string').join(', '),
      latitude: position.latitude,
      longitude: position.longitude,
      schedule: scheduleOf(item.schedule),
      cashPaymentAvailable: false,
      cardPaymentAvailable: methods.includes('card_on_receipt') || methods.includes('postpay'),
      fittingAvailable: services.is_fitting_allowed === true,
      maxWeightGrams: null,
      description: instruction,
    });
  }
  return points;
}

/**
 * Boxberry (api.boxberry.ru/json.php): our model <-> Boxberry's JSON (pure; no I/O).
 *
 * Sources (read, not copied): Boxberry's API documentation for shops ("web-сервисы Boxberry",
 * methods DeliveryCosts, ParselCreate, ParselDel, ParselCheck, ListStatuses, ListPoints,
 * ChangeOrderStorageDate, OrdersBalance, ParcelInfo), gwinn/boxberry-sdk (its request
 * models src/Model/Request/CreateOrder/ParcelCreateRequest.php and …/Items.php, and its
 * fixtures tests/Requests/parcelCreate.json, tests/Response/{parcelInfo,listStatuses}.json),
 * and alexbxb723/boxberry_api (request names, `sdata` JSON of ParselCreate). Errors come as
 * `{"err": "..."}` (or `[{"err": "..."}]`) with HTTP 200.
 */
import {
  DEFAULT_SIDES_CM,
  type CarrierQuote,
  type ImportedPoint,
  type QuoteRequest,
  type ShipmentRequest,
  type TrackingEvent,
} from '../types.js';
import { moscowTime } from '../geo.js';

/** Boxberry's refusal text of an answer, or null when it is not one. */
export function errorOf(body: unknown): string | null {
  const first = Array.isArray(body) ? body[0] : body;
  const err = first && typeof first === 'object' ? (first as { err?: unknown }).err : undefined;
  return typeof err === 'string' && err !== ''
    ? err.slice(0, 500)
    : err === true
      ? 'Boxberry refused the request.'
      : null;
}

/** Where DeliveryCosts prices to: a pickup point by its code (`target`), or a courier delivery by the recipient's postal code (`zip`). */
export type CostsDestination = { type: 1; target: string } | { type: 2; zip: string };

/**
 * Query of DeliveryCosts: weight in grams, sides in cm, sums in roubles: `ordersum` the
 * declared value (Boxberry's insurance fee), `paysum` what the recipient pays on delivery
 * (its COD fee).
 */
export function deliveryCostsQuery(
  request: QuoteRequest,
  destination: CostsDestination,
  declaredRoubles: number,
  codRoubles: number,
): Record<string, string> {
  // the sides registration sends (the default cube when unknown), so the price is the parcel's
  const sides = request.cargo.places[0]?.sidesCm ?? DEFAULT_SIDES_CM;
  return {
    weight: String(Math.max(1, Math.round(request.cargo.weightGrams))),
    ...(destination.type === 1 ? { target: destination.target } : { zip: destination.zip }),
    ordersum: String(declaredRoubles),
    paysum: String(codRoubles),
    depth: String(Math.ceil(sides[0])),
    width: String(Math.ceil(sides[1])),
    height: String(Math.ceil(sides[2])),
  };
}

const TARIFF_NAMES: Record<CostsDestination['type'], string> = {
  1: 'Boxberry Пункт выдачи',
  2: 'Boxberry Курьерская доставка',
};

/** The sums of a quote request as DeliveryCosts takes them (roubles). */
export function costsSums(request: QuoteRequest): { declaredRoubles: number; codRoubles: number } {
  return {
    declaredRoubles: Math.max(0, request.declaredKopecks ?? 0) / 100,
    codRoubles: Math.max(0, request.codKopecks ?? 0) / 100,
  };
}

/**
 * DeliveryCosts answer `{price, price_base, price_service, delivery_period}` as a quote of the
 * destination's type. `price` is Boxberry's whole price for the sums asked: its base price
 * and `price_service`, its own fees for the declared value and the COD, which it does not
 * split; so `price` is the delivery price and no commission of ours is added on top.
 */
export function quoteOfCosts(body: unknown, type: CostsDestination['type']): CarrierQuote[] {
  const costs = body as { price?: unknown; delivery_period?: unknown } | null;
  const price = typeof costs?.price === 'string' ? Number(costs.price) : costs?.price;
  if (typeof price !== 'number' || !(price >= 0)) return [];
  const days = Number(costs?.delivery_period ?? 0) || 0;
  return [
    {
      type,
      tariffName: TARIFF_NAMES[type],
      priceDeliveryKopecks: Math.round(price * 100),
      days: { min: days, max: days },
      services: [{ id: 4, priceKopecks: 0 }],
      commissions: {
        declared: { percent: 0, minimumKopecks: 0 },
        codCash: { percent: 0, minimumKopecks: 0 },
        codCard: { percent: 0, minimumKopecks: 0 },
        acquiring: { percent: 0, minimumKopecks: 0 },
      },
    },
  ];
}

const money = (kopecks: number) => (Math.round(kopecks) / 100).toFixed(2);

/**
 * `weights` of ParselCreate: one block per place, the first `weight`/`x`/`y`/`z`, the next
 * `weight2`/`x2`… (grams, cm; strings), as the SDK's fixture tests/Requests/parcelCreate.json.
 */
export function weightsOf(order: ShipmentRequest): Record<string, string> {
  const sides = order.details?.sidesCm ?? null;
  const places =
    order.cargo.places.length > 0 ? order.cargo.places : [{ weightGrams: order.cargo.weightGrams, sidesCm: sides }];
  const weights: Record<string, string> = {};
  places.forEach((place, index) => {
    const suffix = index === 0 ? '' : String(index + 1);
    const [x, y, z] = place.sidesCm ?? sides ?? DEFAULT_SIDES_CM;
    const grams = place.weightGrams > 0 ? place.weightGrams : order.cargo.weightGrams / places.length;
    Object.assign(weights, {
      [`weight${suffix}`]: String(Math.max(1, Math.round(grams))),
      [`x${suffix}`]: String(Math.ceil(x)),
      [`y${suffix}`]: String(Math.ceil(y)),
      [`z${suffix}`]: String(Math.ceil(z)),
    });
  });
  return weights;
}

/**
 * `sdata` of ParselCreate. `order_id` is the shop's number (Boxberry takes any text: its
 * SDK's fixture sends "Тестовый заказ 666"); Boxberry refuses a number it already has (an
 * update is `updateByTrack`), so the driver looks a refused number up (ParcelInfo).
 * `payment_sum` is what the recipient pays: the goods (`items`, per unit) and the delivery
 * charge (`delivery_sum`). `vid` 1 pickup point, 2 courier.
 */
export function parcelData(order: ShipmentRequest): object {
  const details = order.details;
  if (!details) throw new Error('Boxberry needs the recipient and the address of the order');
  const address = [
    details.address.street,
    details.address.house,
    details.address.flat ? `кв. ${details.address.flat}` : null,
  ]
    .filter(Boolean)
    .join(', ');
  return {
    order_id: details.number,
    price: money(order.declaredKopecks),
    payment_sum: money(order.codKopecks),
    delivery_sum: money(details.deliveryCodKopecks ?? 0),
    vid: order.type === 1 ? '1' : '2',
    ...(order.type === 1
      ? {}
      : {
          kurdost: {
            index: details.address.postalCode ?? '',
            citi: details.address.city,
            addressp: address,
            comentk: details.comment ?? '',
          },
        }),
    shop: { name: order.type === 1 ? (details.pointCode ?? '') : '', name1: '' },
    customer: { fio: details.recipient.fullName, phone: details.recipient.phone, email: details.recipient.email ?? '' },
    items: (details.goods ?? []).map((line) => ({
      id: line.article,
      name: line.name,
      UnitName: 'шт.',
      // "без НДС" is -1; a VAT not given is left out (the SDK's Items.php)
      ...(line.vat !== null ? { nds: String(line.vat) } : {}),
      // per unit, roubles without trailing zeros, as the SDK's fixture writes them ("1750", "100")
      price: String(Math.round(line.codKopecks) / 100),
      quantity: String(line.count),
    })),
    ...(details.comment ? { notice: details.comment.slice(0, 100) } : {}),
    weights: weightsOf(order),
  };
}

/** ParcelInfo's parcel of an order number (`[{order_id, track_number, …}]`), or null when Boxberry has none. */
export function parcelOfInfo(body: unknown, orderId: string): { track: string } | null {
  if (!Array.isArray(body)) return null;
  const found = (body as Array<{ order_id?: unknown; track_number?: unknown } | null>).find(
    (item) => item?.order_id === orderId && typeof item.track_number === 'string' && item.track_number !== '',
  );
  return found ? { track: found.track_number as string } : null;
}

/** ParselCreate answer `{track, label}`; null without a track. */
export function createdParcel(body: unknown): { track: string; label: string | null } | null {
  const parcel = body as { track?: unknown; label?: unknown } | null;
  if (typeof parcel?.track !== 'string' || parcel.track === '') return null;
  return { track: parcel.track, label: typeof parcel.label === 'string' && parcel.label !== '' ? parcel.label : null };
}

/** Boxberry's refusal of an order number it already has (ParselCreate without updateByTrack). */
export const NUMBER_TAKEN = /уже (существует|используется|занят)|already (exists|used)/i;

/** Boxberry's status names (ListStatuses `Name`) to our codes; compared lower-cased. */
const STATUS_BY_NAME: ReadonlyArray<[RegExp, number]> = [
  [/^загружен реестр им|^создан/, 13],
  [/^принято к доставке|^принят к доставке|^принято на склад/, 41],
  [/^передан на доставку до пункта выдачи|^отправлен на сортировочный|^в пути|^передано в сортировку/, 411],
  [/^поступило в пункт выдачи|^поступило в пвз|^готов к выдаче/, 42],
  [/^передано на курьерскую доставку|^выдано курьеру/, 43],
  [/^выдано|^доставлено|^вручено/, 44],
  [/^возвращено с курьерской доставки|^готовится к возврату/, 51],
  [/^отправлено в им|^возврат в пути/, 71],
  [/^возвращено в им/, 72],
];

export function statusOfName(name: string): number | null {
  const lower = name.trim().toLowerCase();
  for (const [pattern, code] of STATUS_BY_NAME) if (pattern.test(lower)) return code;
  return null;
}

/** ListStatuses answer `[{Date, Name, Comment}]` as our events (oldest first). */
export function eventsOfStatuses(trackNumber: string, body: unknown): TrackingEvent[] {
  if (!Array.isArray(body)) return [];
  const events: TrackingEvent[] = [];
  for (const item of body as Array<{ Date?: unknown; Name?: unknown; Comment?: unknown } | null>) {
    if (typeof item?.Name !== 'string') continue;
    const statusCode = statusOfName(item.Name);
    if (statusCode === null) continue;
    // Boxberry writes its status times in Moscow time without an offset ("2020-12-26 12:23:26")
    const at =
      typeof item.Date === 'string' ? (moscowTime(item.Date) ?? new Date().toISOString()) : new Date().toISOString();
    events.push({ trackNumber, statusCode, at, description: item.Name });
  }
  return events.sort((a, b) => a.at.localeCompare(b.at));
}

const WEEKDAYS = ['пн', 'вт', 'ср', 'чт', 'пт', 'сб', 'вс'];

/** "пн-пт: 10.00-20.00, сб-вс: 10.00-16.00" -> seven days, Monday first (null: closed). */
export function scheduleOf(text: string): ImportedPoint['schedule'] {
  const schedule: ImportedPoint['schedule'] = Array.from({ length: 7 }, () => null);
  for (const part of text.toLowerCase().split(/[,;]/)) {
    const match =
      /(пн|вт|ср|чт|пт|сб|вс)(?:\s*-\s*(пн|вт|ср|чт|пт|сб|вс))?\s*:?\s*(\d{1,2})[.:](\d\d)\s*-\s*(\d{1,2})[.:](\d\d)/.exec(
        part,
      );
    if (!match) continue;
    const first = WEEKDAYS.indexOf(match[1]);
    const last = match[2] ? WEEKDAYS.indexOf(match[2]) : first;
    for (let day = first; day <= last; day++)
      schedule[day] = {
        from: `${match[3].padStart(2, '0')}:${match[4]}`,
        to: `${match[5].padStart(2, '0')}:${match[6]}`,
      };
  }
  return schedule;
}

/** ListPoints items as imported points (all Boxberry points are pickup points; lockers say so in their name). */
export function pointsOf(body: unknown): ImportedPoint[] {
  if (!Array.isArray(body)) return [];
  const points: ImportedPoint[] = [];
  for (const item of body as Array<Record<string, unknown> | null>) {
    const gps = typeof item?.GPS === 'string' ? item.GPS.split(',').map(Number) : [];
    if (
      !item ||
      typeof item.Code !== 'string' ||
      gps.length !== 2 ||
      gps.some((value) => !Number.isFinite(value)) ||
      typeof item.CityName !== 'string'
    )
      continue;
    const name = typeof item.Name === 'string' ? item.Name : item.Code;
    points.push({
      code: item.Code,
      type: /постамат/i.test(name) ? 2 : 1,
      name,
      countryCode: 'RU',
      city: item.CityName,
      postalCode: typeof item.PostCode === 'string' && item.PostCode !== '' ? item.PostCode : null,
      address:
        typeof item.AddressReduce === 'string'
          ? item.AddressReduce
          : typeof item.Address === 'string'
            ? item.Address
            : '',
      latitude: gps[0],
      longitude: gps[1],
      schedule: scheduleOf(typeof item.WorkShedule === 'string' ? item.WorkShedule : ''),
      cashPaymentAvailable: item.OnlyPrepaidOrders !== 'Yes',
      cardPaymentAvailable: item.Acquiring === 'Yes',
      fittingAvailable: item.ReceptionLaP === 'Yes' || item.Fitting === 'Yes',
      maxWeightGrams:
        Number.isFinite(Number(item.LoadLimit)) && Number(item.LoadLimit) > 0
          ? Math.round(Number(item.LoadLimit) * 1000)
          : null,
      description:
        typeof item.TripDescription === 'string' && item.TripDescription !== '' ? item.TripDescription : null,
    });
  }
  return points;
}

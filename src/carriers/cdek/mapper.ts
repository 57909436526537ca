/**
 * CDEK API v2: our model <-> CDEK's JSON (pure; no I/O).
 *
 * Sources (read, not copied): CDEK's API v2 documentation (api-docs.cdek.ru: "Калькулятор.
 * Расчет по всем доступным тарифам", "Регистрация заказа", "Информация о заказе",
 * "Удаление заказа", "Формирование ШК места к заказу", "Регистрация заявки на вызов курьера",
 * "Список офисов", "Подписка на вебхуки"), the community TypeScript client
 * shevernitskiy/cdek (src/types/api/{request,response,webhook}.ts: field names, status codes),
 * and Karrio's CDEK-like connectors for the mapper/proxy split.
 *
 * This file holds quoting and order registration, the requests that carry an order to CDEK.
 * What CDEK answers later (statuses and webhooks), courier intakes and the points directory are
 * in statuses.ts, intakes.ts and points.ts, re-exported here: the driver reads them all as
 * `mapper.*`.
 */
import {
  DEFAULT_SIDES_CM,
  type CarrierQuote,
  type CommissionRule,
  type DeliveryType,
  type QuoteRequest,
  type ShipmentAddress,
  type ShipmentRequest,
} from '../types.js';

export { intakeProgress, intakeRequest } from './intakes.js';
export { pointsOf } from './points.js';
export { CDEK_STATUS, eventOfWebhook, eventsOfOrder, statusWebhookUuids } from './statuses.js';

/**
 * CDEK's delivery_mode: 1 door-door, 2 door-office, 3 office-door, 4 office-office, 6 door-locker,
 * 7 office-locker, 8 locker-locker, 9 locker-office, 10 locker-door. Only the modes from the
 * sender's door are quoted and registered: an order is registered with the sender's address
 * (`from_location`, and CDEK's courier comes by an intake), while CDEK takes a tariff from an
 * office or locker only with the office the shop hands in at (`shipment_point`), which a
 * contract does not name yet. Quoting those would offer a price no registration can keep.
 */
const MODE_TO_TYPE: Record<number, DeliveryType> = { 1: 2, 2: 1, 6: 1 };
/** The door modes of type 1 by the kind of point: 2 a pickup point (office), 6 a parcel locker. */
const POINT_MODE = { office: 2, locker: 6 } as const;

export interface CdekLocation {
  code?: number;
  postal_code?: string;
  country_code?: string;
  city?: string;
  address?: string;
  latitude?: number;
  longitude?: number;
}

export interface CdekPackage {
  number?: string;
  weight: number;
  length?: number;
  width?: number;
  height?: number;
  items?: Array<{
    name: string;
    ware_key: string;
    payment: { value: number };
    cost: number;
    weight: number;
    amount: number;
  }>;
}

export interface CdekTariff {
  tariff_code: number;
  tariff_name?: string;
  delivery_mode: number;
  delivery_sum: number;
  period_min: number;
  period_max: number;
}

export interface CdekProblem {
  code: string;
  message: string;
}

/** Every `errors[]` of an answer: top-level and of each `requests[]` entry. */
export function problemsOf(body: unknown): CdekProblem[] {
  if (!body || typeof body !== 'object') return [];
  const record = body as { errors?: unknown; requests?: Array<{ errors?: unknown }> };
  const list = [
    ...(Array.isArray(record.errors) ? record.errors : []),
    ...(Array.isArray(record.requests)
      ? record.requests.flatMap((request) => (Array.isArray(request?.errors) ? request.errors : []))
      : []),
  ];
  return list
    .filter((item): item is CdekProblem => !!item && typeof item.code === 'string')
    .map((item) => ({ code: item.code, message: typeof item.message === 'string' ? item.message : item.code }));
}

export function problemText(problems: CdekProblem[]): string {
  return problems
    .map((problem) => `${problem.message} (${problem.code})`)
    .join('; ')
    .slice(0, 500);
}

function location(place: {
  postalCode?: string | null;
  name?: string;
  countryCode?: string;
  latitude: number;
  longitude: number;
}): CdekLocation {
  const found: CdekLocation = { country_code: place.countryCode ?? 'RU' };
  if (place.postalCode) found.postal_code = place.postalCode;
  if (place.name) found.city = place.name;
  if (!place.postalCode && !place.name) {
    found.latitude = place.latitude;
    found.longitude = place.longitude;
  }
  return found;
}

/** Our places as CDEK packages (grams, whole cm): the cargo's places, else one place of the whole weight. */
function packagesOf(
  cargo: QuoteRequest['cargo'],
  sidesCm: [number, number, number] | null = null,
): Array<Required<Pick<CdekPackage, 'weight' | 'length' | 'width' | 'height'>>> {
  const places = cargo.places.length > 0 ? cargo.places : [{ weightGrams: cargo.weightGrams, sidesCm }];
  const total = places.reduce((sum, place) => sum + place.weightGrams, 0);
  return places.map((place, index) => {
    const sides = place.sidesCm ?? sidesCm ?? DEFAULT_SIDES_CM;
    // places without a weight of their own share what is left of the cargo's
    const grams =
      place.weightGrams > 0
        ? place.weightGrams
        : Math.max(0, cargo.weightGrams - total) / places.filter((item) => item.weightGrams <= 0).length;
    return {
      weight: Math.max(1, Math.round(index === 0 && total <= 0 ? cargo.weightGrams : grams)),
      length: Math.max(1, Math.ceil(sides[0])),
      width: Math.max(1, Math.ceil(sides[1])),
      height: Math.max(1, Math.ceil(sides[2])),
    };
  });
}

/** What both calculator calls take. `type` 1 is the online shop's contract (2 would be delivery). */
function calculatorBody(request: QuoteRequest) {
  return {
    type: 1,
    currency: 1,
    from_location: location(request.sender),
    to_location: location(request.recipient),
    packages: packagesOf(request.cargo),
  };
}

/** The calculator request of a registration: the same route, places and sizes the order is registered with. */
export function quoteOfShipment(order: ShipmentRequest): QuoteRequest {
  const place = (address: ShipmentAddress | null | undefined): QuoteRequest['sender'] => ({
    latitude: 0,
    longitude: 0,
    regionCode: '',
    localityId: 0,
    population: 0,
    name: address?.city,
    postalCode: address?.postalCode,
    countryCode: address?.countryCode,
  });
  const cargo =
    order.cargo.places.length > 0 || !order.details?.sidesCm
      ? order.cargo
      : { ...order.cargo, places: [{ weightGrams: order.cargo.weightGrams, sidesCm: order.details.sidesCm }] };
  return {
    types: [order.type],
    sender: place(order.details?.sender.address),
    recipient: place(order.details?.address),
    distanceKm: 0,
    cargo,
    priceMode: 1,
  };
}

/** POST /v2/calculator/tarifflist body. */
export function tariffListRequest(request: QuoteRequest): object {
  return { ...calculatorBody(request), lang: 'rus' };
}

function tariffsOf(body: unknown): CdekTariff[] {
  const list =
    body && typeof body === 'object' && Array.isArray((body as { tariff_codes?: unknown }).tariff_codes)
      ? (body as { tariff_codes: CdekTariff[] }).tariff_codes
      : [];
  return list.filter(
    (tariff) =>
      !!tariff &&
      MODE_TO_TYPE[tariff.delivery_mode] !== undefined &&
      typeof tariff.delivery_sum === 'number' &&
      tariff.delivery_sum >= 0,
  );
}

/** The CDEK mode of a pickup point of our type (2 a parcel locker, else an office). */
function pointMode(pointType: number): number {
  return pointType === 2 ? POINT_MODE.locker : POINT_MODE.office;
}

function cheapest(list: CdekTariff[]): CdekTariff | undefined {
  return [...list].sort((a, b) => a.delivery_sum - b.delivery_sum)[0];
}

/**
 * What each delivery type asked is quoted with: the cheapest tariff of its modes. To pickup
 * points, an office and a locker have their own tariffs (modes 2 and 6, priced differently):
 * `office` and `locker` hold both, and `pointType` (the point an order chose) keeps its kind only.
 */
export interface ChosenTariffs {
  byType: Map<DeliveryType, CdekTariff>;
  /** Type 1 by the kind of point, when CDEK lists it. */
  office?: CdekTariff;
  locker?: CdekTariff;
}

export function chosenTariffs(body: unknown, asked: DeliveryType[], pointType?: number): ChosenTariffs {
  const list = tariffsOf(body);
  const chosen: ChosenTariffs = { byType: new Map() };
  for (const type of asked) {
    if (type !== 1) {
      const best = cheapest(list.filter((tariff) => MODE_TO_TYPE[tariff.delivery_mode] === type));
      if (best) chosen.byType.set(type, best);
      continue;
    }
    chosen.office =
      pointType === undefined || pointMode(pointType) === POINT_MODE.office
        ? cheapest(list.filter((tariff) => tariff.delivery_mode === POINT_MODE.office))
        : undefined;
    chosen.locker =
      pointType === undefined || pointMode(pointType) === POINT_MODE.locker
        ? cheapest(list.filter((tariff) => tariff.delivery_mode === POINT_MODE.locker))
        : undefined;
    // an office's tariff stands for the type (lockers priced by their factor); without one, the locker's
    const base = chosen.office ?? chosen.locker;
    if (base) chosen.byType.set(1, base);
  }
  return chosen;
}

/**
 * The tariffs whose insurance CDEK is asked to price: one per type. A locker's tariff is not
 * asked apart: CDEK's insurance is its contract's percent of the declared value, the same
 * on either tariff; an order to a locker (`pointType` 2) quotes the locker's as its type's.
 */
export function tariffsToPrice(chosen: ChosenTariffs): CdekTariff[] {
  return [...chosen.byType.values()];
}

/**
 * POST /v2/calculator/tariff body: one tariff, with CDEK's insurance priced by CDEK
 * (service INSURANCE, `parameter` the declared value in roubles). The tariff list answers
 * no per-service sums; this calculation does (`services[]`).
 */
export function tariffRequest(request: QuoteRequest, tariffCode: number): object {
  return {
    ...calculatorBody(request),
    tariff_code: tariffCode,
    services: [{ code: 'INSURANCE', parameter: String(Math.max(0, request.declaredKopecks ?? 0) / 100) }],
  };
}

/** CDEK's insurance sum in a /v2/calculator/tariff answer (its `total_sum`, else `sum`), kopecks; 0 when it lists none. */
export function insuranceKopecksOf(body: unknown): number {
  const services = (body as { services?: unknown } | null)?.services;
  if (!Array.isArray(services)) return 0;
  let roubles = 0;
  for (const service of services as Array<{ code?: unknown; sum?: unknown; total_sum?: unknown } | null>) {
    if (service?.code !== 'INSURANCE') continue;
    const sum = typeof service.total_sum === 'number' ? service.total_sum : service.sum;
    if (typeof sum === 'number' && sum > 0) roubles += sum;
  }
  return Math.round(roubles * 100);
}

/** What CDEK's calculator said the insurance of the declared value costs, per tariff code. */
export interface CdekInsurance {
  declaredKopecks: number;
  byTariff: Map<number, number>;
}

/**
 * CDEK's tariffs as our quotes: per delivery type asked, the cheapest tariff; its roubles
 * become kopecks, its working days ours. Insurance as CDEK priced it for the declared value
 * (a percent of it, which gives CDEK's sum back for this order); without a declared value,
 * CDEK's public rate (0.75% of nothing). Cash on delivery at CDEK's public rate (3%): its
 * calculator prices no COD fee (the contract's is billed by CDEK after delivery).
 */
export function quotesFromTariffs(chosen: ChosenTariffs, insurance?: CdekInsurance): CarrierQuote[] {
  return [...chosen.byType.entries()].map(([type, tariff]) => ({
    type,
    tariffName: tariff.tariff_name ?? `CDEK ${tariff.tariff_code}`,
    priceDeliveryKopecks: Math.round(tariff.delivery_sum * 100),
    days: { min: tariff.period_min ?? 0, max: Math.max(tariff.period_min ?? 0, tariff.period_max ?? 0) },
    // CDEK prices fitting, inspection and partial buyout only when the order is made: offered at 0
    services:
      type === 1
        ? [
            { id: 4, priceKopecks: 0 },
            { id: 6, priceKopecks: 0 },
            { id: 7, priceKopecks: 0 },
          ]
        : [{ id: 4, priceKopecks: 0 }],
    commissions: {
      declared: declaredRule(tariff.tariff_code, insurance),
      codCash: { percent: 3, minimumKopecks: 0 },
      codCard: { percent: 3, minimumKopecks: 0 },
      acquiring: { percent: 0, minimumKopecks: 0 },
    },
    // lockers (our point type 2) at their own tariff's price: the quote's factor gives it back to the kopeck
    ...(type === 1 && chosen.office && chosen.locker && chosen.office.delivery_sum > 0
      ? { pointPriceFactors: { 2: chosen.locker.delivery_sum / chosen.office.delivery_sum } }
      : {}),
  }));
}

function declaredRule(tariffCode: number, insurance: CdekInsurance | undefined): CommissionRule {
  const kopecks = insurance?.byTariff.get(tariffCode);
  if (!insurance || kopecks === undefined || insurance.declaredKopecks <= 0)
    return { percent: 0.75, minimumKopecks: 0 };
  // six decimals: shown as a percent, and still CDEK's sum to the kopeck below ~10 million roubles
  return { percent: Math.round((kopecks * 1e8) / insurance.declaredKopecks) / 1e6, minimumKopecks: 0 };
}

/**
 * The tariff registration uses: the one the order was priced with (by its name, among the
 * tariffs of its type and, to a point, of the point's kind), so the order is registered with
 * the tariff and price it shows; else (a tariff CDEK no longer lists on the route) the
 * cheapest of that type and kind. `pointType` is our point type (2 a parcel locker); null: unknown.
 */
export function tariffCodeFor(
  body: unknown,
  type: DeliveryType,
  pointType: number | null = null,
  tariffName: string | null = null,
): number | null {
  const ours = tariffsOf(body).filter(
    (tariff) =>
      MODE_TO_TYPE[tariff.delivery_mode] === type &&
      (type !== 1 || pointType === null || tariff.delivery_mode === pointMode(pointType)),
  );
  const named = tariffName === null ? undefined : ours.find((tariff) => tariff.tariff_name === tariffName);
  return (named ?? cheapest(ours))?.tariff_code ?? null;
}

function addressLine(address: ShipmentAddress): string {
  return [address.street, address.house, address.flat ? `кв. ${address.flat}` : null].filter(Boolean).join(', ');
}

/**
 * CDEK's `number` takes ASCII only, up to 40 characters ("Регистрация заказа": "может
 * содержать только цифры, буквы латинского алфавита или спецсимволы"): our order id always
 * is, a shop's number often is not (Cyrillic), so ours goes as `number` (and is what a retry
 * looks up by `im_number`) and the shop's is written in the comment.
 */
export function cdekNumberOf(order: ShipmentRequest): string {
  return String(order.orderId);
}

const roubles = (kopecks: number) => Math.round(kopecks) / 100;

/**
 * POST /v2/orders body ("Регистрация заказа"). Amounts in roubles: each item's `payment` is
 * what the recipient pays for one unit on delivery (0 when prepaid) and `cost` its declared
 * value, `delivery_recipient_cost` the delivery charge the recipient pays, so the COD receipt
 * CDEK prints lists the goods and the delivery as they are. Every package has its sizes.
 */
export function orderRequest(order: ShipmentRequest, tariffCode: number): object {
  const details = order.details;
  if (!details) throw new Error('CDEK needs the recipient and the address of the order');
  const packages = packagesOf(order.cargo, details.sidesCm);
  const goods = details.goods ?? [];
  const known = goods.reduce((sum, line) => sum + (line.weightGrams ?? 0) * line.count, 0);
  const units = goods.reduce((sum, line) => sum + (line.weightGrams === null ? line.count : 0), 0);
  // goods without a weight share what the packages weigh beyond the goods that have one
  const unknownUnitGrams =
    units > 0 ? Math.max(1, Math.floor((packages.reduce((sum, item) => sum + item.weight, 0) - known) / units)) : 0;
  const shopNumber = details.number !== cdekNumberOf(order) ? `Заказ магазина ${details.number}` : null;
  const comment = [shopNumber, details.comment].filter(Boolean).join('. ').slice(0, 255);
  return {
    type: 1,
    number: cdekNumberOf(order),
    tariff_code: tariffCode,
    ...(comment ? { comment } : {}),
    delivery_recipient_cost: { value: roubles(details.deliveryCodKopecks ?? 0) },
    ...(details.sender.address
      ? {
          from_location: {
            country_code: details.sender.address.countryCode,
            postal_code: details.sender.address.postalCode ?? undefined,
            city: details.sender.address.city,
            address: addressLine(details.sender.address),
          },
        }
      : {}),
    ...(order.type === 1 && details.pointCode
      ? { delivery_point: details.pointCode }
      : {
          to_location: {
            country_code: details.address.countryCode,
            postal_code: details.address.postalCode ?? undefined,
            city: details.address.city,
            address: addressLine(details.address),
          },
        }),
    recipient: {
      name: details.recipient.fullName,
      phones: [{ number: details.recipient.phone }],
      ...(details.recipient.email ? { email: details.recipient.email } : {}),
    },
    sender: {
      name: details.sender.name,
      ...(details.sender.phone ? { phones: [{ number: details.sender.phone }] } : {}),
    },
    packages: packages.map((item, index) => ({
      number: String(index + 1),
      ...item,
      // the goods travel in the first package (CDEK ties items to a package; ours are not split by place)
      ...(index === 0
        ? {
            items: goods.map((line) => ({
              name: line.name.slice(0, 255),
              ware_key: line.article.slice(0, 50),
              payment: {
                value: roubles(line.codKopecks),
                ...(line.vat !== null && line.codKopecks > 0 ? { vat_rate: line.vat } : {}),
              },
              cost: roubles(line.declaredKopecks),
              weight: line.weightGrams ?? unknownUnitGrams,
              amount: line.count,
            })),
          }
        : {}),
    })),
  };
}

export interface CdekOrderInfo {
  uuid: string;
  cdekNumber: string | null;
  /** INVALID: CDEK refused the order (its errors say why). */
  state: 'accepted' | 'invalid' | 'waiting';
  problems: CdekProblem[];
}

/** Whether an order's latest status (GET /v2/orders: `entity.statuses`, newest first) is DELIVERED ("Вручен"). */
export function isDelivered(body: unknown): boolean {
  const statuses = (body as { entity?: { statuses?: Array<{ code?: unknown }> } } | null)?.entity?.statuses;
  return Array.isArray(statuses) && statuses[0]?.code === 'DELIVERED';
}

/** The answer of POST /v2/orders (202) or GET /v2/orders/{uuid} / ?im_number=. */
export function orderInfo(body: unknown): CdekOrderInfo | null {
  const record = body as {
    entity?: { uuid?: unknown; cdek_number?: unknown };
    requests?: Array<{ state?: unknown }>;
  } | null;
  const uuid = record?.entity?.uuid;
  if (typeof uuid !== 'string' || uuid === '') return null;
  const cdekNumber = record?.entity?.cdek_number;
  const states = (record?.requests ?? []).map((request) => request?.state);
  return {
    uuid,
    cdekNumber:
      typeof cdekNumber === 'string' && cdekNumber !== ''
        ? cdekNumber
        : typeof cdekNumber === 'number'
          ? String(cdekNumber)
          : null,
    state: states.includes('INVALID') ? 'invalid' : states.includes('WAITING') ? 'waiting' : 'accepted',
    problems: problemsOf(body),
  };
}

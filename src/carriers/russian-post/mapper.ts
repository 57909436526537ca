/**
 * Russian Post: our model <-> the otpravka.pochta.ru shipping API's JSON, and its tracking
 * service's SOAP answers (pure; no I/O).
 *
 * Sources (read, not copied): the otpravka.pochta.ru API documentation ("Расчет стоимости
 * пересылки" POST /1.0/tariff, "Создание заказов" PUT /1.0/user/backlog, "Поиск заказа"
 * GET /1.0/backlog/search, "Удаление заказов" DELETE /1.0/backlog, "Форма Ф7п" GET
 * /1.0/forms/{id}/f7pdf), the TypeScript client barsbay/pochta-rossii-api-lib (field names
 * `index-from`, `mail-category`, `mass`, `result-ids`, `errors[].error-codes[]`), and the
 * tracking service's single-access WSDL (tracking.pochta.ru, OperationHistory: OperType/OperAttr ids),
 * and for the post-office passport ("Выгрузка из паспорта ОПС", GET /1.0/unloading-passport/zip)
 * the C# clients restub/PochtaSdk (PassportPostOffice, PassportEcomOptions and a recorded
 * unloading: `address.index/place/street/house`, string `latitude`/`longitude`, `workTime`
 * lines "пн, открыто: 09:00 - 15:30, перерыв: 12:00 - 13:00" / "вс, выходной",
 * `ecomOptions.cardPayment/cashPayment/withFitting/weightLimit/getto`) and xylocode/ThirdPartyServices.RussianPost.
 */
import type { CarrierQuote, ImportedPoint, QuoteRequest, ShipmentRequest, TrackingEvent } from '../types.js';

/** A six-digit post index: a post office's code (our imported offices are coded by it). */
const POST_INDEX = /^\d{6}$/;

/** The index a parcel goes to: the post office an order chose, else the address's postal code; null without a six-digit one. */
export function indexToOf(order: ShipmentRequest): string | null {
  const details = order.details;
  const office =
    order.type === 3 && details?.pointCode && POST_INDEX.test(details.pointCode) ? details.pointCode : null;
  const index = office ?? details?.address.postalCode ?? null;
  return index !== null && POST_INDEX.test(index) ? index : null;
}

/** The parcel's category: with cash on delivery, with a declared value, or ordinary. */
export function mailCategoryOf(declaredKopecks: number, codKopecks: number): string {
  return codKopecks > 0
    ? 'WITH_DECLARED_VALUE_AND_CASH_ON_DELIVERY'
    : declaredKopecks > 0
      ? 'WITH_DECLARED_VALUE'
      : 'ORDINARY';
}

/** The value a parcel is insured for: its declared value, and with COD at least the sum collected (a COD parcel is declared). */
export function insuredKopecksOf(declaredKopecks: number, codKopecks: number): number {
  return codKopecks > 0 ? Math.max(declaredKopecks, codKopecks) : Math.max(0, declaredKopecks);
}

/**
 * POST /1.0/tariff body, to the chosen post office's index (`pointCode`) when there is one,
 * else to the recipient's locality. Amounts in kopecks, mass in grams (the API's own units).
 * The category and insured value are the ones registration sends (`mailCategoryOf`,
 * `insuredKopecksOf`), so the tariff asked is the tariff registered.
 */
export function tariffRequest(request: QuoteRequest, indexFrom: string): object | null {
  const declaredKopecks = insuredKopecksOf(request.declaredKopecks ?? 0, request.codKopecks ?? 0);
  const indexTo =
    request.pointCode && POST_INDEX.test(request.pointCode) ? request.pointCode : request.recipient.postalCode;
  if (!indexTo) return null;
  const sides = request.cargo.places[0]?.sidesCm;
  return {
    'index-from': indexFrom,
    'index-to': indexTo,
    'mail-category': mailCategoryOf(request.declaredKopecks ?? 0, request.codKopecks ?? 0),
    'mail-type': 'POSTAL_PARCEL',
    mass: Math.max(1, Math.round(request.cargo.weightGrams)),
    ...(declaredKopecks > 0 ? { 'declared-value': declaredKopecks } : {}),
    ...(sides
      ? { dimension: { length: Math.ceil(sides[0]), width: Math.ceil(sides[1]), height: Math.ceil(sides[2]) } }
      : {}),
    fragile: false,
  };
}

/**
 * The tariff answer as a post (type 3) quote: `total-rate` + `total-vat` kopecks, `delivery-time`
 * days. With a declared value the total holds Russian Post's insurance (`insurance-rate`
 * rate + vat): it is taken out of the delivery price and shown as the declared-value
 * commission, as a percent that gives its sum back (the calculator adds it once).
 */
export function quoteOfTariff(body: unknown, declaredKopecks = 0): CarrierQuote[] {
  const tariff = body as {
    'total-rate'?: unknown;
    'total-vat'?: unknown;
    'insurance-rate'?: { rate?: unknown; vat?: unknown };
    'delivery-time'?: { 'min-days'?: unknown; 'max-days'?: unknown };
  } | null;
  if (typeof tariff?.['total-rate'] !== 'number') return [];
  const vat = typeof tariff['total-vat'] === 'number' ? tariff['total-vat'] : 0;
  const max = Number(tariff['delivery-time']?.['max-days'] ?? 0) || 0;
  const min = Number(tariff['delivery-time']?.['min-days'] ?? max) || max;
  const insurance =
    declaredKopecks > 0
      ? (Number(tariff['insurance-rate']?.rate) || 0) + (Number(tariff['insurance-rate']?.vat) || 0)
      : 0;
  return [
    {
      type: 3,
      tariffName: 'Посылка нестандартная',
      priceDeliveryKopecks: tariff['total-rate'] + vat - insurance,
      days: { min, max: Math.max(min, max) },
      services: [],
      commissions: {
        // no declared value: Russian Post's published 4% shown for what a shop may declare at the order
        declared: {
          percent: insurance > 0 ? Math.round((insurance / declaredKopecks) * 100 * 1e6) / 1e6 : 4,
          minimumKopecks: 0,
        },
        codCash: { percent: 5, minimumKopecks: 0 },
        codCard: { percent: 5, minimumKopecks: 0 },
        acquiring: { percent: 0, minimumKopecks: 0 },
      },
    },
  ];
}

/**
 * One order of PUT /1.0/user/backlog. `order-num` is our order number: the lookup before a
 * retry searches it. To a chosen post office (its index is the point's code) the parcel is
 * addressed "до востребования" (`address-type-to` DEMAND, `index-to` the office's index);
 * otherwise to the recipient's street address.
 */
export function backlogOrder(order: ShipmentRequest, indexFrom: string): object {
  const details = order.details;
  if (!details) throw new Error('Russian Post needs the recipient and the address of the order');
  const [surname, givenName, middleName] = details.recipient.fullName.trim().split(/\s+/);
  const withCod = order.codKopecks > 0;
  const office = order.type === 3 && details.pointCode && POST_INDEX.test(details.pointCode) ? details.pointCode : null;
  return {
    'order-num': details.number,
    'address-type-to': office ? 'DEMAND' : 'DEFAULT',
    'mail-type': 'POSTAL_PARCEL',
    'mail-category': mailCategoryOf(order.declaredKopecks, order.codKopecks),
    'mail-direct': 643,
    mass: Math.max(1, order.cargo.weightGrams),
    'index-from': indexFrom,
    'index-to': Number(indexToOf(order) ?? 0),
    'region-to': details.address.region ?? details.address.city,
    'place-to': details.address.city,
    ...(office
      ? {}
      : {
          'street-to': details.address.street ?? '',
          'house-to': details.address.house ?? '',
          ...(details.address.flat ? { 'room-to': details.address.flat } : {}),
        }),
    'recipient-name': details.recipient.fullName,
    surname: surname ?? details.recipient.fullName,
    'given-name': givenName ?? details.recipient.fullName,
    ...(middleName ? { 'middle-name': middleName } : {}),
    'tel-address': Number(details.recipient.phone.replace(/\D/g, '')) || undefined,
    ...(insuredKopecksOf(order.declaredKopecks, order.codKopecks) > 0
      ? { 'insr-value': insuredKopecksOf(order.declaredKopecks, order.codKopecks) }
      : {}),
    ...(withCod ? { payment: order.codKopecks } : {}),
    ...(details.sidesCm
      ? {
          dimension: {
            length: Math.ceil(details.sidesCm[0]),
            width: Math.ceil(details.sidesCm[1]),
            height: Math.ceil(details.sidesCm[2]),
          },
        }
      : {}),
    ...(details.comment ? { comment: details.comment.slice(0, 200) } : {}),
  };
}

/** The id PUT /1.0/user/backlog made, or the errors it gave (`errors[].error-codes[].description`). */
export function backlogResult(body: unknown): { id: number } | { problems: string } {
  const result = body as {
    'result-ids'?: unknown;
    errors?: Array<{ 'error-codes'?: Array<{ code?: unknown; description?: unknown }> }>;
  } | null;
  const ids = Array.isArray(result?.['result-ids']) ? result['result-ids'] : [];
  if (typeof ids[0] === 'number') return { id: ids[0] };
  const problems = (result?.errors ?? [])
    .flatMap((error) => error?.['error-codes'] ?? [])
    .map((code) => `${String(code?.description ?? code?.code ?? 'error')} (${String(code?.code ?? '')})`);
  return { problems: problems.join('; ').slice(0, 500) || 'Russian Post answered without an order id.' };
}

/** A backlog (or search) entry: its id and barcode (the track number). */
export function backlogEntry(body: unknown): { id: number; barcode: string | null } | null {
  const first = Array.isArray(body) ? body[0] : body;
  const entry = first as { id?: unknown; barcode?: unknown } | null;
  if (typeof entry?.id !== 'number') return null;
  return { id: entry.id, barcode: typeof entry.barcode === 'string' && entry.barcode !== '' ? entry.barcode : null };
}

/** The tracking service's OperationHistory request (SOAP 1.2). */
export function operationHistoryEnvelope(barcode: string, login: string, password: string): string {
  const escape = (text: string) => text.replace(/[<>&'"]/g, (char) => `&#${char.charCodeAt(0)};`);
  return `<?xml version="1.0" encoding="UTF-8"?>
<soap:Envelope xmlns:soap="http://www.w3.org/2003/05/soap-envelope" xmlns:oper="http://russianpost.org/operationhistory" xmlns:data="http://russianpost.org/operationhistory/data" xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/">
<soap:Header/><soap:Body><oper:getOperationHistory>
<data:OperationHistoryRequest><data:Barcode>${escape(barcode)}</data:Barcode><data:MessageType>0</data:MessageType><data:Language>RUS</data:Language></data:OperationHistoryRequest>
<data:AuthorizationHeader soapenv:mustUnderstand="1"><data:login>${escape(login)}</data:login><data:password>${escape(password)}</data:password></data:AuthorizationHeader>
</oper:getOperationHistory></soap:Body></soap:Envelope>`;
}

/** OperType (and OperType/OperAttr) ids of the tracking service to our status codes. */
const OPERATION_STATUS: Readonly<Record<string, number>> = {
  '1': 41, // Приём
  '8': 411, // Обработка
  '8/2': 42, // Обработка: прибыло в место вручения
  '2': 44, // Вручение
  '3': 71, // Возврат
  '4': 411, // Досылка почты
  '5': 72, // Невручение (возвращено отправителю / уничтожено)
  '12': 46, // Неудачная попытка вручения
};

function tagText(xml: string, tag: string): string | null {
  const match = new RegExp(`<(?:\\w+:)?${tag}\\b[^>]*>([\\s\\S]*?)</(?:\\w+:)?${tag}>`).exec(xml);
  return match ? match[1] : null;
}

/** The tracking service's historyRecord elements as our events, oldest first; a SOAP fault gives none. */
export function eventsOfHistory(trackNumber: string, xml: string): TrackingEvent[] {
  const events: TrackingEvent[] = [];
  for (const match of xml.matchAll(/<(?:\w+:)?historyRecord\b[^>]*>([\s\S]*?)<\/(?:\w+:)?historyRecord>/g)) {
    const record = match[1];
    const operType = tagText(record, 'OperType');
    const operAttr = tagText(record, 'OperAttr');
    const typeId = operType ? tagText(operType, 'Id') : null;
    const attrId = operAttr ? tagText(operAttr, 'Id') : null;
    if (!typeId) continue;
    const statusCode = OPERATION_STATUS[`${typeId}/${attrId}`] ?? OPERATION_STATUS[typeId];
    if (statusCode === undefined) continue;
    const at = tagText(record, 'OperDate');
    const name = (operAttr ? tagText(operAttr, 'Name') : null) ?? (operType ? tagText(operType, 'Name') : null) ?? '';
    events.push({
      trackNumber,
      statusCode,
      at: at && !Number.isNaN(Date.parse(at)) ? new Date(at).toISOString() : new Date().toISOString(),
      description: name,
    });
  }
  return events.sort((a, b) => a.at.localeCompare(b.at));
}

/** A SOAP fault's reason text, or null. */
export function faultOf(xml: string): string | null {
  if (!/<(?:\w+:)?Fault\b/.test(xml)) return null;
  return (tagText(xml, 'Text') ?? tagText(xml, 'faultstring') ?? 'SOAP fault').trim().slice(0, 300);
}

/** `workTime` day names, Monday first (our schedules' order). */
const WEEKDAYS = ['пн', 'вт', 'ср', 'чт', 'пт', 'сб', 'вс'];
const HOURS = /(\d{1,2}:\d{2})\s*-\s*(\d{1,2}:\d{2})/;

/**
 * A passport element's `workTime` lines as our week (Monday first; null a day off): "пн,
 * открыто: 09:00 - 15:30, перерыв: 12:00 - 13:00" opens 09:00-15:30 (our schedule has no
 * breaks), "вс, выходной" or "вт, открыто:" without hours is closed, "круглосуточно" all day.
 * `open` says whether any day opens at all.
 */
export function weekOfWorkTime(lines: unknown): {
  schedule: Array<{ from: string; to: string } | null>;
  open: boolean;
  listed: boolean;
} {
  const schedule: Array<{ from: string; to: string } | null> = Array(7).fill(null);
  let listed = false;
  for (const line of Array.isArray(lines) ? lines : []) {
    if (typeof line !== 'string') continue;
    const [day, ...rest] = line.split(',');
    const index = WEEKDAYS.indexOf(day.trim().toLowerCase());
    if (index < 0) continue;
    listed = true;
    const text = rest.join(',');
    if (/круглосуточно/i.test(text)) {
      schedule[index] = { from: '00:00', to: '24:00' };
      continue;
    }
    const hours = /открыто/i.test(text) ? HOURS.exec(text) : null;
    if (hours) schedule[index] = { from: hours[1].padStart(5, '0'), to: hours[2].padStart(5, '0') };
  }
  return { schedule, open: schedule.some((day) => day !== null), listed };
}

/** The settlement's name without its kind ("г Москва" → "Москва", "д Добрино" → "Добрино"). */
function settlementName(place: string): string {
  return place.replace(/^(г|гор|д|дер|с|п|пос|пгт|рп|кп|дп|ст|ст-ца|сл|х|аул|нп|тер|мкр)\.?\s+/i, '').trim();
}

function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '';
}

/**
 * One element of the post-office passport as our type-3 point coded by its index, or null
 * when it cannot be one (no six-digit index or no coordinates) or the office is closed (its
 * `workTime` lists the week and no day opens). Cash is always taken at the counter (cash on
 * delivery is the post's own service); card and fitting as `ecomOptions` say; `weightLimit`
 * (kg, 0 when not set) is the point's maximum weight.
 */
export function officeOfPassport(element: unknown): ImportedPoint | null {
  const office = element as {
    address?: Record<string, unknown>;
    latitude?: unknown;
    longitude?: unknown;
    workTime?: unknown;
    ecomOptions?: { cardPayment?: unknown; withFitting?: unknown; weightLimit?: unknown; getto?: unknown };
  } | null;
  const address = office?.address ?? {};
  const index = text(address.index);
  const latitude = Number(office?.latitude);
  const longitude = Number(office?.longitude);
  if (
    !POST_INDEX.test(index) ||
    !Number.isFinite(latitude) ||
    !Number.isFinite(longitude) ||
    (latitude === 0 && longitude === 0)
  )
    return null;
  const week = weekOfWorkTime(office?.workTime);
  if (week.listed && !week.open) return null;
  const place = text(address.place);
  const building = [
    text(address.house) && `д. ${text(address.house)}`,
    text(address.corpus) && `к. ${text(address.corpus)}`,
    text(address.building) && `стр. ${text(address.building)}`,
  ]
    .filter(Boolean)
    .join(' ');
  const options = office?.ecomOptions ?? {};
  const weightKg = Number(options.weightLimit);
  return {
    code: index,
    type: 3,
    name: `Отделение почтовой связи ${index}`,
    countryCode: 'RU',
    city: settlementName(place || text(address.region)),
    postalCode: index,
    address: [place, text(address.location), text(address.street), building].filter(Boolean).join(', '),
    latitude,
    longitude,
    schedule: week.schedule,
    cashPaymentAvailable: true,
    cardPaymentAvailable: options.cardPayment === true,
    fittingAvailable: options.withFitting === true,
    maxWeightGrams: Number.isFinite(weightKg) && weightKg > 0 ? Math.round(weightKg * 1000) : null,
    description: text(options.getto) || null,
  };
}

/**
 * The answer of PUT /1.0/returns (a return of a registered parcel): its `return-barcode`, or the
 * errors (each with a code and a description) it refused it with.
 */
export function returnResult(body: unknown): { barcode: string } | { problems: string } {
  const answer = body as {
    'return-barcode'?: unknown;
    errors?: Array<{ code?: unknown; description?: unknown }>;
  } | null;
  const barcode = answer?.['return-barcode'];
  if (typeof barcode === 'string' && barcode !== '') return { barcode };
  const problems = (answer?.errors ?? [])
    .map((error) => [error.code, error.description].filter((part) => typeof part === 'string').join(': '))
    .filter(Boolean);
  return { problems: problems.join('; ') || 'no return barcode in the answer' };
}

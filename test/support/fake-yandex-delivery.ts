/**
 * A loopback fake of Yandex Delivery's "other day" platform API (paths under
 * `/api/b2b/platform`), answering in the shapes of its documentation: token `good-token`,
 * the shop's station `YANDEX_STATION`. Refusals are `{code, message}`; `mode` works as in
 * the other fakes (fake-real-carrier-server.ts). `loseNextCreate` makes the next offers/confirm
 * create the order but answer 500 (a lost answer).
 */
import { commonFailure, PDF, startFake, type FakeRealCarrier } from './fake-real-carrier-server.js';

/** The documentation's test warehouse (`platform_station_id`). */
export const YANDEX_STATION = 'fbed3aa1-2cc6-4370-ab4d-59c5cc9bb924';
/** The documentation's test pickup point ("Москва, Ленинградский проспект 37 к9"). */
export const YANDEX_POINT = '01946f4f013c7337874ec2fb848a58a4';
const YANDEX_LOCKER = '0198602de4a6749aba12e151bdf4caaa';

const ROOT = '/api/b2b/platform';
/** The fake's tariff prices (roubles): the calculator's, and the offers' for the same tariff. */
const PRICES = { self_pickup: 189.5, time_interval: 325.7 };
const notFound = (what: string) => ({
  status: 404,
  body: { code: 'not_found', message: `Order with ID ${what} not found` },
});
const badRequest = (message: string, code = 'bad_request') => ({ status: 400, body: { code, message } });

/** The request fields the fake reads. */
interface YandexBody {
  source?: { platform_station_id?: string; platform_station?: { platform_id?: string } };
  destination?: { platform_station_id?: string };
  tariff?: string;
  info?: { operator_request_id?: string };
  last_mile_policy?: string;
  offer_id?: string;
  request_id?: string;
  request_ids?: unknown;
  items?: Array<{
    count?: unknown;
    name?: unknown;
    article?: unknown;
    place_barcode?: unknown;
    billing_details?: { unit_price?: unknown; assessed_unit_price?: unknown };
  }>;
  places?: Array<{ barcode?: unknown; physical_dims?: Record<string, unknown> }>;
}

/**
 * What offers/create refuses in the cargo (Yandex Delivery API reference, offers/create:
 * items with count, name, article, billing_details in kopecks, place_barcode; places with
 * physical_dims in cm and grams and a barcode; and its error list: "Item's articles must be
 * unique", "There is place with no items", "There are items with no place").
 */
export function yandexCargoRefusal(body: YandexBody): string | null {
  const items = Array.isArray(body.items) ? body.items : [];
  const places = Array.isArray(body.places) ? body.places : [];
  if (items.length === 0) return 'items: at least one item is required';
  const articles = items.map((item) => item.article);
  const repeated = articles.find((article, index) => articles.indexOf(article) !== index);
  if (repeated !== undefined) return `Item's articles must be unique. Bad article: ${String(repeated)}`;
  const whole = (value: unknown) => typeof value === 'number' && Number.isInteger(value) && value >= 0;
  for (const item of items) {
    if (typeof item.name !== 'string' || item.name === '' || !whole(item.count) || (item.count as number) < 1)
      return 'Cannot parse items info';
    if (!whole(item.billing_details?.unit_price) || !whole(item.billing_details?.assessed_unit_price))
      return 'Cannot parse items info: billing_details are in kopecks';
  }
  const barcodes = places.map((place) => place.barcode);
  if (items.some((item) => !barcodes.includes(item.place_barcode))) return 'There are items with no place';
  if (barcodes.some((barcode) => !items.some((item) => item.place_barcode === barcode)))
    return 'There is place with no items';
  for (const place of places) {
    const dims = place.physical_dims ?? {};
    if (!['dx', 'dy', 'dz', 'weight_gross'].every((key) => whole(dims[key]) && (dims[key] as number) > 0))
      return 'Cannot parse places info: physical_dims dx, dy, dz (cm) and weight_gross (g) are required';
  }
  return null;
}

interface Order {
  requestId: string;
  number: string;
  cancelled: boolean;
}

const directory = [
  {
    id: YANDEX_POINT,
    operator_station_id: '10035218565',
    name: 'Пункт выдачи заказов Яндекс Маркета',
    type: 'pickup_point',
    position: { latitude: 55.8, longitude: 37.53 },
    address: {
      geoId: 213,
      country: 'Россия',
      region: 'Москва',
      locality: 'Москва',
      street: 'Ленинградский проспект',
      house: '37к9',
      full_address: 'Москва, Ленинградский проспект, 37к9',
      postal_code: '125167',
    },
    instruction: 'Вход со двора',
    payment_methods: ['already_paid', 'card_on_receipt'],
    schedule: {
      time_zone: 3,
      restrictions: [
        { days: [1, 2, 3, 4, 5], time_from: { hours: 10, minutes: 0 }, time_to: { hours: 21, minutes: 0 } },
        { days: [6], time_from: { hours: 10, minutes: 0 }, time_to: { hours: 18, minutes: 30 } },
      ],
    },
    is_yandex_branded: true,
    pickup_services: {
      is_fitting_allowed: true,
      is_partial_refuse_allowed: true,
      is_paperless_pickup_allowed: true,
      is_unboxing_allowed: true,
    },
    available_for_dropoff: true,
    dayoffs: [],
  },
  {
    id: YANDEX_LOCKER,
    name: 'Постамат Яндекс Маркета',
    type: 'terminal',
    position: { latitude: 55.75, longitude: 37.61 },
    address: { country: 'Россия', locality: 'Москва', full_address: 'Москва, ул. Арбат, 2' },
    payment_methods: ['already_paid'],
    schedule: {
      time_zone: 3,
      restrictions: [{ days: [1, 2, 3, 4, 5, 6, 7], time_from: { hours: 0, minutes: 0 }, time_to: null }],
    },
  },
  {
    id: 'fbed3aa1-warehouse',
    name: 'Сортировочный центр',
    type: 'warehouse',
    position: { latitude: 55.7, longitude: 37.5 },
    address: { country: 'Россия', locality: 'Москва' },
    available_for_dropoff: true,
  },
  {
    id: 'closed-point',
    name: 'Закрытый ПВЗ',
    type: 'pickup_point',
    position: { latitude: 55.7, longitude: 37.5 },
    address: { country: 'Россия', locality: 'Москва' },
    deactivation_date: '2020-01-01',
  },
];

export async function startFakeYandexDelivery(): Promise<FakeRealCarrier> {
  let sequence = 0;
  const offers = new Map<string, string>();
  const orders = new Map<string, Order>();
  const byNumber = (number: string | null) => [...orders.values()].find((order) => order.number === number);
  const state = (status: string, description: string, at: string, reason?: string) => ({
    status,
    description,
    timestamp: Math.floor(Date.parse(at) / 1000),
    timestamp_utc: at,
    ...(reason ? { reason } : {}),
  });

  return startFake(
    (request, self) => {
      if (!request.path.startsWith(ROOT)) return { status: 404, body: { code: 'not_found', message: 'No such path' } };
      const path = request.path.slice(ROOT.length);
      if (request.headers.authorization !== 'Bearer good-token')
        return { status: 401, body: { code: 'unauthorized', message: 'Access denied' } };
      if (self.mode === 'invalid') return badRequest('Cannot parse destination info');
      const body = (request.body ? JSON.parse(request.body) : {}) as YandexBody;
      switch (`${request.method} ${path}`) {
        case 'POST /location/detect':
          return { status: 200, body: { variants: [{ geo_id: 213, address: 'Россия, Москва' }] } };
        case 'POST /pricing-calculator': {
          if (body.source?.platform_station_id !== YANDEX_STATION) return badRequest('Cant get station id for point');
          if (body.tariff === 'self_pickup') {
            const points = (self.directory ?? directory) as Array<{ id?: string; type?: string }>;
            if (
              !points.some((point) => point.id === body.destination?.platform_station_id && point.type !== 'warehouse')
            )
              return badRequest('No delivery options for interval', 'no_delivery_options');
            return { status: 200, body: { pricing_total: `${PRICES.self_pickup} RUB`, delivery_days: 3 } };
          }
          return { status: 200, body: { pricing_total: `${PRICES.time_interval} RUB`, delivery_days: 2 } };
        }
        case 'POST /offers/create': {
          if (body.source?.platform_station?.platform_id !== YANDEX_STATION)
            return badRequest('Cant get station id for point');
          const refusal = yandexCargoRefusal(body);
          if (refusal) return badRequest(refusal);
          const number = String(body.info?.operator_request_id ?? '');
          const details = (price: string, total: string, day: string) => ({
            delivery_interval: {
              min: `2026-02-0${day}T07:00:00.000000Z`,
              max: `2026-02-0${day}T19:00:00.000000Z`,
              policy: body.last_mile_policy,
            },
            pickup_interval: { min: '2026-02-01T07:00:00.000000Z', max: '2026-02-01T15:00:00.000000Z' },
            pricing: price,
            pricing_commission_on_delivery_payment: '2.2%',
            pricing_commission_on_delivery_payment_amount: '6.6 RUB',
            pricing_total: total,
          });
          // the tariff's price as the calculator gives it (an earlier interval costs more), and the 2.2% on payment at delivery
          const made = ['a', 'b'].map((suffix) => `offer-${++sequence}-${suffix}`);
          const price = PRICES[body.last_mile_policy === 'self_pickup' ? 'self_pickup' : 'time_interval'];
          for (const id of made) offers.set(id, `${number}\n${price}`);
          return {
            status: 200,
            body: {
              offers: [
                {
                  offer_id: made[0],
                  expires_at: '2026-02-01T10:00:00.000000Z',
                  offer_details: details(`${price + 20} RUB`, `${Math.round((price + 20) * 102.2) / 100} RUB`, '3'),
                },
                {
                  offer_id: made[1],
                  expires_at: '2026-02-01T10:00:00.000000Z',
                  offer_details: details(`${price} RUB`, `${Math.round(price * 102.2) / 100} RUB`, '4'),
                },
              ],
            },
          };
        }
        case 'POST /offers/confirm': {
          const offer = offers.get(String(body.offer_id));
          if (offer === undefined) return badRequest(`Offer ${String(body.offer_id)} is not found or expired`);
          const [number, price] = offer.split('\n');
          const taken = byNumber(number);
          if (taken)
            return badRequest(
              `There already was request with such code within this employer, request_id ${taken.requestId}`,
            );
          const requestId = `77241d8009bb46d0bff5c65a7307${String(++sequence).padStart(4, '0')}-udp`;
          orders.set(requestId, { requestId, number, cancelled: false });
          self.created.set(number, { uuid: requestId, track: requestId, price: Number(price) });
          if (self.loseNextCreate) {
            self.loseNextCreate = false;
            return { status: 500, body: { code: 'internal_error', message: 'Internal Server Error' } };
          }
          return { status: 200, body: { request_id: requestId } };
        }
        case 'GET /request/info': {
          const code = request.query.get('request_code');
          const order = code !== null ? byNumber(code) : orders.get(request.query.get('request_id') ?? '');
          if (!order && code !== null)
            return {
              status: 403,
              body: {
                code: 'customer_order_not_found',
                message: 'There is no customer_order with such ID in platform, the order belongs to another employer',
              },
            };
          if (!order) return notFound(request.query.get('request_id') ?? '');
          return {
            status: 200,
            body: {
              request_id: order.requestId,
              request: {
                info: { operator_request_id: order.number },
                source: { platform_station: { platform_id: YANDEX_STATION } },
              },
              state: order.cancelled
                ? state('CANCELLED', 'Заказ отменён', '2026-02-01T12:00:00.000000Z', 'SHOP_CANCELLED')
                : state('CREATED', 'Заказ создан в операторе', '2026-02-01T10:00:00.000000Z'),
              sharing_url: `https://dostavka.yandex.ru/route/${order.requestId}`,
              courier_order_id: '786459112',
            },
          };
        }
        case 'GET /request/history': {
          const order = orders.get(request.query.get('request_id') ?? '');
          if (!order) return notFound(request.query.get('request_id') ?? '');
          return {
            status: 200,
            body: {
              state_history: [
                state('DRAFT', 'Черновик', '2026-02-01T09:59:00.000000Z'),
                state('DELIVERY_ARRIVED_PICKUP_POINT', 'Прибыл в пункт выдачи', '2026-02-04T09:00:00.000000Z'),
                {
                  status: 'SORTING_CENTER_AT_START',
                  description: 'Поступил в сортировочный центр',
                  timestamp: Math.floor(Date.parse('2026-02-02T09:00:00Z') / 1000),
                },
                state('CREATED', 'Заказ создан в операторе', '2026-02-01T10:00:00.000000Z'),
                state('DELIVERY_TRANSPORTATION', 'В пути к пункту выдачи', '2026-02-03T09:00:00.000000Z'),
              ],
            },
          };
        }
        case 'POST /request/cancel': {
          const order = orders.get(String(body.request_id));
          if (!order) return notFound(String(body.request_id));
          if (order.cancelled)
            return {
              status: 200,
              body: { status: 'ERROR', reason: 'ALREADY_CANCELLED', description: 'Заказ уже отменён' },
            };
          order.cancelled = true;
          return {
            status: 200,
            body: { status: 'CREATED', reason: 'SHOP_CANCELLED', description: 'Запрос на отмену создан' },
          };
        }
        case 'POST /request/generate-labels': {
          const ids = Array.isArray(body.request_ids) ? (body.request_ids as string[]) : [];
          const missing = ids.find((id) => !orders.has(id));
          if (ids.length === 0 || missing !== undefined) return notFound(missing ?? '');
          return { status: 200, body: PDF };
        }
        case 'POST /pickup-points/list':
          return { status: 200, body: { points: self.directory ?? directory } };
        default:
          return { status: 404, body: { code: 'not_found', message: `No ${request.method} ${path}` } };
      }
    },
    (mode) => commonFailure(mode, { code: 'unauthorized', message: 'Access denied' }),
  );
}

/**
 * Loopback fakes of CDEK (API v2), Boxberry (json.php) and Russian Post (otpravka API and
 * the tracking SOAP service), answering in the shapes of their documentation. `mode` makes
 * every call after the token fail as told: `invalid` (the company's validation refusal),
 * `auth` (credentials refused), `429`, `500`, `slow` (answers after `delayMs`).
 * `loseNextCreate` makes the next order creation happen but its answer a 500 (a lost answer);
 * `dropNextCreate` (Boxberry) makes it happen and then drops the connection in the middle of its answer.
 * `retryAfter` (seconds, as the header says it) goes with every 429 when set.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { strToU8, zipSync } from 'fflate';

export type FakeMode = 'ok' | 'invalid' | 'auth' | '429' | '500' | 'slow';

export interface FakeRealCarrier {
  baseUrl: string;
  mode: FakeMode;
  delayMs: number;
  /** Up to this much more delay, at random (benches: answers spread over a range). */
  jitterMs: number;
  loseNextCreate: boolean;
  dropNextCreate: boolean;
  /** The Retry-After header of a 429 (`mode` '429'), or null for none. */
  retryAfter: string | null;
  /**
   * Orders (parcels) created, by the number sent; `tariff` and `price` (roubles) are what the
   * company registered it with, where its request says (CDEK's tariff, Boxberry's point).
   */
  created: Map<string, { uuid: string; track: string; tariff?: string; price?: number }>;
  /** Every request: method and path (no query). */
  calls: string[];
  /** The pickup-point directory answered, when a test sets one (else the documented sample). */
  directory: unknown[] | null;
  /** The body of the last request of each `METHOD /path`. */
  bodies: Map<string, string>;
  /** Webhook subscriptions made with the company (CDEK: POST /v2/webhooks). */
  webhooks: Array<{ uuid: string; type: string; url: string }>;
  close(): Promise<void>;
}

/** A handler's status meaning: the answer is cut off, the connection dropped. */
const DROP_CONNECTION = -1;

/** A minimal PDF, what every fake answers as a label. */
export const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

export type FakeHandler = (
  request: { method: string; path: string; query: URLSearchParams; body: string; headers: http.IncomingHttpHeaders },
  fake: FakeRealCarrier,
) => { status: number; body: unknown; type?: string };

/** A loopback server answering `handler`, unless `failure` of the fake's mode answers first (each fake's own refusal shapes). */
export async function startFake(
  handler: FakeHandler,
  failure: (mode: FakeMode) => { status: number; body: unknown; type?: string } | null,
): Promise<FakeRealCarrier> {
  const fake: FakeRealCarrier = {
    baseUrl: '',
    mode: 'ok',
    delayMs: 0,
    jitterMs: 0,
    loseNextCreate: false,
    dropNextCreate: false,
    retryAfter: null,
    created: new Map(),
    calls: [],
    directory: null,
    webhooks: [],
    bodies: new Map(),
    close: async () => {},
  };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://fake');
      fake.calls.push(`${request.method} ${url.pathname}`);
      fake.bodies.set(`${request.method} ${url.pathname}`, Buffer.concat(chunks).toString());
      const answer = () => {
        const failed = failure(fake.mode);
        const result =
          failed ??
          handler(
            {
              method: request.method ?? 'GET',
              path: url.pathname,
              query: url.searchParams,
              body: Buffer.concat(chunks).toString(),
              headers: request.headers,
            },
            fake,
          );
        if (result.status === DROP_CONNECTION) {
          // the answer begins (a 200 and part of its body), then the connection is gone
          response.writeHead(200, { 'content-type': 'application/json', 'content-length': '200' });
          response.write('{"track":"');
          setTimeout(() => request.socket.destroy(), 20);
          return;
        }
        if (Buffer.isBuffer(result.body)) {
          response.writeHead(result.status, { 'content-type': result.type ?? 'application/pdf' }).end(result.body);
          return;
        }
        const text = typeof result.body === 'string' ? result.body : JSON.stringify(result.body);
        const wait = result.status === 429 && fake.retryAfter !== null ? { 'retry-after': fake.retryAfter } : {};
        response.writeHead(result.status, { 'content-type': result.type ?? 'application/json', ...wait }).end(text);
      };
      const delay = fake.delayMs + Math.random() * fake.jitterMs;
      if (delay > 0) setTimeout(answer, delay);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}

/** 401 with the company's own body, and the 429 and 500 every fake answers alike. */
export function commonFailure(mode: FakeMode, authBody: unknown): { status: number; body: unknown } | null {
  if (mode === 'auth') return { status: 401, body: authBody };
  if (mode === '429') return { status: 429, body: { message: 'Too Many Requests' } };
  if (mode === '500') return { status: 500, body: { message: 'Internal Server Error' } };
  return null;
}

/** The tariff list the fake CDEK answers on every route (roubles): an office and a locker from the door are priced apart. */
export const CDEK_TARIFFS = [
  {
    tariff_code: 136,
    tariff_name: 'Посылка склад-склад',
    delivery_mode: 4,
    delivery_sum: 320.5,
    period_min: 2,
    period_max: 4,
  },
  {
    tariff_code: 368,
    tariff_name: 'Посылка склад-постамат',
    delivery_mode: 7,
    delivery_sum: 290,
    period_min: 3,
    period_max: 4,
  },
  {
    tariff_code: 137,
    tariff_name: 'Посылка склад-дверь',
    delivery_mode: 3,
    delivery_sum: 450,
    period_min: 2,
    period_max: 3,
  },
  {
    tariff_code: 138,
    tariff_name: 'Посылка дверь-склад',
    delivery_mode: 2,
    delivery_sum: 380.5,
    period_min: 2,
    period_max: 4,
  },
  {
    tariff_code: 366,
    tariff_name: 'Посылка дверь-постамат',
    delivery_mode: 6,
    delivery_sum: 365,
    period_min: 3,
    period_max: 4,
  },
  {
    tariff_code: 139,
    tariff_name: 'Посылка дверь-дверь',
    delivery_mode: 1,
    delivery_sum: 510,
    period_min: 2,
    period_max: 3,
  },
];

interface CdekOrderBody {
  type?: unknown;
  number?: unknown;
  tariff_code?: unknown;
  shipment_point?: unknown;
  delivery_point?: unknown;
  from_location?: unknown;
  to_location?: unknown;
  recipient?: { name?: unknown; phones?: Array<{ number?: unknown }> };
  delivery_recipient_cost?: { value?: unknown };
  packages?: unknown;
}

type CdekError = { code: string; message: string };
const isWhole = (value: unknown, least = 1) => typeof value === 'number' && Number.isInteger(value) && value >= least;
const isSum = (value: unknown) => typeof value === 'number' && Number.isFinite(value) && value >= 0;

/**
 * CDEK's rules for `packages` (api-docs.cdek.ru "Регистрация заказа", packages[]; the same
 * in the calculator, "Калькулятор. Расчет по всем доступным тарифам"): weight in grams, a
 * whole number; length, width and height in whole cm, required for a package from 100 g and
 * for a locker; for an online shop's order (type 1) `items` with name, ware_key (up to 50),
 * payment.value and cost (roubles, 0 or more), weight (grams per unit, whole) and amount.
 */
function cdekPackageProblems(packages: unknown, order: boolean, toLocker = false): CdekError[] {
  if (!Array.isArray(packages) || packages.length === 0)
    return [{ code: 'v2_field_is_empty', message: 'Field packages is empty' }];
  const problems: CdekError[] = [];
  packages.forEach((item: Record<string, unknown> | null, index) => {
    const at = `packages[${index}]`;
    if (!item || !isWhole(item.weight))
      return problems.push({
        code: 'v2_invalid_value_type',
        message: `Field ${at}.weight must be a whole number of grams`,
      });
    if (order && (typeof item.number !== 'string' || item.number === ''))
      problems.push({ code: 'v2_field_is_empty', message: `Field ${at}.number is empty` });
    const sized = ['length', 'width', 'height'].every((side) => isWhole(item[side]));
    if (!sized && ((item.weight as number) >= 100 || toLocker))
      problems.push({
        code: 'v2_field_is_empty',
        message: `Fields ${at}.length, width and height are required from 100 g and for a locker`,
      });
    if (!order) return;
    if (!Array.isArray(item.items) || item.items.length === 0) {
      if (index === 0) problems.push({ code: 'v2_field_is_empty', message: `Field ${at}.items is empty` });
      return;
    }
    (item.items as Array<Record<string, unknown> | null>).forEach((line, position) => {
      const where = `${at}.items[${position}]`;
      if (typeof line?.name !== 'string' || line.name === '')
        problems.push({ code: 'v2_field_is_empty', message: `Field ${where}.name is empty` });
      if (typeof line?.ware_key !== 'string' || line.ware_key === '' || line.ware_key.length > 50)
        problems.push({ code: 'v2_invalid_value_type', message: `Field ${where}.ware_key must be 1 to 50 characters` });
      if (!isSum((line?.payment as { value?: unknown } | undefined)?.value))
        problems.push({ code: 'v2_invalid_value_type', message: `Field ${where}.payment.value must be a sum` });
      if (!isSum(line?.cost))
        problems.push({ code: 'v2_invalid_value_type', message: `Field ${where}.cost must be a sum` });
      if (!isWhole(line?.weight))
        problems.push({
          code: 'v2_invalid_value_type',
          message: `Field ${where}.weight must be a whole number of grams`,
        });
      if (!isWhole(line?.amount))
        problems.push({ code: 'v2_invalid_value_type', message: `Field ${where}.amount must be a whole number` });
    });
  });
  return problems;
}

/**
 * What CDEK refuses in POST /v2/orders (api-docs.cdek.ru "Регистрация заказа"; error shape
 * `requests[].errors[{code, message}]` as "Информация о заказе" and the error list show):
 * `number` ASCII only, up to 40 characters, one order per number; a tariff from an office
 * needs `shipment_point`, one from the door `from_location`; `delivery_point` or
 * `to_location`; the recipient's name and phone; the packages' rules above.
 */
export function cdekOrderProblems(body: CdekOrderBody, numberTaken = false): CdekError[] {
  const problems: CdekError[] = [];
  if (body.number !== undefined && (typeof body.number !== 'string' || !/^[\x20-\x7E]{1,40}$/.test(body.number)))
    problems.push({
      code: 'v2_invalid_value_type',
      message: 'Field number may hold only digits, Latin letters and special characters (ASCII), up to 40',
    });
  else if (numberTaken)
    problems.push({
      code: 'v2_order_number_exists',
      message: `An order with number ${String(body.number)} already exists`,
    });
  const tariff = CDEK_TARIFFS.find((item) => item.tariff_code === body.tariff_code);
  if (!tariff) problems.push({ code: 'v2_field_is_empty', message: 'Field tariff_code is empty or unknown' });
  // a tariff from an office needs the office handed in at, one from the door the sender's address
  const fromOffice = tariff !== undefined && [3, 4, 7].includes(tariff.delivery_mode);
  if (fromOffice ? !body.shipment_point : !body.from_location)
    problems.push({
      code: fromOffice ? 'v2_shipment_point_required' : 'v2_from_location_required',
      message: fromOffice ? 'Field shipment_point is empty' : 'Field from_location is empty',
    });
  if (!body.delivery_point && !body.to_location)
    problems.push({ code: 'v2_field_is_empty', message: 'Field to_location is empty' });
  if (typeof body.recipient?.name !== 'string' || body.recipient.name === '')
    problems.push({ code: 'v2_field_is_empty', message: 'Field recipient.name is empty' });
  if (typeof body.recipient?.phones?.[0]?.number !== 'string')
    problems.push({ code: 'v2_field_is_empty', message: 'Field recipient.phones is empty' });
  if (body.delivery_recipient_cost !== undefined && !isSum(body.delivery_recipient_cost.value))
    problems.push({ code: 'v2_invalid_value_type', message: 'Field delivery_recipient_cost.value must be a sum' });
  return [
    ...problems,
    ...cdekPackageProblems(
      body.packages,
      body.type === 1 || body.type === undefined,
      tariff !== undefined && [6, 7, 8].includes(tariff.delivery_mode),
    ),
  ];
}

/** CDEK API v2 under `{baseUrl}/v2`: client id `good-id` / secret `good-secret`. */
export async function startFakeCdek(): Promise<FakeRealCarrier> {
  let sequence = 0;
  let webhookSequence = 0;
  const byUuid = new Map<string, { number: string; cdekNumber: string; reads: number }>();
  const fake = await startFake(
    (request, self) => {
      const path = request.path.replace(/^\/v2/, '');
      if (path === '/oauth/token') {
        if (request.query.get('client_id') !== 'good-id' || request.query.get('client_secret') !== 'good-secret')
          return { status: 401, body: { error: 'invalid_client', error_description: 'Bad credentials' } };
        return {
          status: 200,
          body: {
            access_token: 'cdek-token',
            token_type: 'bearer',
            expires_in: 3599,
            scope: 'order:all payment:all',
            jti: 'x',
          },
        };
      }
      if (request.headers.authorization !== 'Bearer cdek-token')
        return {
          status: 401,
          body: { requests: [{ state: 'INVALID', errors: [{ code: 'v2_token_expired', message: 'Token expired' }] }] },
        };
      if (self.mode === 'invalid')
        return {
          status: 400,
          body: {
            requests: [
              {
                type: 'CREATE',
                state: 'INVALID',
                errors: [{ code: 'v2_field_is_empty', message: 'Field recipient.phones is empty' }],
              },
            ],
          },
        };
      if (path === '/calculator/tarifflist') {
        const problems = cdekPackageProblems((JSON.parse(request.body) as { packages?: unknown }).packages, false);
        if (problems.length > 0) return { status: 400, body: { errors: problems } };
        return { status: 200, body: { tariff_codes: CDEK_TARIFFS } };
      }
      if (path === '/calculator/tariff') {
        // one tariff with its services priced: INSURANCE at 0.8% of `parameter` (the declared value, roubles)
        const body = JSON.parse(request.body) as {
          tariff_code: number;
          services?: Array<{ code: string; parameter?: string }>;
        };
        const delivery = CDEK_TARIFFS.find((tariff) => tariff.tariff_code === body.tariff_code)?.delivery_sum;
        if (delivery === undefined)
          return {
            status: 400,
            body: { errors: [{ code: 'v2_tariff_not_found', message: `Tariff ${body.tariff_code} is not available` }] },
          };
        const services = (body.services ?? []).map((service) => {
          const sum = service.code === 'INSURANCE' ? Math.round(Number(service.parameter ?? 0) * 0.8) / 100 : 0;
          return {
            code: service.code,
            sum,
            total_sum: sum,
            discount_percent: 0,
            discount_sum: 0,
            vat_rate: 0,
            vat_sum: 0,
          };
        });
        return {
          status: 200,
          body: {
            delivery_sum: delivery,
            period_min: 2,
            period_max: 4,
            weight_calc: 1200,
            services,
            total_sum: delivery + services.reduce((total, service) => total + service.total_sum, 0),
            currency: 'RUB',
          },
        };
      }
      if (path === '/orders' && request.method === 'POST') {
        const body = JSON.parse(request.body) as CdekOrderBody;
        const problems = cdekOrderProblems(
          body,
          [...byUuid.values()].some((order) => order.number === body.number),
        );
        if (problems.length > 0)
          return { status: 400, body: { requests: [{ type: 'CREATE', state: 'INVALID', errors: problems }] } };
        const number = String(body.number);
        sequence += 1;
        const uuid = `72753031-${String(sequence).padStart(4, '0')}-4f1b-a55d-f0d3b0b5d1c4`;
        const cdekNumber = String(1100000000 + sequence);
        byUuid.set(uuid, { number, cdekNumber, reads: 0 });
        const tariff = CDEK_TARIFFS.find((item) => item.tariff_code === body.tariff_code);
        self.created.set(number, { uuid, track: cdekNumber, tariff: tariff?.tariff_name, price: tariff?.delivery_sum });
        if (self.loseNextCreate) {
          self.loseNextCreate = false;
          return { status: 502, body: { message: 'Bad Gateway' } };
        }
        return {
          status: 202,
          body: {
            entity: { uuid },
            requests: [
              { request_uuid: 'r1', type: 'CREATE', date_time: '2026-01-01T10:00:00+0000', state: 'ACCEPTED' },
            ],
          },
        };
      }
      if (path === '/orders' && request.method === 'GET') {
        const wanted = request.query.get('im_number') ?? request.query.get('cdek_number');
        const found = [...byUuid.entries()].find(([, order]) => order.number === wanted || order.cdekNumber === wanted);
        if (!found)
          return {
            status: 404,
            body: {
              requests: [
                { state: 'INVALID', errors: [{ code: 'v2_entity_not_found_im_number', message: 'Order not found' }] },
              ],
            },
          };
        return {
          status: 200,
          body: {
            entity: {
              uuid: found[0],
              cdek_number: found[1].cdekNumber,
              number: found[1].number,
              statuses: [
                {
                  code: 'ACCEPTED_AT_PICK_UP_POINT',
                  name: 'Принят в пункте выдачи',
                  date_time: '2026-01-03T09:00:00+0000',
                  city: 'Москва',
                },
                {
                  code: 'RECEIVED_AT_SHIPMENT_WAREHOUSE',
                  name: 'Принят на склад отправителя',
                  date_time: '2026-01-02T09:00:00+0000',
                  city: 'Москва',
                },
                { code: 'CREATED', name: 'Создан', date_time: '2026-01-01T10:00:00+0000', city: 'Москва' },
              ],
            },
          },
        };
      }
      const orderMatch = /^\/orders\/([\w-]+)$/.exec(path);
      if (orderMatch) {
        const order = byUuid.get(orderMatch[1]);
        if (!order)
          return {
            status: 404,
            body: { requests: [{ state: 'INVALID', errors: [{ code: 'v2_entity_not_found', message: 'Not found' }] }] },
          };
        if (request.method === 'DELETE') {
          byUuid.delete(orderMatch[1]);
          return {
            status: 202,
            body: { entity: { uuid: orderMatch[1] }, requests: [{ type: 'DELETE', state: 'ACCEPTED' }] },
          };
        }
        order.reads += 1;
        return {
          status: 200,
          body: {
            entity: { uuid: orderMatch[1], cdek_number: order.reads >= 1 ? order.cdekNumber : undefined },
            requests: [{ type: 'CREATE', state: 'SUCCESSFUL' }],
          },
        };
      }
      if (path === '/print/barcodes' && request.method === 'POST') {
        // "Формирование ШК места к заказу": orders by order_uuid or cdek_number, format A4, A5, A6 or A7
        const body = JSON.parse(request.body) as {
          orders?: Array<{ order_uuid?: unknown; cdek_number?: unknown }>;
          format?: unknown;
        };
        const known = (item: { order_uuid?: unknown; cdek_number?: unknown }) =>
          [...byUuid.entries()].some(
            ([uuid, order]) => uuid === item.order_uuid || order.cdekNumber === String(item.cdek_number),
          );
        if (!Array.isArray(body.orders) || body.orders.length === 0 || !body.orders.every(known))
          return {
            status: 400,
            body: {
              requests: [
                {
                  type: 'CREATE',
                  state: 'INVALID',
                  errors: [{ code: 'v2_entity_not_found', message: 'Orders to print are not found' }],
                },
              ],
            },
          };
        if (body.format !== undefined && !['A4', 'A5', 'A6', 'A7'].includes(String(body.format)))
          return {
            status: 400,
            body: {
              requests: [
                {
                  type: 'CREATE',
                  state: 'INVALID',
                  errors: [{ code: 'v2_invalid_value_type', message: 'Field format must be A4, A5, A6 or A7' }],
                },
              ],
            },
          };
        return {
          status: 202,
          body: { entity: { uuid: 'label-1' }, requests: [{ type: 'CREATE', state: 'ACCEPTED' }] },
        };
      }
      if (path === '/print/barcodes/label-1')
        return {
          status: 200,
          body: {
            entity: {
              uuid: 'label-1',
              url: `${fake.baseUrl}/v2/print/barcodes/label-1.pdf`,
              statuses: [{ code: 'READY' }],
            },
          },
        };
      if (path === '/print/barcodes/label-1.pdf') return { status: 200, body: PDF };
      if (path === '/intakes' && request.method === 'POST')
        return {
          status: 202,
          body: { entity: { uuid: 'intake-1' }, requests: [{ type: 'CREATE', state: 'ACCEPTED' }] },
        };
      if (path === '/intakes/intake-1' && request.method === 'GET')
        return {
          status: 200,
          body: {
            entity: {
              uuid: 'intake-1',
              statuses: [
                { code: 'ACCEPTED', date_time: '2026-01-01T10:00:00+0000' },
                { code: 'DONE', date_time: '2026-01-02T10:00:00+0000' },
              ],
            },
          },
        };
      if (path === '/intakes/intake-1' && request.method === 'DELETE')
        return {
          status: 202,
          body: { entity: { uuid: 'intake-1' }, requests: [{ type: 'DELETE', state: 'ACCEPTED' }] },
        };
      if (path === '/webhooks' && request.method === 'GET') return { status: 200, body: self.webhooks };
      if (path === '/webhooks' && request.method === 'POST') {
        const body = JSON.parse(request.body) as { type: string; url: string };
        webhookSequence += 1;
        const uuid = `webhook-${webhookSequence}`;
        self.webhooks.push({ uuid, type: body.type, url: body.url });
        return { status: 200, body: { entity: { uuid }, requests: [{ type: 'CREATE', state: 'SUCCESSFUL' }] } };
      }
      const webhook = /^\/webhooks\/([\w-]+)$/.exec(path);
      if (webhook && request.method === 'DELETE') {
        const at = self.webhooks.findIndex((item) => item.uuid === webhook[1]);
        if (at < 0)
          return {
            status: 404,
            body: {
              requests: [
                {
                  type: 'DELETE',
                  state: 'INVALID',
                  errors: [{ code: 'v2_entity_not_found', message: 'Webhook not found' }],
                },
              ],
            },
          };
        self.webhooks.splice(at, 1);
        return {
          status: 200,
          body: { entity: { uuid: webhook[1] }, requests: [{ type: 'DELETE', state: 'SUCCESSFUL' }] },
        };
      }
      if (path === '/deliverypoints') {
        return {
          status: 200,
          body: self.directory ?? [
            {
              code: 'MSK123',
              name: 'На Тверской',
              type: 'PVZ',
              location: {
                country_code: 'RU',
                city: 'Москва',
                postal_code: '125009',
                address: 'ул. Тверская, 1',
                latitude: 55.757,
                longitude: 37.613,
              },
              work_time_list: [
                { day: 1, time: '10:00/20:00' },
                { day: 6, time: '11:00/16:00' },
              ],
              have_cash: true,
              have_cashless: true,
              is_dressing_room: true,
              weight_max: 30,
            },
            {
              code: 'MSK900',
              name: 'Постамат',
              type: 'POSTAMAT',
              location: {
                country_code: 'RU',
                city: 'Москва',
                address: 'ул. Арбат, 2',
                latitude: 55.75,
                longitude: 37.6,
              },
              have_cash: false,
              have_cashless: true,
            },
            { code: 'BROKEN', name: 'no location' },
          ],
        };
      }
      return {
        status: 404,
        body: { requests: [{ state: 'INVALID', errors: [{ code: 'v2_not_found', message: `No ${path}` }] }] },
      };
    },
    (mode) =>
      commonFailure(mode, {
        requests: [{ state: 'INVALID', errors: [{ code: 'v2_unauthorized', message: 'Unauthorized' }] }],
      }),
  );
  return fake;
}

interface BoxberryParcel {
  order_id?: unknown;
  price?: unknown;
  payment_sum?: unknown;
  delivery_sum?: unknown;
  vid?: unknown;
  shop?: { name?: unknown };
  customer?: { fio?: unknown; phone?: unknown };
  kurdost?: { citi?: unknown; addressp?: unknown };
  items?: Array<{ id?: unknown; name?: unknown; price?: unknown; quantity?: unknown }>;
  weights?: Record<string, unknown>;
}

const numeric = (value: unknown) => typeof value === 'string' && /^\d+(\.\d{1,2})?$/.test(value);

/**
 * What Boxberry refuses in ParselCreate's `sdata` (Boxberry's API help "ParselCreate";
 * gwinn/boxberry-sdk src/Model/Request/CreateOrder/ParcelCreateRequest.php and
 * ParcelCreateRequest/Items.php; its fixture tests/Requests/parcelCreate.json): `order_id`;
 * sums as strings (`price` declared, `payment_sum` to collect, `delivery_sum` the delivery
 * charge told to the recipient); `vid` "1" with the point's code in `shop.name`, "2" with
 * `kurdost.citi` and `addressp`; the recipient's `fio` and `phone`; `items` with id, name,
 * price and quantity, and the collected sum the goods' and the delivery's (as in the fixture:
 * 1750 + 2 × 100 + 250 = 2200); `weights.weight` in grams and the place's x, y, z in cm.
 * The first refusal, as Boxberry answers one `err`.
 */
export function boxberryParcelRefusal(sdata: BoxberryParcel): string | null {
  if (typeof sdata.order_id !== 'string' || sdata.order_id === '') return 'Не указан номер заказа (order_id)';
  for (const field of ['price', 'payment_sum', 'delivery_sum'] as const)
    if (!numeric(sdata[field])) return `Неверный формат поля ${field}`;
  if (sdata.vid === '1' ? typeof sdata.shop?.name !== 'string' || sdata.shop.name === '' : sdata.vid !== '2')
    return sdata.vid === '1' ? 'Не указан код пункта выдачи (shop.name)' : 'Неверный вид доставки (vid)';
  if (
    sdata.vid === '2' &&
    (typeof sdata.kurdost?.citi !== 'string' ||
      typeof sdata.kurdost.addressp !== 'string' ||
      sdata.kurdost.addressp === '')
  )
    return 'Не указан адрес курьерской доставки';
  if (
    typeof sdata.customer?.fio !== 'string' ||
    sdata.customer.fio === '' ||
    typeof sdata.customer.phone !== 'string' ||
    sdata.customer.phone === ''
  )
    return 'Не указаны ФИО или телефон получателя';
  if (!Array.isArray(sdata.items) || sdata.items.length === 0) return 'Не переданы товарные позиции (items)';
  for (const item of sdata.items)
    if (
      typeof item.id !== 'string' ||
      typeof item.name !== 'string' ||
      item.name === '' ||
      !numeric(item.price) ||
      !/^[1-9]\d*$/.test(String(item.quantity))
    )
      return 'Неверно заполнены товарные позиции (items)';
  const goods = sdata.items.reduce(
    (sum, item) => sum + Math.round(Number(item.price) * 100) * Number(item.quantity),
    0,
  );
  if (
    Number(sdata.payment_sum) > 0 &&
    goods + Math.round(Number(sdata.delivery_sum) * 100) !== Math.round(Number(sdata.payment_sum) * 100)
  )
    return 'Сумма к оплате не равна сумме товаров и стоимости доставки';
  const weights = sdata.weights ?? {};
  if (!/^[1-9]\d*$/.test(String(weights.weight))) return 'Не указан вес места (weights.weight, г)';
  if (!['x', 'y', 'z'].every((side) => /^[1-9]\d*$/.test(String(weights[side]))))
    return 'Не указаны габариты места (weights.x, y, z, см)';
  return null;
}

/**
 * DeliveryCosts of the fake: to the point 77961 (`target`) cheaper than the courier; its fees
 * for the declared value (`ordersum`, 0.5%) and COD (`paysum`, 1.5%) are in price_service and price.
 */
function boxberryCosts(
  target: string | null,
  ordersum: number,
  paysum: number,
): { price: number; price_base: number; price_service: number; delivery_period: string } {
  const fees = Math.round(ordersum * 0.5 + paysum * 1.5) / 100;
  const [base, service, days] = target === null ? [300, 89.5, '3'] : [220, 29, '4'];
  return {
    price: Math.round((base + service + fees) * 100) / 100,
    price_base: base,
    price_service: service + fees,
    delivery_period: days,
  };
}

/** Boxberry `json.php`: token `good-token`. Errors are HTTP 200 with `{err}`. */
export async function startFakeBoxberry(): Promise<FakeRealCarrier> {
  let sequence = 0;
  const fake = await startFake(
    (request, self) => {
      const form = new URLSearchParams(request.body);
      const token = request.query.get('token') ?? form.get('token');
      const method = request.query.get('method') ?? form.get('method');
      if (request.path === '/label.pdf') return { status: 200, body: PDF };
      if (token !== 'good-token') return { status: 200, body: { err: 'Неверный API-токен' } };
      if (self.mode === 'invalid') return { status: 200, body: [{ err: 'Не указан телефон получателя' }] };
      switch (method) {
        case 'OrdersBalance':
          return { status: 200, body: [{ Balance: '0.00' }] };
        case 'DeliveryCosts': {
          // `target`: a pickup point of the directory (cheaper than the courier); else `zip`: courier.
          // Its fees for the declared value (`ordersum`, 0.5%) and COD (`paysum`, 1.5%) are in price_service and price.
          const target = request.query.get('target');
          if (target !== null && target !== '77961')
            return { status: 200, body: [{ err: `Пункт выдачи ${target} не найден` }] };
          return {
            status: 200,
            body: boxberryCosts(
              target,
              Number(request.query.get('ordersum') ?? 0),
              Number(request.query.get('paysum') ?? 0),
            ),
          };
        }
        case 'ParselCreate': {
          const sdata = JSON.parse(form.get('sdata') ?? '{}') as BoxberryParcel;
          const refusal = boxberryParcelRefusal(sdata);
          if (refusal) return { status: 200, body: [{ err: refusal }] };
          if (self.created.has(String(sdata.order_id)))
            return {
              status: 200,
              body: [
                {
                  err: `Заказ с номером ${String(sdata.order_id)} уже существует, для изменения передайте updateByTrack`,
                },
              ],
            };
          sequence += 1;
          // what Boxberry charges for the parcel as registered: its point (or courier) and sums, as DeliveryCosts prices them
          const costs = boxberryCosts(
            sdata.vid === '1' ? String(sdata.shop?.name) : null,
            Number(sdata.price),
            Number(sdata.payment_sum),
          );
          const parcel = {
            uuid: String(sdata.order_id),
            track: `BB${String(sequence).padStart(8, '0')}`,
            tariff: sdata.vid === '1' ? String(sdata.shop?.name) : 'courier',
            price: costs.price,
          };
          self.created.set(String(sdata.order_id), parcel);
          if (self.loseNextCreate) {
            self.loseNextCreate = false;
            return { status: 502, body: { message: 'Bad Gateway' } };
          }
          if (self.dropNextCreate) {
            self.dropNextCreate = false;
            return { status: DROP_CONNECTION, body: null };
          }
          return { status: 200, body: { track: parcel.track, label: `${fake.baseUrl}/label.pdf` } };
        }
        case 'ParcelInfo': {
          // the SDK's fixtures tests/Requests/parcelInfo.json and tests/Response/parcelInfo.json: parcels by track or order_id
          const asked =
            (JSON.parse(form.get('sdata') ?? '{}') as { parcels?: Array<{ track?: string; order_id?: string }> })
              .parcels ?? [];
          return {
            status: 200,
            body: asked.flatMap((wanted) =>
              [...self.created.entries()]
                .filter(([orderId, parcel]) => orderId === wanted.order_id || parcel.track === wanted.track)
                .map(([orderId, parcel]) => ({
                  order_id: orderId,
                  track_number: parcel.track,
                  delivery_type: parcel.tariff === 'courier' ? 2 : 1,
                })),
            ),
          };
        }
        case 'ParselDel':
          return { status: 200, body: { text: 'ok' } };
        case 'ParselCheck':
          return { status: 200, body: { label: `${fake.baseUrl}/label.pdf` } };
        case 'ListStatuses':
          if (!request.query.get('ImId')?.startsWith('BB'))
            return { status: 200, body: [{ err: 'Посылка не найдена' }] };
          // Moscow time without an offset, as the SDK's fixture tests/Response/listStatuses.json writes it
          return {
            status: 200,
            body: [
              { Date: '2026-01-02 10:00:00', Name: 'Принято к доставке', Comment: '' },
              { Date: '2026-01-04 12:00:00', Name: 'Поступило в пункт выдачи', Comment: '' },
            ],
          };
        case 'ChangeOrderStorageDate':
          return { status: 200, body: { text: 'ok' } };
        case 'ListPoints':
          return {
            status: 200,
            body: [
              {
                Code: '77961',
                Name: 'Москва Тверская_7796',
                Address: '125009, Москва г, Тверская ул, д.1',
                AddressReduce: 'Тверская ул, д.1',
                CityName: 'Москва',
                GPS: '55.757,37.613',
                WorkShedule: 'пн-пт:10.00-20.00, сб:10.00-16.00',
                OnlyPrepaidOrders: 'No',
                Acquiring: 'Yes',
                LoadLimit: '15',
                PostCode: '125009',
              },
            ],
          };
        default:
          return { status: 200, body: { err: `Unknown method ${method}` } };
      }
    },
    (mode) => commonFailure(mode, { err: 'Нет доступа' }),
  );
  return fake;
}

/** One element of Russian Post's post-office passport, in the unloading's documented shape (strings for coordinates and `ecom`). */
export function passportOffice(
  index: string,
  place: string,
  latitude: number,
  longitude: number,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    address: {
      addressType: 'DEFAULT',
      index,
      manualInput: false,
      place,
      region: place === 'г Москва' ? 'г Москва' : 'обл Московская',
      street: 'ул Тверская',
      house: '7',
    },
    addressFias: {
      ads: `${index} ${place} Тверская ул, д. 7`,
      addGarCode: 'a8f65eb5-464e-462e-bc67-7e4624be9d65',
      locationGarCode: '44388ad0-06aa-49b0-bbf9-1704629d1d68',
      regGarId: 'aea6280f-4648-460f-b8be-c2bc18923191',
    },
    ecom: '1',
    ecomOptions: {
      cardPayment: true,
      cashPayment: false,
      contentsChecking: false,
      functionalityChecking: false,
      partialRedemption: false,
      returnAvailable: true,
      weightLimit: 0.0,
      withFitting: false,
    },
    holidays: [{ df: '2026-01-01', ds: '2026-01-01', work: [{ dt: '2026-01-01', nm: 4 }] }],
    latitude: String(latitude),
    longitude: String(longitude),
    onlineParcel: '0',
    type: 'ГОПС',
    workTime: [
      'пн, открыто: 08:00 - 20:00, перерыв: 13:00 - 14:00',
      'вт, открыто: 08:00 - 20:00',
      'ср, открыто: 08:00 - 20:00',
      'чт, открыто: 08:00 - 20:00',
      'пт, открыто: 08:00 - 20:00',
      'сб, открыто: 09:00 - 18:00',
      'вс, выходной',
    ],
    ...extra,
  };
}

/** The documented sample of the unloading: two Moscow offices (one with a weight limit) and one without coordinates. */
const PASSPORT_SAMPLE = [
  passportOffice('125009', 'г Москва', 55.757, 37.613, {
    ecomOptions: {
      cardPayment: true,
      cashPayment: true,
      withFitting: false,
      weightLimit: 20.0,
      getto: 'Вход с Тверской',
    },
  }),
  passportOffice('101000', 'г Москва', 55.761, 37.638),
  { address: { index: '999999', place: 'г Нигде' }, type: 'СОПС', workTime: [] },
];

interface PostOrder {
  'order-num': string;
  'address-type-to'?: string;
  'index-to'?: number;
  'mail-type'?: string;
  'mail-category'?: string;
  mass?: unknown;
  'insr-value'?: number;
  payment?: number;
  'recipient-name'?: unknown;
  'given-name'?: unknown;
  surname?: unknown;
}

/**
 * What PUT /1.0/user/backlog refuses (otpravka.pochta.ru/specification, "Создание заказа":
 * its fields and units; errors as `errors[{error-codes[{code, description}], position}]`
 * with HTTP 200): `order-num`; `mail-type` and `mail-category` of its lists; `mass` in whole
 * grams; `index-to` six digits; the recipient's names; with cash on delivery (category
 * `…_AND_CASH_ON_DELIVERY`) `payment` in kopecks and `insr-value` not below it. The first refusal.
 */
function postOrderRefusal(order: PostOrder): { code: string; description: string } | null {
  if (typeof order['order-num'] !== 'string' || order['order-num'] === '')
    return { code: 'EMPTY_ORDER_NUM', description: 'Не указан номер заказа' };
  if (order['mail-type'] !== 'POSTAL_PARCEL') return { code: 'ILLEGAL_MAIL_TYPE', description: 'Недопустимый вид РПО' };
  if (
    !['ORDINARY', 'WITH_DECLARED_VALUE', 'WITH_DECLARED_VALUE_AND_CASH_ON_DELIVERY'].includes(
      String(order['mail-category']),
    )
  )
    return { code: 'ILLEGAL_MAIL_CATEGORY', description: 'Недопустимая категория РПО' };
  if (typeof order.mass !== 'number' || !Number.isInteger(order.mass) || order.mass < 1)
    return { code: 'ILLEGAL_MASS', description: 'Масса указывается в граммах, целым числом' };
  if (!/^\d{6}$/.test(String(order['index-to'])))
    return { code: 'ILLEGAL_INDEX_TO', description: 'Почтовый индекс некорректен' };
  if (
    typeof order['given-name'] !== 'string' ||
    typeof order.surname !== 'string' ||
    typeof order['recipient-name'] !== 'string'
  )
    return { code: 'EMPTY_RECIPIENT_NAME', description: 'Не указано ФИО получателя' };
  if (
    order['mail-category'] === 'WITH_DECLARED_VALUE_AND_CASH_ON_DELIVERY' &&
    !(
      Number.isInteger(order.payment) &&
      (order.payment as number) > 0 &&
      (order['insr-value'] ?? 0) >= (order.payment as number)
    )
  )
    return {
      code: 'ILLEGAL_PAYMENT',
      description: 'Сумма наложенного платежа не может превышать объявленную ценность',
    };
  return null;
}

/** The fake's tariff (kopecks): with a declared value the total holds insurance at 3% + 20% VAT, as the otpravka answer itemises it. */
function postTariff(declared: number): {
  'total-rate': number;
  'total-vat': number;
  'insurance-rate'?: { rate: number; vat: number };
  'delivery-time': { 'min-days': number; 'max-days': number };
} {
  const insurance = { rate: Math.round(declared * 0.03), vat: Math.round(declared * 0.006) };
  return {
    'total-rate': 35000 + insurance.rate,
    'total-vat': 7000 + insurance.vat,
    ...(declared > 0 ? { 'insurance-rate': insurance } : {}),
    'delivery-time': { 'min-days': 2, 'max-days': 5 },
  };
}

/** Russian Post otpravka API (token `good-token`, login `shop`/`pass`) and the tracking SOAP service under `/rtm34`. */
export async function startFakeRussianPost(): Promise<FakeRealCarrier> {
  let sequence = 0;
  const backlog = new Map<number, { number: string; barcode: string }>();
  const fake = await startFake(
    (request, self) => {
      if (request.path === '/rtm34') {
        return {
          status: 200,
          type: 'application/soap+xml',
          body: `<?xml version="1.0"?><S:Envelope xmlns:S="http://www.w3.org/2003/05/soap-envelope"><S:Body><ns7:getOperationHistoryResponse xmlns:ns3="http://russianpost.org/operationhistory/data" xmlns:ns7="http://russianpost.org/operationhistory"><ns3:OperationHistoryData>
<ns3:historyRecord><ns3:OperationParameters><ns3:OperType><ns3:Id>1</ns3:Id><ns3:Name>Приём</ns3:Name></ns3:OperType><ns3:OperAttr><ns3:Id>1</ns3:Id><ns3:Name>Единичный</ns3:Name></ns3:OperAttr><ns3:OperDate>2026-01-02T10:00:00.000+03:00</ns3:OperDate></ns3:OperationParameters></ns3:historyRecord>
<ns3:historyRecord><ns3:OperationParameters><ns3:OperType><ns3:Id>8</ns3:Id><ns3:Name>Обработка</ns3:Name></ns3:OperType><ns3:OperAttr><ns3:Id>2</ns3:Id><ns3:Name>Прибыло в место вручения</ns3:Name></ns3:OperAttr><ns3:OperDate>2026-01-05T10:00:00.000+03:00</ns3:OperDate></ns3:OperationParameters></ns3:historyRecord>
</ns3:OperationHistoryData></ns7:getOperationHistoryResponse></S:Body></S:Envelope>`,
        };
      }
      const basic = `Basic ${Buffer.from('shop:pass').toString('base64')}`;
      if (
        request.headers.authorization !== 'AccessToken good-token' ||
        request.headers['x-user-authorization'] !== basic
      )
        return { status: 401, body: { code: '1001', desc: 'Unauthorized', 'sub-code': 'UNAUTHORIZED' } };
      if (self.mode === 'invalid' && request.method === 'PUT')
        return {
          status: 200,
          body: {
            errors: [
              { 'error-codes': [{ code: 'EMPTY_INDEX_TO', description: 'Не указан индекс получателя' }], position: 0 },
            ],
          },
        };
      if (self.mode === 'invalid' && request.path === '/1.0/tariff')
        return { status: 400, body: { code: '1001', desc: 'Неверный индекс' } };
      if (request.path === '/1.0/settings') return { status: 200, body: { 'shipping-points': [] } };
      if (request.path === '/1.0/tariff')
        return {
          status: 200,
          body: postTariff(Number((JSON.parse(request.body) as { 'declared-value'?: number })['declared-value'] ?? 0)),
        };
      if (request.path === '/1.0/user/backlog' && request.method === 'PUT') {
        const [order] = JSON.parse(request.body) as PostOrder[];
        const refusal = postOrderRefusal(order);
        if (refusal) return { status: 200, body: { errors: [{ 'error-codes': [refusal], position: 0 }] } };
        // "до востребования" to an office the passport no longer lists: refused as the API refuses an unknown index
        const offices = (self.directory ?? PASSPORT_SAMPLE) as Array<{ address?: { index?: string } }>;
        if (
          order['address-type-to'] === 'DEMAND' &&
          !offices.some((office) => office.address?.index === String(order['index-to']))
        ) {
          return {
            status: 200,
            body: {
              errors: [
                {
                  'error-codes': [{ code: 'ILLEGAL_INDEX_TO', description: 'Почтовый индекс некорректен' }],
                  position: 0,
                },
              ],
            },
          };
        }
        sequence += 1;
        const id = 900 + sequence;
        const barcode = `8008${String(sequence).padStart(10, '0')}`;
        backlog.set(id, { number: order['order-num'], barcode });
        // what Russian Post charges for what was registered: the tariff of its category and insured value, insurance included
        const tariff = postTariff(Number(order['insr-value'] ?? 0));
        self.created.set(order['order-num'], {
          uuid: String(id),
          track: barcode,
          tariff: order['mail-category'],
          price: (tariff['total-rate'] + tariff['total-vat']) / 100,
        });
        if (self.loseNextCreate) {
          self.loseNextCreate = false;
          return { status: 504, body: { desc: 'Gateway Timeout' } };
        }
        return { status: 200, body: { 'result-ids': [id] } };
      }
      if (request.path === '/1.0/backlog/search') {
        const query = request.query.get('query');
        const found = [...backlog.entries()].find(([, entry]) => entry.number === query || entry.barcode === query);
        return {
          status: 200,
          body: found ? [{ id: found[0], barcode: found[1].barcode, 'order-num': found[1].number }] : [],
        };
      }
      const entry = /^\/1\.0\/backlog\/(\d+)$/.exec(request.path);
      if (entry && backlog.has(Number(entry[1])))
        return { status: 200, body: { id: Number(entry[1]), barcode: backlog.get(Number(entry[1]))?.barcode } };
      if (request.path === '/1.0/backlog' && request.method === 'DELETE') {
        const ids = JSON.parse(request.body) as number[];
        for (const id of ids) backlog.delete(id);
        return { status: 200, body: { 'result-ids': ids } };
      }
      if (/^\/1\.0\/forms\/\d+\/f7pdf$/.test(request.path)) return { status: 200, body: PDF };
      if (request.path === '/1.0/unloading-passport/zip') {
        // a zip of one text file TYPEdd_MMMM_yyyy.txt (the object type asked: ALL, OPS, PVZ, APS)
        const type = request.query.get('type') ?? 'ALL';
        const unloading = {
          passportElements: self.directory ?? PASSPORT_SAMPLE,
          unloadingDate: '2026-01-05T10:21:33.000Z',
          vsnapshot: '05_January_2026',
        };
        return {
          status: 200,
          type: 'application/octet-stream',
          body: Buffer.from(
            zipSync({ [`${type}05_January_2026.txt`]: strToU8(JSON.stringify(unloading, null, '\t')) }),
          ),
        };
      }
      return { status: 404, body: { desc: `No ${request.path}` } };
    },
    (mode) => commonFailure(mode, { code: '1001', desc: 'Unauthorized' }),
  );
  return fake;
}

/** The settings pointing an app at the given fakes (CDEK's and Yandex's test environments are the same fake). */
export function realCarrierEnv(fakes: {
  cdek?: FakeRealCarrier;
  boxberry?: FakeRealCarrier;
  post?: FakeRealCarrier;
  yandex?: FakeRealCarrier;
}): Record<string, string> {
  return {
    CARRIER_TIMEOUT_MS: '2000',
    ...(fakes.cdek
      ? { CARRIER_CDEK_URL: `${fakes.cdek.baseUrl}/v2`, CARRIER_CDEK_TEST_URL: `${fakes.cdek.baseUrl}/v2` }
      : {}),
    ...(fakes.boxberry ? { CARRIER_BOXBERRY_URL: `${fakes.boxberry.baseUrl}/json.php` } : {}),
    ...(fakes.post
      ? {
          CARRIER_RUSSIAN_POST_URL: fakes.post.baseUrl,
          CARRIER_RUSSIAN_POST_TRACKING_URL: `${fakes.post.baseUrl}/rtm34`,
        }
      : {}),
    ...(fakes.yandex
      ? { CARRIER_YANDEX_DELIVERY_URL: fakes.yandex.baseUrl, CARRIER_YANDEX_DELIVERY_TEST_URL: fakes.yandex.baseUrl }
      : {}),
  };
}

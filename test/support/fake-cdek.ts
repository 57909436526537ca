/**
 * The fake CDEK (API v2 under `/v2`), answering in the shapes of its documentation: tokens,
 * the tariffs, orders (what CDEK refuses in them, as its documentation says) and their
 * look-up, labels, couriers called (intakes), webhooks and the pickup-point directory. Runs
 * on the shared fake server (fake-real-carrier-server.ts, where its modes are).
 */
import { commonFailure, PDF, startFake, type FakeRealCarrier } from './fake-real-carrier-server.js';

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
  const byUuid = new Map<
    string,
    { number: string; cdekNumber: string; reads: number; items: Array<{ ware_key: string; amount: number }> }
  >();
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
        const items = (Array.isArray(body.packages) ? body.packages : []).flatMap(
          (pack: { items?: Array<{ ware_key: string; amount: number }> }) => pack.items ?? [],
        );
        byUuid.set(uuid, { number, cdekNumber, reads: 0, items });
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
        const partial = self.partialDeliveries.get(found[1].cdekNumber);
        return {
          status: 200,
          body: {
            entity: {
              uuid: found[0],
              cdek_number: found[1].cdekNumber,
              number: found[1].number,
              ...(partial
                ? {
                    packages: [
                      {
                        number: '1',
                        items: found[1].items.map((item) => ({
                          ...item,
                          delivery_amount: partial.handed[item.ware_key] ?? 0,
                        })),
                      },
                    ],
                    delivery_detail: { date: '2026-01-05', payment_sum: partial.paymentSum, payment_info: [] },
                  }
                : {}),
              statuses: [
                ...(partial || self.delivered.has(found[1].cdekNumber)
                  ? [{ code: 'DELIVERED', name: 'Вручен', date_time: '2026-01-05T12:00:00+0000', city: 'Москва' }]
                  : []),
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
      // "Регистрация клиентского возврата": only of an order in its final status DELIVERED, with a tariff back
      const clientReturn = /^\/orders\/([\w-]+)\/clientReturn$/.exec(path);
      if (clientReturn && request.method === 'POST') {
        const original = byUuid.get(clientReturn[1]);
        if (!original)
          return {
            status: 404,
            body: { requests: [{ state: 'INVALID', errors: [{ code: 'v2_entity_not_found', message: 'Not found' }] }] },
          };
        const tariffCode = (JSON.parse(request.body || '{}') as { tariff_code?: unknown }).tariff_code;
        const problems = [
          ...(self.delivered.has(original.cdekNumber)
            ? []
            : [{ code: 'v2_order_not_delivered', message: 'Client return is possible only for a delivered order' }]),
          ...(CDEK_TARIFFS.some((tariff) => tariff.tariff_code === tariffCode)
            ? []
            : [{ code: 'v2_field_is_empty', message: 'Field tariff_code is empty or unknown' }]),
        ];
        if (problems.length > 0)
          return { status: 400, body: { requests: [{ type: 'CREATE', state: 'INVALID', errors: problems }] } };
        sequence += 1;
        const uuid = `72753031-${String(sequence).padStart(4, '0')}-4f1b-a55d-f0d3b0b5d1c4`;
        const cdekNumber = String(1100000000 + sequence);
        byUuid.set(uuid, { number: `return-of-${original.number}`, cdekNumber, reads: 0, items: original.items });
        self.created.set(`return-of-${original.number}`, { uuid, track: cdekNumber });
        return {
          status: 202,
          body: { entity: { uuid }, requests: [{ request_uuid: 'r2', type: 'CREATE', state: 'ACCEPTED' }] },
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

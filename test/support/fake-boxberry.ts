/**
 * The fake Boxberry (`json.php`), answering in the shapes of its documentation, refusals as
 * HTTP 200 with `{err}`: the costs, parcels (ParselCreate's `sdata` checked as its API help
 * and SDK say), their information, statuses, deletion and storage date, the points and the
 * labels. Runs on the shared fake server (fake-real-carrier-server.ts, where its modes are).
 */
import { commonFailure, DROP_CONNECTION, PDF, startFake, type FakeRealCarrier } from './fake-real-carrier-server.js';

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

/**
 * The fake Russian Post (the otpravka API and the tracking SOAP service under `/rtm34`),
 * answering in the shapes of its documentation: the tariff, orders put in the backlog (and
 * what it refuses in them), found and deleted, their F7 labels, the post-office passport's
 * unloading (zipped) and an order's history. Runs on the shared fake server
 * (fake-real-carrier-server.ts, where its modes are).
 */
import { strToU8, zipSync } from 'fflate';
import { commonFailure, PDF, startFake, type FakeRealCarrier } from './fake-real-carrier-server.js';

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
      // "Создание возвратного отправления для уже созданного": only of a parcel that was delivered, as a parcel
      if (request.path === '/1.0/returns' && request.method === 'PUT') {
        const body = JSON.parse(request.body || '{}') as { 'direct-barcode'?: unknown; 'mail-type'?: unknown };
        const direct = String(body['direct-barcode'] ?? '');
        const known = [...backlog.values()].some((item) => item.barcode === direct);
        const errors = [
          ...(known ? [] : [{ code: 'DIRECT_SHIPMENT_NOT_FOUND', description: 'Прямое отправление не найдено' }]),
          ...(known && !self.delivered.has(direct)
            ? [{ code: 'DIRECT_SHIPMENT_NOT_DELIVERED', description: 'Прямое отправление не вручено' }]
            : []),
          ...(body['mail-type'] === 'POSTAL_PARCEL'
            ? []
            : [{ code: 'ILLEGAL_MAIL_TYPE', description: 'Недопустимый вид отправления' }]),
        ];
        if (errors.length) return { status: 400, body: { errors } };
        sequence += 1;
        const barcode = `8009${String(sequence).padStart(10, '0')}`;
        self.created.set(`return-of-${direct}`, { uuid: barcode, track: barcode });
        return { status: 200, body: { 'return-barcode': barcode } };
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

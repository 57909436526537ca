/**
 * Ozon, Wildberries and Yandex Market seller APIs on loopback, answering in their documented
 * shapes (see the sources at the top of each src/marketplaces/<name>/mapper.ts): one server,
 * each marketplace under its own paths, each checking its own auth headers.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeMarketplaces {
  baseUrl: string;
  ozon: { clientId: string; apiKey: string; postings: Array<Record<string, unknown>> };
  /** `statuses`: what POST /api/v3/orders/status answers per order id (default new/waiting). */
  /** `warehouses`: what GET /api/v3/warehouses answers (null: HTTP 500). */
  wildberries: {
    token: string;
    orders: Array<Record<string, unknown>>;
    statuses: Map<number, { supplierStatus: string; wbStatus: string }>;
    warehouses: Array<Record<string, unknown>> | null;
  };
  yandex: { campaignId: string; apiKey: string; orders: Array<Record<string, unknown>> };
  /** The next order-list calls answer these statuses first (429 with Retry-After seconds). */
  failures: Array<{ status: number; retryAfter?: number }>;
  /** Every call: method, path with query, headers. */
  calls: Array<{ method: string; url: string; headers: http.IncomingHttpHeaders }>;
  close(): Promise<void>;
}

export function ozonPosting(n: number, overrides: Record<string, unknown> = {}) {
  return {
    posting_number: `0${n}-0001-1`,
    order_id: 1000 + n,
    order_number: `0${n}-0001`,
    status: 'awaiting_packaging',
    in_process_at: new Date(Date.UTC(2026, 10, 1, 10, 0, n % 60)).toISOString(),
    shipment_date: '2026-11-02T10:00:00Z',
    delivering_date: null,
    tpl_integration_type: 'ozon',
    delivery_method: { id: 1, name: 'Ozon Логистика', warehouse_id: 1020000101, warehouse: 'Подольск FBS' },
    products: [
      {
        price: '1390.000000',
        offer_id: `OFFER-${n}`,
        name: `Товар ${n}`,
        sku: 500000 + n,
        quantity: 1,
        currency_code: 'RUB',
      },
    ],
    ...overrides,
  };
}

export function wildberriesOrder(id: number, overrides: Record<string, unknown> = {}) {
  return {
    id,
    rid: `rid-${id}`,
    orderUid: `uid-${id}`,
    article: `ART-${id}`,
    nmId: 7000 + id,
    chrtId: 1,
    skus: [`46000000${id}`],
    price: 129_900,
    convertedPrice: 129_900,
    currencyCode: 643,
    createdAt: '2026-11-01T10:00:00Z',
    warehouseId: 2000101,
    officeId: 1,
    offices: ['Подольск'],
    deliveryType: 'fbs',
    address: null,
    ...overrides,
  };
}

export function yandexOrder(id: number, overrides: Record<string, unknown> = {}) {
  return {
    id,
    status: 'PROCESSING',
    substatus: 'STARTED',
    creationDate: '01-11-2026 13:00:00',
    itemsTotal: 2500,
    deliveryTotal: 99,
    items: [{ id: 1, offerId: `YM-${id}`, offerName: `Товар Маркета ${id}`, price: 2500, count: 1 }],
    delivery: {
      deliveryPartnerType: 'YANDEX_MARKET',
      region: { name: 'Москва' },
      address: { country: 'Россия', city: 'Москва', street: 'Тверская', house: '1', block: null, apartment: '5' },
      shipments: [{ id: 1, shipmentDate: '02-11-2026' }],
    },
    ...overrides,
  };
}

function send(
  response: http.ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

export async function startFakeMarketplaces(): Promise<FakeMarketplaces> {
  const state: Omit<FakeMarketplaces, 'baseUrl' | 'close'> = {
    ozon: { clientId: '123456', apiKey: 'ozon-api-key-0123456789', postings: [] },
    wildberries: {
      token: 'wb-token-abcdefghijklmnop',
      orders: [],
      statuses: new Map(),
      warehouses: [{ id: 2000101, officeId: 1, name: 'Подольск', cargoType: 1, deliveryType: 1 }],
    },
    yandex: { campaignId: '21000001', apiKey: 'ACMA:ym-api-key-0123456789', orders: [] },
    failures: [],
    calls: [],
  };
  const failure = (response: http.ServerResponse): boolean => {
    const next = state.failures.shift();
    if (!next) return false;
    if (next.status === 429)
      send(
        response,
        429,
        { title: 'too many requests', detail: 'limited', status: 429 },
        next.retryAfter !== undefined ? { 'retry-after': String(next.retryAfter) } : {},
      );
    else send(response, next.status, { message: 'internal error' });
    return true;
  };
  const server = http.createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    request.on('end', () => {
      state.calls.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers });
      const url = new URL(request.url ?? '/', 'http://fake');
      const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
      // Ozon
      if (url.pathname.startsWith('/v1/warehouse/') || url.pathname.startsWith('/v3/posting/')) {
        if (request.headers['client-id'] !== state.ozon.clientId || request.headers['api-key'] !== state.ozon.apiKey)
          return send(response, 403, { code: 7, message: 'Invalid Api-Key, please contact support', details: [] });
        if (url.pathname === '/v1/warehouse/list')
          return send(response, 200, { result: [{ warehouse_id: 1020000101, name: 'Подольск FBS', is_rfbs: false }] });
        if (url.pathname === '/v3/posting/fbs/get') {
          const posting = state.ozon.postings.find((item) => item.posting_number === body.posting_number);
          return posting
            ? send(response, 200, { result: posting })
            : send(response, 404, { code: 5, message: 'Posting not found', details: [] });
        }
        if (failure(response)) return;
        const limit = Number(body.limit);
        const offset = Number(body.offset);
        const postings = state.ozon.postings.slice(offset, offset + limit);
        return send(response, 200, { result: { postings, has_next: offset + limit < state.ozon.postings.length } });
      }
      // Wildberries
      if (url.pathname.startsWith('/api/v3/')) {
        if (request.headers.authorization !== state.wildberries.token)
          return send(response, 401, {
            title: 'unauthorized',
            detail: 'token is malformed',
            code: 'b4b3a4ee',
            status: 401,
            statusText: 'Unauthorized',
          });
        if (url.pathname === '/api/v3/warehouses')
          return state.wildberries.warehouses
            ? send(response, 200, state.wildberries.warehouses)
            : send(response, 500, { title: 'internal error', status: 500 });
        if (url.pathname === '/api/v3/orders/status' && request.method === 'POST') {
          const ids = Array.isArray(body.orders) ? (body.orders as number[]) : [];
          return send(response, 200, {
            orders: ids.map((id) => ({
              id,
              ...(state.wildberries.statuses.get(id) ?? { supplierStatus: 'new', wbStatus: 'waiting' }),
            })),
          });
        }
        if (failure(response)) return;
        const limit = Number(url.searchParams.get('limit'));
        const next = Number(url.searchParams.get('next'));
        const orders = state.wildberries.orders.filter((order) => Number(order.id) > next).slice(0, limit);
        return send(response, 200, { next: orders.length ? Number(orders[orders.length - 1]?.id) : next, orders });
      }
      // Yandex Market
      const campaign = url.pathname.match(/^\/v2\/campaigns\/(\d+)(\/orders)?(?:\/(\d+))?$/);
      if (campaign) {
        if (request.headers['api-key'] !== state.yandex.apiKey)
          return send(response, 401, {
            status: 'ERROR',
            errors: [{ code: 'UNAUTHORIZED', message: 'Api-Key is invalid' }],
          });
        if (campaign[1] !== state.yandex.campaignId)
          return send(response, 403, {
            status: 'ERROR',
            errors: [{ code: 'FORBIDDEN', message: 'Access to the campaign is denied' }],
          });
        if (!campaign[2])
          return send(response, 200, {
            campaign: { id: Number(state.yandex.campaignId), domain: 'shop.example', placementType: 'FBS' },
          });
        if (campaign[3]) {
          const order = state.yandex.orders.find((item) => String(item.id) === campaign[3]);
          return order
            ? send(response, 200, { order })
            : send(response, 404, { status: 'ERROR', errors: [{ code: 'NOT_FOUND', message: 'Order not found' }] });
        }
        if (failure(response)) return;
        const limit = Number(url.searchParams.get('limit') ?? 50);
        const offset = Number(url.searchParams.get('page_token') ?? 0);
        const orders = state.yandex.orders.slice(offset, offset + limit);
        const more = offset + limit < state.yandex.orders.length;
        return send(response, 200, {
          pager: { pageSize: orders.length },
          orders,
          paging: more ? { nextPageToken: String(offset + limit) } : {},
        });
      }
      send(response, 404, { message: 'not found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

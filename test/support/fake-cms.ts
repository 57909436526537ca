/**
 * Small fakes of the shop plugins' API endpoints (widget-era.md 3.5), each reading requests
 * as its plugin does: the resource from its own URL scheme, fields from $_POST (so only a
 * form-encoded body is seen), the `token` header (Diafan: Token, Shop-Id, Api-Key), and its
 * own answers for success, a missing field, an unknown order and a wrong token.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakePlatform = 'woocommerce' | 'bitrix' | 'opencart' | 'diafan';

export interface PluginCall {
  resource: string;
  method: string;
  contentType: string;
  headers: http.IncomingHttpHeaders;
  /** $_POST as PHP fills it: empty unless the body is form-encoded. */
  post: Record<string, string>;
  status: number;
}

export interface FakeCms {
  platform: FakePlatform;
  /** The "CMS API path" the shop types in the service. */
  apiUrl: string;
  calls: PluginCall[];
  /** Orders the plugin stored an id for: id -> the CMS status applied last. */
  orders: Map<string, string>;
  /** WooCommerce products by vendorCode -> stock quantity. */
  stock: Map<string, number>;
  token: string;
  shopId: string;
  apiKey: string;
  close(): Promise<void>;
}

const STATUSES: Record<FakePlatform, Record<string, string>> = {
  woocommerce: { 'wc-pending': 'Ожидает оплаты', 'wc-processing': 'Обработка', 'wc-completed': 'Выполнен' },
  bitrix: { N: 'Принят', P: 'Оплачен', F: 'Выполнен' },
  opencart: { '1': 'Pending', '2': 'Processing', '5': 'Complete' },
  diafan: { '1': 'Новый', '3': 'Выполнен' },
};
const PAYMENTS: Record<FakePlatform, Record<string, string>> = {
  woocommerce: { cod: 'Оплата при доставке', saferoute: 'SafeRoute' },
  bitrix: { '1': 'Наличные', '2': 'Карта' },
  opencart: { cod: 'Cash On Delivery' },
  diafan: { '1': 'Наличными курьеру' },
};

/** Where each plugin answers, and the resource name it finds in a request URL. */
const ROUTES: Record<FakePlatform, { base: string; resourceOf(url: URL): string | null }> = {
  woocommerce: {
    base: '/wp-json/saferoute-api/',
    resourceOf: (url) =>
      url.pathname.startsWith('/wp-json/saferoute-api/') ? url.pathname.slice('/wp-json/saferoute-api/'.length) : null,
  },
  // .htaccess rewrites <base><name> to sr-api.php?r=<name>
  bitrix: {
    base: '/bitrix/components/saferoute.widget/api/',
    resourceOf: (url) =>
      url.pathname.startsWith('/bitrix/components/saferoute.widget/api/')
        ? url.pathname.slice('/bitrix/components/saferoute.widget/api/'.length)
        : null,
  },
  // the name is found with strpos on `route`
  opencart: {
    base: '/index.php?route=extension/module/saferoute/api/',
    resourceOf: (url) => {
      const route = url.searchParams.get('route') ?? '';
      for (const name of ['statuses.json', 'payment-methods.json', 'order-status-update'])
        if (route.includes(name)) return name;
      return null;
    },
  },
  // $_GET['rewrite'] = saferoute/api/<name>
  diafan: {
    base: '/delivery/get/saferoute/api/',
    resourceOf: (url) =>
      url.pathname.startsWith('/delivery/get/saferoute/api/')
        ? url.pathname.slice('/delivery/get/saferoute/api/'.length)
        : null,
  },
};

function json(response: http.ServerResponse, status: number, body: unknown): number {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  return status;
}
function bare(response: http.ServerResponse, status: number): number {
  response.writeHead(status).end();
  return status;
}

export async function startFakeCms(platform: FakePlatform, token: string, shopId = '', apiKey = ''): Promise<FakeCms> {
  const cms: FakeCms = {
    platform,
    apiUrl: '',
    calls: [],
    orders: new Map(),
    stock: new Map(),
    token,
    shopId,
    apiKey,
    close: async () => undefined,
  };
  const route = ROUTES[platform];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://cms.test');
      const contentType = String(request.headers['content-type'] ?? '');
      const post = contentType.startsWith('application/x-www-form-urlencoded')
        ? Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')))
        : {};
      const resource = route.resourceOf(url) ?? '';
      const status = answer(resource, request, response, post);
      cms.calls.push({ resource, method: request.method ?? '', contentType, headers: request.headers, post, status });
    });
  });

  function answer(
    resource: string,
    request: http.IncomingMessage,
    response: http.ServerResponse,
    post: Record<string, string>,
  ): number {
    const header = (name: string) => String(request.headers[name] ?? '');
    // auth, as each plugin checks it
    if (platform === 'diafan') {
      if (header('token') !== cms.token || header('shop-id') !== cms.shopId || header('api-key') !== cms.apiKey)
        return json(response, 200, { status: 'error', error: 'Неверные данные авторизации' });
    } else if (header('token') !== cms.token) {
      return platform === 'woocommerce'
        ? json(response, 401, { code: 'invalid_token', message: 'Invalid token', data: { status: 401 } })
        : bare(response, 401);
    }
    if (resource === 'statuses.json' && request.method === 'GET') return json(response, 200, STATUSES[platform]);
    if (resource === 'payment-methods.json' && request.method === 'GET') return json(response, 200, PAYMENTS[platform]);
    if (resource === 'order-status-update' && request.method === 'POST') {
      if (platform === 'woocommerce') {
        if (!post.id) return json(response, 400, { code: 'id_is_required' });
        if (!cms.orders.has(post.id)) return json(response, 404, { code: 'not_found' });
        if (post.statusCMS) cms.orders.set(post.id, post.statusCMS);
        return json(response, 200, { status: 'ok' });
      }
      if (platform === 'diafan') {
        if (!post.id || !cms.orders.has(post.id))
          return json(response, 200, { status: 'error', error: 'Заказ не найден' });
        cms.orders.set(post.id, post.statusCMS);
        return json(response, 200, { status: 'ok' });
      }
      // Bitrix, OpenCart: id and statusCMS required, else a bare 400; success a bare 200
      if (!post.id || !post.statusCMS) return bare(response, 400);
      if (cms.orders.has(post.id)) cms.orders.set(post.id, post.statusCMS);
      return bare(response, 200);
    }
    if (resource === 'product-quantity-update' && request.method === 'POST' && platform === 'woocommerce') {
      if (!post.vendorCode) return json(response, 400, { code: 'vendor_code_is_required' });
      if (post.quantity === undefined) return json(response, 400, { code: 'quantity_is_required' });
      if (!/^\d+$/.test(post.quantity)) return json(response, 400, { code: 'invalid_quantity' });
      if (!cms.stock.has(post.vendorCode)) return json(response, 404, { code: 'not_found' });
      cms.stock.set(post.vendorCode, Number(post.quantity));
      return json(response, 200, { status: 'ok' });
    }
    return bare(response, 404);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cms.apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}${route.base}`;
  cms.close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return cms;
}

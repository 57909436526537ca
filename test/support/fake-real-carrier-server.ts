/**
 * The loopback server every fake delivery company runs on (fake-cdek.ts, fake-boxberry.ts,
 * fake-russian-post.ts, fake-yandex-delivery.ts): it records each call and its body, and
 * answers with the company's handler. `mode` makes every call after the token fail as told:
 * `invalid` (the company's validation refusal), `auth` (credentials refused), `429`, `500`,
 * `slow` (answers after `delayMs`). `loseNextCreate` makes the next order creation happen but
 * its answer a 500 (a lost answer); `dropNextCreate` (Boxberry) makes it happen and then
 * drops the connection in the middle of its answer. `retryAfter` (seconds, as the header
 * says it) goes with every 429 when set. (fake-carrier.ts is another fake: the generic
 * company the http driver speaks to.)
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

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
  /**
   * CDEK: parcels handed over in part, by track number: units handed over per article
   * (`ware_key`; an article left out: none) and the cash taken (roubles). The order then
   * answers DELIVERED with its items' delivery_amount and delivery_detail.payment_sum.
   */
  partialDeliveries: Map<string, { handed: Record<string, number>; paymentSum: number }>;
  /** Track numbers the company reports delivered (a test sets them): only these take a client return. */
  delivered: Set<string>;
  close(): Promise<void>;
}

/** A handler's status meaning: the answer is cut off, the connection dropped. */
export const DROP_CONNECTION = -1;

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
    partialDeliveries: new Map(),
    delivered: new Set(),
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

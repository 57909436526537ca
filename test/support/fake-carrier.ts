/**
 * A delivery company on loopback for the http driver: answers after `delayMs`, or fails as told.
 *
 * Paths (all POST, JSON): /quote, /orders, /cancel, /track, /extend-hold, and the pickups:
 * /pickups (book: {number, timeFrom, timeTo}, or `pickupRefusal` as 422 {message}),
 * /pickups/cancel ({number}; `pickupCancelStatus`), /pickups/status ({number} -> {state}, from
 * `pickupState`, "scheduled" unless told).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeCarrierOptions {
  delayMs?: number;
  mode?: 'ok' | 'error' | 'garbage';
  /** Price in roubles of a courier delivery. */
  price?: number;
  /** Card-on-delivery commission, percent (else the cash one). */
  codCardPercent?: number;
  /** What POST /track answers for the asked track numbers (else `[]`). */
  track?: (trackNumbers: string[]) => unknown[];
  /** The HTTP status POST /extend-hold answers (else 200: granted). */
  extendHoldStatus?: number;
  /** POST /pickups refuses with 422 and this message (else it books). */
  pickupRefusal?: string;
  /** The HTTP status POST /pickups/cancel answers (else 200). */
  pickupCancelStatus?: number;
  /** What POST /pickups/status answers for a pickup number (else "scheduled"). */
  pickupState?: (number: string) => 'scheduled' | 'done' | 'canceled';
}

export interface FakeCarrier {
  baseUrl: string;
  requests: number;
  /** Bodies of the POST /extend-hold calls received. */
  holdExtensions: unknown[];
  /** Bodies of the POST /pickups calls received (bookings). */
  pickupBookings: Array<Record<string, unknown>>;
  /** Numbers of the POST /pickups/cancel calls received. */
  pickupCancels: string[];
  close(): Promise<void>;
}

export async function startFakeCarrier(options: FakeCarrierOptions = {}): Promise<FakeCarrier> {
  const state = {
    requests: 0,
    holdExtensions: [] as unknown[],
    pickupBookings: [] as Array<Record<string, unknown>>,
    pickupCancels: [] as string[],
  };
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      state.requests += 1;
      const timer = setTimeout(() => {
        if (options.mode === 'error') {
          response.writeHead(502, { 'content-type': 'application/json' }).end('{"error":"upstream down"}');
          return;
        }
        if (options.mode === 'garbage') {
          response.writeHead(200, { 'content-type': 'text/html' }).end('<html>maintenance</html>');
          return;
        }
        const asked = (JSON.parse(body || '{}') as { types?: number[] }).types ?? [2];
        if (request.url === '/quote') {
          const quotes = asked
            .filter((type) => type === 2)
            .map((type) => ({
              type,
              tariffName: 'Remote courier',
              price: options.price ?? 333,
              daysMin: 1,
              daysMax: 2,
              services: [{ id: 1, price: 10 }],
              codPercent: 1,
              ...(options.codCardPercent !== undefined ? { codCardPercent: options.codCardPercent } : {}),
            }));
          response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(quotes));
          return;
        }
        if (request.url === '/orders') {
          response
            .writeHead(200, { 'content-type': 'application/json' })
            .end(JSON.stringify({ trackNumber: 'REMOTE1', trackingUrl: 'http://carrier.test/REMOTE1' }));
          return;
        }
        if (request.url === '/extend-hold') {
          state.holdExtensions.push(JSON.parse(body || '{}'));
          const status = options.extendHoldStatus ?? 200;
          response
            .writeHead(status, { 'content-type': 'application/json' })
            .end(status === 200 ? '{"granted":true}' : '{"error":"storage cannot be extended"}');
          return;
        }
        if (request.url === '/pickups') {
          const booking = JSON.parse(body || '{}') as Record<string, unknown> & {
            pickupId?: number;
            hours?: { from: string; to: string };
          };
          state.pickupBookings.push(booking);
          if (options.pickupRefusal) {
            response
              .writeHead(422, { 'content-type': 'application/json' })
              .end(JSON.stringify({ message: options.pickupRefusal }));
            return;
          }
          response
            .writeHead(200, { 'content-type': 'application/json' })
            .end(JSON.stringify({ number: `RP-${booking.pickupId}`, timeFrom: '11:00', timeTo: '15:00' }));
          return;
        }
        if (request.url === '/pickups/cancel') {
          state.pickupCancels.push(String((JSON.parse(body || '{}') as { number?: string }).number));
          const status = options.pickupCancelStatus ?? 200;
          response
            .writeHead(status, { 'content-type': 'application/json' })
            .end(status === 200 ? '{"canceled":true}' : '{"message":"the courier is already on the way"}');
          return;
        }
        if (request.url === '/pickups/status') {
          const number = String((JSON.parse(body || '{}') as { number?: string }).number);
          response
            .writeHead(200, { 'content-type': 'application/json' })
            .end(JSON.stringify({ state: options.pickupState?.(number) ?? 'scheduled' }));
          return;
        }
        if (request.url === '/track' && options.track) {
          const trackNumbers = (JSON.parse(body || '{}') as { trackNumbers?: string[] }).trackNumbers ?? [];
          response
            .writeHead(200, { 'content-type': 'application/json' })
            .end(JSON.stringify(options.track(trackNumbers)));
          return;
        }
        response.writeHead(200, { 'content-type': 'application/json' }).end('[]');
      }, options.delayMs ?? 0);
      response.on('close', () => clearTimeout(timer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    get requests() {
      return state.requests;
    },
    holdExtensions: state.holdExtensions,
    pickupBookings: state.pickupBookings,
    pickupCancels: state.pickupCancels,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

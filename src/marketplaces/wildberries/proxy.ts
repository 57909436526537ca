/** Wildberries marketplace API calls (I/O only; shapes in mapper.ts). */
import { callJson } from '../http.js';
import type { Credentials } from '../types.js';

export class WildberriesProxy {
  constructor(private readonly baseUrl: string) {}

  private headers(credentials: Credentials): Record<string, string> {
    return { Authorization: credentials.token ?? '' };
  }

  warehouses(credentials: Credentials, signal: AbortSignal): Promise<unknown> {
    return callJson(
      'Wildberries',
      { method: 'GET', url: `${this.baseUrl}/api/v3/warehouses`, headers: this.headers(credentials) },
      signal,
    );
  }

  /** POST /api/v3/orders/status {orders: [ids]} (at most 1000 ids). */
  statuses(credentials: Credentials, ids: number[], signal: AbortSignal): Promise<unknown> {
    return callJson(
      'Wildberries',
      {
        method: 'POST',
        url: `${this.baseUrl}/api/v3/orders/status`,
        headers: this.headers(credentials),
        body: { orders: ids },
      },
      signal,
    );
  }

  orders(credentials: Credentials, query: URLSearchParams, signal: AbortSignal): Promise<unknown> {
    return callJson(
      'Wildberries',
      { method: 'GET', url: `${this.baseUrl}/api/v3/orders?${query}`, headers: this.headers(credentials) },
      signal,
    );
  }
}

/** Ozon Seller API calls (I/O only; shapes in mapper.ts). */
import { callJson } from '../http.js';
import type { Credentials } from '../types.js';

export class OzonProxy {
  constructor(private readonly baseUrl: string) {}

  private headers(credentials: Credentials): Record<string, string> {
    return { 'Client-Id': credentials.clientId ?? '', 'Api-Key': credentials.apiKey ?? '' };
  }

  warehouses(credentials: Credentials, signal: AbortSignal): Promise<unknown> {
    return callJson(
      'Ozon',
      { method: 'POST', url: `${this.baseUrl}/v1/warehouse/list`, headers: this.headers(credentials), body: {} },
      signal,
    );
  }

  /** POST /v3/posting/fbs/get: one posting by its number. */
  posting(credentials: Credentials, postingNumber: string, signal: AbortSignal): Promise<unknown> {
    return callJson(
      'Ozon',
      {
        method: 'POST',
        url: `${this.baseUrl}/v3/posting/fbs/get`,
        headers: this.headers(credentials),
        body: { posting_number: postingNumber, with: { analytics_data: false, financial_data: false } },
      },
      signal,
    );
  }

  postings(credentials: Credentials, body: unknown, signal: AbortSignal): Promise<unknown> {
    return callJson(
      'Ozon',
      { method: 'POST', url: `${this.baseUrl}/v3/posting/fbs/list`, headers: this.headers(credentials), body },
      signal,
    );
  }
}

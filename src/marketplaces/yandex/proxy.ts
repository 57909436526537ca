/** Yandex Market Partner API calls (I/O only; shapes in mapper.ts). */
import { callJson } from '../http.js';
import type { Credentials } from '../types.js';

export class YandexProxy {
  constructor(private readonly baseUrl: string) {}

  private campaignUrl(credentials: Credentials): string {
    return `${this.baseUrl}/v2/campaigns/${encodeURIComponent(credentials.campaignId ?? '')}`;
  }

  campaign(credentials: Credentials, signal: AbortSignal): Promise<unknown> {
    return callJson(
      'Yandex Market',
      { method: 'GET', url: this.campaignUrl(credentials), headers: { 'Api-Key': credentials.apiKey ?? '' } },
      signal,
    );
  }

  /** GET /v2/campaigns/{campaignId}/orders/{orderId}. */
  order(credentials: Credentials, orderId: string, signal: AbortSignal): Promise<unknown> {
    return callJson(
      'Yandex Market',
      {
        method: 'GET',
        url: `${this.campaignUrl(credentials)}/orders/${encodeURIComponent(orderId)}`,
        headers: { 'Api-Key': credentials.apiKey ?? '' },
      },
      signal,
    );
  }

  orders(credentials: Credentials, query: URLSearchParams, signal: AbortSignal): Promise<unknown> {
    return callJson(
      'Yandex Market',
      {
        method: 'GET',
        url: `${this.campaignUrl(credentials)}/orders?${query}`,
        headers: { 'Api-Key': credentials.apiKey ?? '' },
      },
      signal,
    );
  }
}

/**
 * Russian Post, the I/O only: the otpravka API (https://otpravka-api.pochta.ru) with
 * `Authorization: AccessToken <token>` and `X-User-Authorization: Basic <base64 login:password>`,
 * and the tracking service (https://tracking.russianpost.ru/rtm34, SOAP 1.2) with its own login.
 */
import { exchange, jsonOf, type RemoteAnswer } from '../remote-call.js';
import { CarrierError } from '../types.js';

export interface RussianPostCredentials {
  accessToken: string;
  login: string;
  password: string;
  /** The sender's post office index (where parcels are handed in). */
  indexFrom: string;
  /** The tracking service's own login and password (tracking.pochta.ru). */
  trackingLogin: string;
  trackingPassword: string;
}

export class RussianPostProxy {
  constructor(
    readonly companyId: number,
    private readonly baseUrl: string,
    private readonly trackingUrl: string,
    private readonly credentials: RussianPostCredentials,
  ) {}

  private headers(): Record<string, string> {
    const basic = Buffer.from(`${this.credentials.login}:${this.credentials.password}`).toString('base64');
    return { authorization: `AccessToken ${this.credentials.accessToken}`, 'x-user-authorization': `Basic ${basic}` };
  }

  async raw(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    signal: AbortSignal,
    json?: unknown,
    accept?: string,
  ): Promise<RemoteAnswer> {
    return exchange(
      this.companyId,
      {
        method,
        url: `${this.baseUrl.replace(/\/+$/, '')}${path}`,
        headers: { ...this.headers(), ...(accept ? { accept } : {}) },
        json,
      },
      signal,
    );
  }

  /** A 4xx answer as a refusal naming its `desc` (or `message`). */
  private refusal(answer: RemoteAnswer, body: unknown): CarrierError {
    const reason = body as { desc?: unknown; message?: unknown } | null;
    const text =
      typeof reason?.desc === 'string'
        ? reason.desc
        : typeof reason?.message === 'string'
          ? reason.message
          : `answered ${answer.status}`;
    return new CarrierError(this.companyId, `Russian Post refused: ${text.slice(0, 500)}`);
  }

  /** A call whose 4xx answer is a refusal (its `desc` or `error-codes` named). */
  async call(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    signal: AbortSignal,
    json?: unknown,
  ): Promise<unknown> {
    const answer = await this.raw(method, path, signal, json);
    const body = jsonOf(this.companyId, answer);
    if (answer.status >= 400) throw this.refusal(answer, body);
    return body;
  }

  /** A file (`Accept: application/octet-stream`, e.g. the post-office passport's zip) as bytes; a 4xx is a refusal. */
  async download(path: string, signal: AbortSignal): Promise<Buffer> {
    const answer = await this.raw('GET', path, signal, undefined, 'application/octet-stream');
    if (answer.status >= 400) {
      let body: unknown = null;
      try {
        body = JSON.parse(answer.text);
      } catch {
        // not JSON: the status names it
      }
      throw this.refusal(answer, body);
    }
    return answer.bytes;
  }

  async soap(envelope: string, signal: AbortSignal): Promise<string> {
    const answer = await exchange(
      this.companyId,
      {
        method: 'POST',
        url: this.trackingUrl,
        headers: { 'content-type': 'application/soap+xml;charset=UTF-8', accept: 'application/soap+xml' },
        rawBody: envelope,
      },
      signal,
    );
    return answer.text;
  }
}

/**
 * Boxberry, the I/O only: every method is `json.php?token=…&method=…` (GET with its
 * parameters, or a POST form with `sdata` JSON); base URL https://api.boxberry.ru/json.php.
 * Boxberry answers refusals with HTTP 200 and `{"err": "..."}`; a refusal naming the token
 * (or access) is a CarrierAuthError.
 */
import { CarrierAuthError, exchange, jsonOf, type RemoteAnswer } from '../remote-call.js';
import { CarrierError } from '../types.js';
import { errorOf } from './mapper.js';

const AUTH_WORDS = /token|токен|ключ|авториз|доступ/i;

export class BoxberryProxy {
  constructor(
    readonly companyId: number,
    private readonly baseUrl: string,
    private readonly token: string,
  ) {}

  async get(method: string, params: Record<string, string>, signal: AbortSignal): Promise<unknown> {
    const query = new URLSearchParams({ token: this.token, method, ...params });
    return this.read(
      await exchange(this.companyId, { method: 'GET', url: `${this.baseUrl}?${query.toString()}` }, signal),
    );
  }

  async post(method: string, sdata: unknown, signal: AbortSignal): Promise<unknown> {
    return this.read(
      await exchange(
        this.companyId,
        { method: 'POST', url: this.baseUrl, form: { token: this.token, method, sdata: JSON.stringify(sdata) } },
        signal,
      ),
    );
  }

  /** A file Boxberry links to (a label), as bytes. */
  async download(url: string, signal: AbortSignal): Promise<RemoteAnswer> {
    return exchange(this.companyId, { method: 'GET', url }, signal);
  }

  private read(answer: RemoteAnswer): unknown {
    const body = jsonOf(this.companyId, answer);
    const refusal = errorOf(body);
    if (refusal !== null) {
      if (AUTH_WORDS.test(refusal))
        throw new CarrierAuthError(this.companyId, `Boxberry refused the token: ${refusal}`, refusal);
      throw new CarrierError(this.companyId, `Boxberry refused: ${refusal}`);
    }
    if (answer.status >= 400) throw new CarrierError(this.companyId, `Boxberry answered ${answer.status}.`);
    return body;
  }
}

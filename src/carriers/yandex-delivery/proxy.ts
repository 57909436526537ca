/**
 * Yandex Delivery's "other day" platform API, the I/O only: paths under
 * `{host}/api/b2b/platform/` (live https://b2b-authproxy.taxi.yandex.net, test
 * https://b2b.taxi.tst.yandex.net), `Authorization: Bearer <OAuth token>` from the
 * account's cabinet (it does not expire). Refusals are `{code, message}` with 4xx.
 */
import { CarrierAuthError, companyMessageOf, exchange, jsonOf, type RemoteAnswer } from '../remote-call.js';
import { CarrierError } from '../types.js';
import { problemOf } from './mapper.js';

const API_ROOT = '/api/b2b/platform';

export class YandexDeliveryProxy {
  constructor(
    readonly companyId: number,
    private readonly baseUrl: string,
    private readonly token: string,
  ) {}

  /** An authorised call; a 4xx answer becomes a refusal naming Yandex's `message` and `code`. */
  async call(method: 'GET' | 'POST', path: string, signal: AbortSignal, json?: unknown): Promise<unknown> {
    const answer = await this.raw(method, path, signal, json);
    if (answer.status >= 400) throw this.refusal(answer);
    return jsonOf(this.companyId, answer);
  }

  /** A document Yandex answers as a file (labels): the answer, or the refusal of a 4xx. */
  async file(path: string, signal: AbortSignal, json: unknown): Promise<RemoteAnswer> {
    const answer = await this.raw('POST', path, signal, json);
    if (answer.status >= 400) throw this.refusal(answer);
    return answer;
  }

  /**
   * Like `call` for reads of one order, but null when Yandex does not hold it for this
   * client: 404 `not_found`, or 403 `customer_order_not_found` (another 403 is refused credentials).
   */
  async find(method: 'GET' | 'POST', path: string, signal: AbortSignal, json?: unknown): Promise<unknown> {
    const answer = await this.raw(method, path, signal, json, [403]);
    if (answer.status === 404) return null;
    if (answer.status === 403) {
      if ((this.bodyOf(answer) as { code?: unknown } | null)?.code === 'customer_order_not_found') return null;
      throw new CarrierAuthError(
        this.companyId,
        'The delivery company refused the credentials (403).',
        companyMessageOf(answer.text),
      );
    }
    if (answer.status >= 400) throw this.refusal(answer);
    return jsonOf(this.companyId, answer);
  }

  private bodyOf(answer: RemoteAnswer): unknown {
    try {
      return JSON.parse(answer.text) as unknown;
    } catch {
      return null;
    }
  }

  /** A 4xx answer as a refusal naming Yandex's `message` and `code`. */
  private refusal(answer: RemoteAnswer): CarrierError {
    return new CarrierError(
      this.companyId,
      `Yandex Delivery refused: ${problemOf(this.bodyOf(answer)) ?? `HTTP ${answer.status}`}`,
    );
  }

  /**
   * The answer as it came (a PDF, or a status the mapper reads). `passStatuses`: 401/403
   * statuses handed back instead of thrown as refused credentials.
   */
  private raw(
    method: 'GET' | 'POST',
    path: string,
    signal: AbortSignal,
    json?: unknown,
    passStatuses?: readonly number[],
  ): Promise<RemoteAnswer> {
    const url = `${this.baseUrl.replace(/\/+$/, '')}${API_ROOT}${path}`;
    return exchange(
      this.companyId,
      { method, url, headers: { authorization: `Bearer ${this.token}`, 'accept-language': 'ru' }, json, passStatuses },
      signal,
    );
  }
}

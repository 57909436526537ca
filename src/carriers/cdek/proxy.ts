/**
 * CDEK API v2, the I/O only: OAuth client credentials (token kept until shortly before
 * `expires_in`), paths under the base URL (https://api.cdek.ru/v2; test https://api.edu.cdek.ru/v2).
 */
import {
  CarrierAuthError,
  CarrierUnexpectedAnswerError,
  companyMessageOf,
  exchange,
  jsonOf,
  type RemoteAnswer,
} from '../remote-call.js';
import { CarrierError } from '../types.js';
import { problemText, problemsOf } from './mapper.js';

export interface CdekCredentials {
  clientId: string;
  clientSecret: string;
}

/** A token is renewed this long before CDEK says it expires. */
const TOKEN_MARGIN_MS = 60_000;

export class CdekProxy {
  private token: { value: string; expiresAt: number } | null = null;
  private pendingToken: Promise<string> | null = null;

  constructor(
    readonly companyId: number,
    private readonly baseUrl: string,
    private readonly credentials: CdekCredentials,
  ) {}

  /** POST /oauth/token; a refusal is a CarrierAuthError (CDEK answers 401 with `error: invalid_client`). */
  private async accessToken(signal: AbortSignal): Promise<string> {
    if (this.token && this.token.expiresAt > Date.now()) return this.token.value;
    // one token request at a time, however many calls wait for it
    this.pendingToken ??= (async () => {
      const query = new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: this.credentials.clientId,
        client_secret: this.credentials.clientSecret,
      });
      const answer = await exchange(
        this.companyId,
        { method: 'POST', url: `${this.root()}/oauth/token?${query.toString()}`, form: {} },
        signal,
      );
      const body = jsonOf(this.companyId, answer) as { access_token?: unknown; expires_in?: unknown } | null;
      if (answer.status >= 400)
        throw new CarrierAuthError(
          this.companyId,
          'CDEK refused the client id and secret.',
          companyMessageOf(answer.text),
        );
      if (typeof body?.access_token !== 'string')
        throw new CarrierUnexpectedAnswerError(this.companyId, 'CDEK answered the token request without a token.');
      const lifetimeMs = (typeof body.expires_in === 'number' ? body.expires_in : 3600) * 1000;
      this.token = { value: body.access_token, expiresAt: Date.now() + Math.max(0, lifetimeMs - TOKEN_MARGIN_MS) };
      return body.access_token;
    })().finally(() => {
      this.pendingToken = null;
    });
    return this.pendingToken;
  }

  private root(): string {
    return this.baseUrl.replace(/\/+$/, '');
  }

  /** An authorised call; 4xx answers with CDEK's `errors[]` become refusals naming them. */
  async call(method: 'GET' | 'POST' | 'DELETE', path: string, signal: AbortSignal, json?: unknown): Promise<unknown> {
    const answer = await this.raw(method, path, signal, json);
    const body = jsonOf(this.companyId, answer);
    if (answer.status >= 400) {
      const problems = problemsOf(body);
      throw new CarrierError(
        this.companyId,
        problems.length > 0 ? `CDEK refused: ${problemText(problems)}` : `CDEK answered ${answer.status}.`,
      );
    }
    return body;
  }

  async raw(
    method: 'GET' | 'POST' | 'DELETE',
    pathOrUrl: string,
    signal: AbortSignal,
    json?: unknown,
  ): Promise<RemoteAnswer> {
    const token = await this.accessToken(signal);
    const url = pathOrUrl.startsWith('http') ? pathOrUrl : `${this.root()}${pathOrUrl}`;
    try {
      return await exchange(
        this.companyId,
        { method, url, headers: { authorization: `Bearer ${token}` }, json },
        signal,
      );
    } catch (error) {
      // a token revoked before its time: forget it, so the next call asks for a new one
      if (error instanceof CarrierAuthError) this.token = null;
      throw error;
    }
  }

  /** Asks for a token now (checking credentials). */
  async authenticate(signal: AbortSignal): Promise<void> {
    this.token = null;
    await this.accessToken(signal);
  }
}

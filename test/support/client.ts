/** Calls the app through HTTP (fastify.inject) the way a shop plugin would. */
import qs from 'qs';
import type { App } from '../../src/platform/http.js';

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  text: string;
  headers: Record<string, string | string[] | number | undefined>;
}

export interface CallOptions {
  headers?: Record<string, string>;
  /** Send the body form-encoded with bracket keys, as PHP's http_build_query does. */
  form?: boolean;
}

/** PHP's http_build_query: booleans as 1/0, nulls left out, `a[0][b]=1` keys. */
export function phpForm(value: unknown): string {
  return qs.stringify(value, {
    arrayFormat: 'indices',
    skipNulls: true,
    filter: (_prefix, item) => (typeof item === 'boolean' ? (item ? 1 : 0) : item),
  });
}

export class ApiClient {
  constructor(
    private readonly app: App,
    readonly token?: string,
  ) {}

  withToken(token: string | undefined): ApiClient {
    return new ApiClient(this.app, token);
  }

  async call<T = any>(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    body?: unknown,
    options: CallOptions = {},
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    let payload: string | undefined;
    if (body !== undefined) {
      if (options.form) {
        headers['content-type'] = 'application/x-www-form-urlencoded';
        payload = typeof body === 'string' ? body : phpForm(body);
      } else {
        headers['content-type'] = 'application/json';
        payload = JSON.stringify(body);
      }
    }
    const response = await this.app.inject({ method, url, headers, payload });
    let parsed: unknown = undefined;
    if (response.body !== '' && String(response.headers['content-type'] ?? '').includes('json'))
      parsed = JSON.parse(response.body);
    return { status: response.statusCode, body: parsed as T, text: response.body, headers: response.headers };
  }

  get<T = any>(url: string, options?: CallOptions) {
    return this.call<T>('GET', url, undefined, options);
  }
  post<T = any>(url: string, body?: unknown, options?: CallOptions) {
    return this.call<T>('POST', url, body, options);
  }
  put<T = any>(url: string, body?: unknown, options?: CallOptions) {
    return this.call<T>('PUT', url, body, options);
  }
  patch<T = any>(url: string, body?: unknown, options?: CallOptions) {
    return this.call<T>('PATCH', url, body, options);
  }
  delete<T = any>(url: string, options?: CallOptions) {
    return this.call<T>('DELETE', url, undefined, options);
  }
}

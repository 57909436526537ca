/** The widget's calls to the service: the publishable key in the URL, our error body on refusals. */

/**
 * The answers' types come from the generated API client (clients/typescript): a change of the
 * API breaks the widget's type-check, as it breaks the client's.
 */
import type { operations } from '../../clients/typescript/src/schema.js';

type Json<K extends keyof operations, S extends 200 | 201> = operations[K]['responses'] extends {
  [status in S]: { content: { 'application/json': infer T } };
}
  ? T
  : never;
type Body<K extends keyof operations> = operations[K] extends {
  requestBody: { content: { 'application/json': infer T } };
}
  ? T
  : never;

export type Locality = Json<'searchWidgetLocalities', 200>[number];
type PointsAnswer = Json<'listWidgetPoints', 200>;
export type Point = PointsAnswer['points'][number];
export type Cluster = PointsAnswer['clusters'][number];
type QuoteAnswer = Json<'quoteWidgetCart', 200>;
export type Option = QuoteAnswer['options'][number];
export type Selection = Json<'createWidgetSelection', 201>;
export type Product = Body<'quoteWidgetCart'>['products'][number];
export type AddressSuggestion = Json<'suggestWidgetAddresses', 200>['suggestions'][number];
type AddressQuery = NonNullable<operations['suggestWidgetAddresses']['parameters']['query']>;

/** A refusal or a fault, as the `error` event carries it. */
export class WidgetError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
    readonly errors: Array<{ field?: string; message: string }> = [],
  ) {
    super(message);
  }
}

export class Api {
  constructor(
    private readonly base: string,
    private readonly key: string,
    /** The widget's locale, sent as Accept-Language: the service answers its sentences in the buyer's language. */
    private readonly language: string,
  ) {}

  private async call<T>(path: string, body?: unknown): Promise<T> {
    const url = `${this.base}/widget/v1/api${path}${path.includes('?') ? '&' : '?'}key=${encodeURIComponent(this.key)}`;
    // a safelisted header with a plain value: the GETs stay simple requests, without a preflight
    const language = { 'accept-language': this.language };
    let response: Response;
    try {
      response = await fetch(
        url,
        body === undefined
          ? { headers: language }
          : {
              method: 'POST',
              headers: { ...language, 'content-type': 'application/json' },
              body: JSON.stringify(body),
            },
      );
    } catch {
      throw new WidgetError('unreachable', 'The delivery service is unreachable.', 0);
    }
    const text = await response.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // a proxy's HTML page: reported below by the status alone
    }
    if (!response.ok) {
      const error = (parsed ?? {}) as {
        code?: string;
        message?: string;
        errors?: Array<{ field?: string; message: string }>;
      };
      throw new WidgetError(
        error.code ?? `http_${response.status}`,
        error.message ?? `HTTP ${response.status}`,
        response.status,
        error.errors ?? [],
      );
    }
    return parsed as T;
  }

  localities(q: string): Promise<Locality[]> {
    return this.call(`/localities?q=${encodeURIComponent(q)}&limit=8`);
  }

  points(query: string): Promise<PointsAnswer> {
    return this.call(`/points?${query}`);
  }

  /** Streets or houses of the city as the buyer types them (the query's `key` is the widget's own). */
  async addresses(query: Omit<AddressQuery, 'key'>): Promise<AddressSuggestion[]> {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) if (value !== undefined) search.set(name, String(value));
    return (await this.call<{ suggestions: AddressSuggestion[] }>(`/addresses/suggest?${search}`)).suggestions;
  }

  quotes(body: unknown): Promise<QuoteAnswer> {
    return this.call('/quotes', body);
  }

  select(body: unknown): Promise<Selection> {
    return this.call('/selections', body);
  }
}

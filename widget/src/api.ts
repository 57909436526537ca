/** The widget's calls to the service: the publishable key in the URL, our error body on refusals. */

export interface Locality {
  fias: string;
  name: string;
  type: string;
  region: string;
  countryCode: string;
  latitude: number;
  longitude: number;
}

export interface Point {
  id: number;
  companyId: number;
  type: number;
  name: string;
  address: string;
  latitude: number;
  longitude: number;
  schedule: Array<{ from: string; to: string } | null>;
  cashPaymentAvailable: boolean;
  cardPaymentAvailable: boolean;
  fittingAvailable: boolean;
}

export interface Cluster {
  latitude: number;
  longitude: number;
  count: number;
}

export interface Option {
  mode: number;
  companyId: number | string;
  companyName: string;
  tariffName: string | null;
  totalPrice: number;
  deliveryDays: { min: number; max: number };
  deliveryDate: { from: string; to: string };
  cashPaymentAvailable: boolean;
  cardPaymentAvailable: boolean;
  courierIntervals?: Array<{ id: number; timeFrom: string; timeTo: string; isDefault: boolean }>;
}

export interface Selection {
  token: string;
  expiresAt: string;
  quote: Option & { point: Point | null };
}

export interface Product {
  name?: string;
  vendorCode?: string;
  price: number;
  count?: number;
  weight?: number;
  width?: number;
  height?: number;
  length?: number;
}

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
  ) {}

  private async call<T>(path: string, body?: unknown): Promise<T> {
    const url = `${this.base}/widget/v1/api${path}${path.includes('?') ? '&' : '?'}key=${encodeURIComponent(this.key)}`;
    let response: Response;
    try {
      response = await fetch(url, body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
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
      const error = (parsed ?? {}) as { code?: string; message?: string; errors?: Array<{ field?: string; message: string }> };
      throw new WidgetError(error.code ?? `http_${response.status}`, error.message ?? `HTTP ${response.status}`, response.status, error.errors ?? []);
    }
    return parsed as T;
  }

  localities(q: string): Promise<Locality[]> {
    return this.call(`/localities?q=${encodeURIComponent(q)}&limit=8`);
  }

  points(query: string): Promise<{ clusters: Cluster[]; points: Point[] }> {
    return this.call(`/points?${query}`);
  }

  quotes(body: unknown): Promise<{ city: Locality; options: Option[] }> {
    return this.call('/quotes', body);
  }

  select(body: unknown): Promise<Selection> {
    return this.call('/selections', body);
  }
}

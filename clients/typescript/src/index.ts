/**
 * A typed client of the delivery service: openapi-fetch over the types generated from the
 * service's OpenAPI document (src/schema.ts). Every call is checked against the document:
 * paths, parameters, headers (Shop-Id, Idempotency-Key...), bodies and answers.
 *
 *   const api = createDeliveryClient({ baseUrl: 'http://127.0.0.1:8080', token });
 *   const order = ok(await api.GET('/v2/orders/{id}', { params: { path: { id: 42 } } }));
 */
import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, operations, paths } from './schema.js';

export type { components, operations, paths };

type Schemas = components['schemas'];
export type Order = Schemas['Order'];
export type Product = Schemas['Product'];
export type Shop = Schemas['Shop'];
export type Warehouse = Schemas['Warehouse'];
export type DeliveryCompany = Schemas['DeliveryCompany'];
export type CalculatorResult = Schemas['CalculatorResult'];
export type TrackingRecord = Schemas['TrackingRecord'];
/** The body of every error answer: `{code, message, errors[], logId}`. */
export type ErrorBody = Schemas['Error'];

/** The JSON body an operation takes, by operationId (`RequestBody<'createOrder'>`). */
export type RequestBody<Id extends keyof operations> = operations[Id] extends {
  requestBody?: { content: { 'application/json': infer Body } };
}
  ? Body
  : never;
export type OrderInput = RequestBody<'createOrder'>;
export type CalculatorInput = RequestBody<'calculateDelivery'>;

export type DeliveryClient = Client<paths>;

export interface DeliveryClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  /** Where the service answers, e.g. http://127.0.0.1:8080 (no /v2). */
  baseUrl: string;
  /** An account token, an employee login token or a shop API key. */
  token: string;
}

export function createDeliveryClient({ baseUrl, token, headers, ...options }: DeliveryClientOptions): DeliveryClient {
  return createClient<paths>({
    ...options,
    baseUrl: baseUrl.replace(/\/+$/, ''),
    headers: { ...headers, authorization: `Bearer ${token}` },
  });
}

/** An error answer of the service, with what its body says; quote `logId` to support. */
export class DeliveryApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly errors: ErrorBody['errors'];
  readonly logId: string;

  constructor(status: number, body: Partial<ErrorBody> | undefined) {
    super(`${status} ${body?.code ?? 'error'}: ${body?.message ?? 'no error body'}`);
    this.name = 'DeliveryApiError';
    this.status = status;
    this.code = body?.code ?? 'unknown';
    this.errors = body?.errors ?? [];
    this.logId = body?.logId ?? '';
  }
}

/** The data of a successful answer; an error answer throws a DeliveryApiError. */
export function ok<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.error !== undefined || !result.response.ok)
    throw new DeliveryApiError(result.response.status, result.error as Partial<ErrorBody> | undefined);
  return result.data as T;
}

/**
 * A tool's call is a request to the API itself (`app.inject`), sent with the MCP caller's own
 * Authorization header, Shop-Id, language and IP address: the operation's schemas validate it,
 * the per-token rate limit counts it (it is keyed by the token), scopes are checked and the
 * audit trail records it exactly as for a call over HTTP, and its log line names the caller's
 * address. Nothing here reaches a service directly.
 */
import type { App } from '../../platform/http.js';

/** Who the MCP connection is, as every one of its calls presents itself to the API. */
export interface McpCaller {
  /** `Bearer <token>`, as the client sent it. */
  authorization: string;
  /** The client's IP address (the rate limiter's and the log's `request.ip`). */
  ip: string;
  /** The connection's Shop-Id header, the default of the tools' asShopId. */
  shopId?: string;
  acceptLanguage?: string;
  userAgent: string;
}

export interface OperationRequest {
  method: 'GET' | 'POST';
  /** The path with its parameters filled in. */
  path: string;
  query?: Record<string, string | string[]>;
  body?: Record<string, unknown>;
  shopId?: number;
  idempotencyKey?: string;
}

export interface OperationAnswer {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  /** The body read as JSON when it is JSON, else null. */
  json: unknown;
  rawPayload: Buffer;
}

export async function callOperation(app: App, caller: McpCaller, request: OperationRequest): Promise<OperationAnswer> {
  const headers: Record<string, string> = {
    authorization: caller.authorization,
    'user-agent': caller.userAgent,
  };
  const shopId = request.shopId !== undefined ? String(request.shopId) : caller.shopId;
  if (shopId !== undefined) headers['shop-id'] = shopId;
  if (caller.acceptLanguage) headers['accept-language'] = caller.acceptLanguage;
  if (request.idempotencyKey !== undefined) headers['idempotency-key'] = request.idempotencyKey;
  if (request.body !== undefined) headers['content-type'] = 'application/json';
  const response = await app.inject({
    method: request.method,
    url: request.path,
    query: request.query,
    headers,
    remoteAddress: caller.ip,
    ...(request.body !== undefined ? { payload: JSON.stringify(request.body) } : {}),
  });
  const isJson = String(response.headers['content-type'] ?? '').startsWith('application/json');
  let json: unknown = null;
  if (isJson && response.rawPayload.length > 0) {
    try {
      json = JSON.parse(response.body);
    } catch {
      json = null;
    }
  }
  return { statusCode: response.statusCode, headers: response.headers, json, rawPayload: response.rawPayload };
}

/** A file link the API answered (`PUBLIC_URL/files/…`) as the path to inject, when it is this service's. */
export function ownFilePath(link: string, publicUrl: string): string | null {
  const prefix = `${publicUrl.replace(/\/+$/, '')}/files/`;
  if (!link.startsWith(prefix)) return null;
  const name = link.slice(prefix.length);
  return /^[A-Za-z0-9._~-]+$/.test(name) ? `/files/${name}` : null;
}

/**
 * Read-only lists that also answer POST, with their filters in the body: some shop clients
 * (a Joomla plugin) send every call as POST with a form body. The body is read as more
 * query (a body field wins over a query field of the same name), so one querystring schema
 * validates both spellings and the handler never knows which one came.
 */
import type { FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';

export const GET_OR_POST: HTTPMethods[] = ['GET', 'POST'];

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** preValidation of a GET_OR_POST route: a POST's body becomes its query before the query is checked. */
export async function bodyAsQuery(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  if (request.method !== 'POST') return;
  const body = request.body;
  if (body !== undefined && body !== null && !isPlainObject(body)) return;
  // Query validation reads leniently (strings for numbers, 1/0 for booleans); JSON values pass it as they are.
  request.query = { ...(request.query as Record<string, unknown>), ...(body ?? {}) };
}

/**
 * preValidation of a DELETE that takes its parameters in a body (contract 4.11's DELETE
 * /v2/products/shipments): clients send a DELETE's parameters in the query string, as most
 * HTTP libraries do, so the query is read as more body (a body field wins).
 */
export async function queryAsBody(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  const body = request.body;
  if (body !== undefined && body !== null && !isPlainObject(body)) return;
  request.body = { ...(request.query as Record<string, unknown>), ...(body ?? {}) };
}

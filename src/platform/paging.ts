/** page/perPage on every list: page from 1 (default 1), perPage default 20, at most 1000. */
import type { FastifyReply } from 'fastify';
import Type, { type TSchema } from 'typebox';
import { INT32_MAX } from './schemas.js';

export const DEFAULT_PER_PAGE = 20;
export const MAX_PER_PAGE = 1000;
/**
 * Pages beyond any list are empty, but a page number must stay a number the databases take:
 * the offset is at most (2^31-2)*1000, well inside both engines' 64-bit OFFSET and 2^53.
 */
export const MAX_PAGE = INT32_MAX;

/** Query fields of every paged list; spread into a list's query schema. */
export const PagingQueryFields = {
  page: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: MAX_PAGE,
      default: 1,
      description: `Page number, from 1 (at most ${MAX_PAGE}).`,
    }),
  ),
  perPage: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: MAX_PER_PAGE,
      default: DEFAULT_PER_PAGE,
      description: `Results per page, 1 to ${MAX_PER_PAGE}.`,
    }),
  ),
};

export interface Paging {
  page: number;
  perPage: number;
  offset: number;
}

export function paging(query: { page?: number; perPage?: number }): Paging {
  const page = query.page ?? 1;
  const perPage = query.perPage ?? DEFAULT_PER_PAGE;
  return { page, perPage, offset: (page - 1) * perPage };
}

export interface Page<T> {
  items: T[];
  total: number;
}

function setPagingHeaders(reply: FastifyReply, total: number, at: Paging): void {
  reply.header('X-Total-Count', String(total));
  reply.header('X-Page', String(at.page));
  reply.header('X-Per-Page', String(at.perPage));
}

/** Sends a list: the JSON array, and the totals in headers. */
export function sendPage<T>(reply: FastifyReply, page: Page<T>, at: Paging): T[] {
  setPagingHeaders(reply, page.total, at);
  return page.items;
}

const serializedItems = new WeakMap<object, Buffer>();

/**
 * Like `sendPage`, for pages that a read cache hands out again and again: each page's
 * JSON is made and UTF-8 encoded once (Cyrillic text makes encoding on every write the
 * dearest part of sending), then sent as it is.
 */
export function sendCachedPage<T>(reply: FastifyReply, page: Page<T>, at: Paging, itemsSchema: TSchema): FastifyReply {
  setPagingHeaders(reply, page.total, at);
  let body = serializedItems.get(page.items);
  if (body === undefined) {
    const json = reply.serializeInput(
      page.items as unknown as { [key: string]: unknown },
      itemsSchema as unknown as { [key: string]: unknown },
    );
    body = Buffer.from(json, 'utf8');
    serializedItems.set(page.items, body);
  }
  return reply.type('application/json; charset=utf-8').send(body);
}

/** Headers documented on every paged list in OpenAPI (each is the header's schema: @fastify/swagger wraps it). */
export const PAGING_HEADERS = {
  'X-Total-Count': { description: 'Number of items matching the filters, all pages', type: 'integer' },
  'X-Page': { description: 'The page returned', type: 'integer' },
  'X-Per-Page': { description: 'Page size used', type: 'integer' },
};

/** Where a page of a newest-first list is read: rows with an id below `beforeId` (when given), skipping `skip` of them. */
export interface PageStart {
  beforeId?: number;
  skip: number;
}

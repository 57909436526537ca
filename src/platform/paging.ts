/** page/perPage on every list: page from 1 (default 1), perPage default 20, at most 1000. */
import type { FastifyReply } from 'fastify';
import Type from 'typebox';

export const DEFAULT_PER_PAGE = 20;
export const MAX_PER_PAGE = 1000;

/** Query fields of every paged list; spread into a list's query schema. */
export const PagingQueryFields = {
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1, description: 'Page number, from 1.' })),
  perPage: Type.Optional(
    Type.Integer({ minimum: 1, maximum: MAX_PER_PAGE, default: DEFAULT_PER_PAGE, description: `Results per page, 1 to ${MAX_PER_PAGE}.` }),
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

/** Sends a list: the JSON array, and the totals in headers. */
export function sendPage<T>(reply: FastifyReply, page: Page<T>, at: Paging): T[] {
  reply.header('X-Total-Count', String(page.total));
  reply.header('X-Page', String(at.page));
  reply.header('X-Per-Page', String(at.perPage));
  return page.items;
}

/** Headers documented on every paged list in OpenAPI. */
export const PAGING_HEADERS = {
  'X-Total-Count': { description: 'Number of items matching the filters, all pages', schema: { type: 'integer' } },
  'X-Page': { description: 'The page returned', schema: { type: 'integer' } },
  'X-Per-Page': { description: 'Page size used', schema: { type: 'integer' } },
};

/**
 * The orders page's state (list tab, filters, search, page) as the URL's query, and as the
 * query of GET /v2/orders: a reload, a bookmark or a link to a colleague opens the same view.
 */
import type { operations } from '../../../../clients/typescript/src/index';

export type OrdersQuery = NonNullable<operations['listOrders']['parameters']['query']>;
export type ListCode = NonNullable<OrdersQuery['list']>;

/**
 * The list the orders page opens on when the URL names none: all orders. A tab chosen by where
 * work waits would hold the first rows back until the ten tabs' counts came, and would open the
 * page on a different tab from one visit to the next; all orders is never empty while the account
 * has orders, and every tab shows its count, so where work waits is still in sight.
 */
export const ALL_ORDERS = 0 satisfies ListCode;
/** The problems page's own list. */
export const PROBLEM_ORDERS = 6 satisfies ListCode;

/** The tabs: all orders first (the page opens on it), then in the order an operator works through them. */
export const LISTS: ListCode[] = [ALL_ORDERS, 1, 9, 2, 3, 4, 6, 5, 7, 8];

const NUMBER_FIELDS = ['deliveryType', 'shopId', 'warehouseId', 'reservationStatus'] as const;
const FLAG_FIELDS = [
  'stickerFormed',
  'wasInAct',
  'packed',
  'storagingEnds',
  'withCod',
  'codReceived',
  'autoReservation',
] as const;
const TEXT_FIELDS = ['dateFrom', 'dateTo', 'recipientCountry', 'recipientCity', 'search'] as const;
const NUMBER_ARRAY_FIELDS = ['statuses', 'paymentMethods'] as const;

export type FlagField = (typeof FLAG_FIELDS)[number];
export const FLAGS: readonly FlagField[] = FLAG_FIELDS;

export interface OrdersView {
  list: ListCode;
  page: number;
  perPage: number;
  filters: Omit<OrdersQuery, 'list' | 'page' | 'perPage'>;
}

export const DEFAULT_PER_PAGE = 50;

/** The view named by a URL query (unknown or bad values are left out). */
export function viewFromSearch(search: URLSearchParams, defaultList: ListCode = ALL_ORDERS): OrdersView {
  const list = Number(search.get('list') ?? defaultList);
  const page = Math.max(1, Number(search.get('page') ?? 1) || 1);
  const perPage = [20, 50, 100, 200].includes(Number(search.get('perPage')))
    ? Number(search.get('perPage'))
    : DEFAULT_PER_PAGE;
  const filters: OrdersView['filters'] = {};
  const writable = filters as Record<string, unknown>;
  for (const field of NUMBER_FIELDS) {
    const value = search.get(field);
    if (value !== null && value !== '' && Number.isInteger(Number(value))) writable[field] = Number(value);
  }
  for (const field of FLAG_FIELDS) {
    const value = search.get(field);
    if (value === '0' || value === '1') writable[field] = Number(value);
  }
  for (const field of TEXT_FIELDS) {
    const value = search.get(field)?.trim();
    if (value) writable[field] = value;
  }
  for (const field of NUMBER_ARRAY_FIELDS) {
    const values = search.getAll(field).map(Number).filter(Number.isInteger);
    if (values.length > 0) writable[field] = values;
  }
  const companies = search.getAll('deliveryCompanies').map((value) => (/^\d+$/.test(value) ? Number(value) : value));
  if (companies.length > 0) filters.deliveryCompanies = companies;
  return { list: (LISTS.includes(list as ListCode) ? list : defaultList) as ListCode, page, perPage, filters };
}

/** The URL query of a view (defaults left out). */
export function searchFromView(view: OrdersView): URLSearchParams {
  const search = new URLSearchParams();
  search.set('list', String(view.list));
  if (view.page > 1) search.set('page', String(view.page));
  if (view.perPage !== DEFAULT_PER_PAGE) search.set('perPage', String(view.perPage));
  for (const [field, value] of Object.entries(view.filters)) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value)) for (const item of value) search.append(field, String(item));
    else search.set(field, String(value));
  }
  return search;
}

/** The query of GET /v2/orders for a view, on another tab when asked (the tabs' counts). */
export function ordersQuery(view: OrdersView, list: ListCode = view.list): OrdersQuery {
  return { ...view.filters, list, page: view.page, perPage: view.perPage };
}

/** How many filters are set (search apart): the Filters button says so. */
export function countFilters(view: OrdersView): number {
  return Object.entries(view.filters).filter(
    ([field, value]) => field !== 'search' && value !== undefined && !(Array.isArray(value) && value.length === 0),
  ).length;
}

/**
 * Returns as the pages read them, pure: the API's closed lists, which decision a status allows
 * (the service's steps, src/modules/returns/rules.ts: the buttons shown are those it would take),
 * the badges' colours, and the list's view kept in the URL.
 */
import type { Schemas } from '../../api';
import type { TextKey } from '../../i18n';
import {
  allows,
  RETURN_REASONS,
  RETURN_STATUSES,
  RETURN_WAYS,
  type ReturnStep,
} from '../../../../src/modules/returns/rules';

export type Return = Schemas['Return'];
export type ReturnStatus = Return['status'];
export type ReturnReason = Return['lines'][number]['reason'];
export type ReturnWay = Return['way'];

// the API's closed lists and the steps a status allows, from the service's own rules
export { RETURN_REASONS, RETURN_STATUSES, RETURN_WAYS };

export type ReturnDecision = Extract<ReturnStep, 'approve' | 'refuse' | 'cancel'>;
const DECISIONS: readonly ReturnDecision[] = ['approve', 'refuse', 'cancel'];

export function decisionsFor(status: string): ReturnDecision[] {
  return DECISIONS.filter((decision) => allows(decision, status));
}

/** Dark shades: white badge text stays readable (4.5:1) on each. */
export const STATUS_COLORS: Record<ReturnStatus, string> = {
  requested: 'grape.9',
  approved: 'blue.9',
  refused: 'red.9',
  cancelled: 'gray.7',
  in_transit: 'indigo.9',
  received: 'teal.9',
  closed: 'green.9',
};

/** A word of a closed list in the page's language; a value a newer service added is shown as it says it. */
export function wordOf(t: (key: TextKey) => string, prefix: string, value: string, known: readonly string[]): string {
  return known.includes(value) ? t(`${prefix}${value}` as TextKey) : value;
}

export interface ReturnsView {
  page: number;
  perPage: number;
  status?: ReturnStatus;
  shopId?: number;
  dateFrom?: string;
  dateTo?: string;
}

const PER_PAGE = [20, 50, 100] as const;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The list's view from the address (a reload or a shared link keeps it); anything odd is left out. */
export function viewFromSearch(params: URLSearchParams): ReturnsView {
  const positive = (name: string) => {
    const value = Number(params.get(name));
    return Number.isInteger(value) && value > 0 ? value : undefined;
  };
  const perPage = positive('perPage');
  const status = params.get('status');
  const day = (name: string) => {
    const value = params.get(name);
    return value && DAY.test(value) ? value : undefined;
  };
  return {
    page: positive('page') ?? 1,
    perPage: perPage && (PER_PAGE as readonly number[]).includes(perPage) ? perPage : 20,
    status: (RETURN_STATUSES as readonly string[]).includes(status ?? '') ? (status as ReturnStatus) : undefined,
    shopId: positive('shopId'),
    dateFrom: day('dateFrom'),
    dateTo: day('dateTo'),
  };
}

export function searchFromView(view: ReturnsView): URLSearchParams {
  const params = new URLSearchParams();
  if (view.page > 1) params.set('page', String(view.page));
  if (view.perPage !== 20) params.set('perPage', String(view.perPage));
  for (const name of ['status', 'shopId', 'dateFrom', 'dateTo'] as const)
    if (view[name] !== undefined) params.set(name, String(view[name]));
  return params;
}

export const PER_PAGE_OPTIONS = [...PER_PAGE];

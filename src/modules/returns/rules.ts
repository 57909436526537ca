/**
 * The rules of a return, pure: the closed lists (reasons, ways, statuses), a shop's return
 * settings and their defaults, what of a delivered order may still come back, who pays the way
 * back, whether the shop's rules approve a return by themselves, the return code. No I/O and no
 * Node module (Web Crypto only): the dashboard reads its lists and steps from here too.
 */
export const RETURN_REASONS = [
  'did_not_fit',
  'changed_mind',
  'defective',
  'damaged_in_delivery',
  'wrong_item',
  'not_as_described',
  'other',
] as const;
export type ReturnReason = (typeof RETURN_REASONS)[number];

/** The reasons that are the shop's fault (or its delivery's): with `payer: buyer_unless_fault` the shop pays for these. */
export const FAULT_REASONS: readonly ReturnReason[] = [
  'defective',
  'damaged_in_delivery',
  'wrong_item',
  'not_as_described',
];

export const REASON_NAMES: Record<ReturnReason, { ru: string; en: string }> = {
  did_not_fit: { ru: 'Не подошёл размер', en: 'Did not fit' },
  changed_mind: { ru: 'Передумал', en: 'Changed my mind' },
  defective: { ru: 'Брак', en: 'Defective' },
  damaged_in_delivery: { ru: 'Повреждён при доставке', en: 'Damaged in delivery' },
  wrong_item: { ru: 'Прислали не тот товар', en: 'Wrong item sent' },
  not_as_described: { ru: 'Не соответствует описанию', en: 'Not as described' },
  other: { ru: 'Другое', en: 'Other' },
};

/** point: the buyer drops the parcel at a point of the chosen company; courier: the company collects it; post: at a post office. */
export const RETURN_WAYS = ['point', 'courier', 'post'] as const;
export type ReturnWay = (typeof RETURN_WAYS)[number];

export const RETURN_STATUSES = [
  'requested',
  'approved',
  'refused',
  'cancelled',
  'in_transit',
  'received',
  'closed',
] as const;
export type ReturnStatus = (typeof RETURN_STATUSES)[number];

/** Returns whose lines no longer count against what the order may still return. */
const ENDED_WITHOUT_GOODS: readonly ReturnStatus[] = ['refused', 'cancelled'];

export const RETURN_PAYERS = ['shop', 'buyer', 'buyer_unless_fault'] as const;
export type ReturnPayerRule = (typeof RETURN_PAYERS)[number];

export interface ReturnSettings {
  /** Whether buyers may start returns on the returns page (the shop may always create one through the API). */
  enabled: boolean;
  /** Days after delivery a buyer may start a return. */
  windowDays: number;
  /** The ways back the shop allows, each with the companies the buyer chooses from. */
  ways: Array<{ way: ReturnWay; companyIds: number[] }>;
  /** Who pays the way back. */
  payer: ReturnPayerRule;
  /** Approved without the shop when every rule given holds; null: the shop approves each return. */
  autoApprove: {
    /** Every line's reason is one of these (empty: any reason). */
    reasons: ReturnReason[];
    /** The goods returned are worth at most this (roubles); null: any value. */
    maxGoodsValue: number | null;
    /** Started within this many days of delivery; null: anywhere in the window. */
    withinDays: number | null;
  } | null;
}

/** What a shop that never saved its settings has: returns on, 14 days (the law's for goods of proper quality), its own delivery company's points. */
export function defaultSettings(companyId: number | null): ReturnSettings {
  return {
    enabled: true,
    windowDays: 14,
    ways: companyId === null ? [] : [{ way: 'point', companyIds: [companyId] }],
    payer: 'buyer_unless_fault',
    autoApprove: null,
  };
}

export interface ReturnLine {
  /** Index of the line in the order's products. */
  line: number;
  productId: number | null;
  name: string | null;
  vendorCode: string | null;
  count: number;
  /** Per unit, kopecks: what the buyer paid for it. */
  priceKopecks: number;
  reason: ReturnReason;
  comment: string | null;
}

export interface OrderLine {
  id: number | null;
  name: string | null;
  vendorCode: string | null;
  count: number;
  priceCod: number;
  discount: number;
  priceDeclared: number;
}

/** The price of a unit as the buyer paid it (kopecks): its price less its discount; a line without a price, its declared value. */
export function unitPriceKopecks(line: OrderLine): number {
  const price = Math.round(Math.max(0, line.priceCod - line.discount) * 100);
  return price > 0 ? price : Math.round(line.priceDeclared * 100);
}

/** Per line of the order: units delivered less those in the order's other returns that still bring goods back. */
export function returnableCounts(
  lines: readonly OrderLine[],
  others: ReadonlyArray<{ status: string; lines: ReadonlyArray<{ line: number; count: number }> }>,
): number[] {
  const left = lines.map((line) => line.count);
  for (const other of others) {
    if (ENDED_WITHOUT_GOODS.includes(other.status as ReturnStatus)) continue;
    for (const taken of other.lines) if (taken.line < left.length) left[taken.line] -= taken.count;
  }
  return left.map((count) => Math.max(0, count));
}

export function goodsKopecksOf(lines: readonly ReturnLine[]): number {
  return lines.reduce((sum, line) => sum + line.priceKopecks * line.count, 0);
}

export function payerOf(rule: ReturnPayerRule, lines: ReadonlyArray<{ reason: ReturnReason }>): 'shop' | 'buyer' {
  if (rule === 'shop') return 'shop';
  if (rule === 'buyer') return 'buyer';
  return lines.some((line) => FAULT_REASONS.includes(line.reason)) ? 'shop' : 'buyer';
}

/** Whole days from the delivery day to today (both `YYYY-MM-DD`, the account's days). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** Whether the shop's rules approve this return without the shop. */
export function approvedByRules(
  settings: ReturnSettings,
  request: { reasons: readonly ReturnReason[]; goodsKopecks: number; daysSinceDelivery: number },
): boolean {
  const rules = settings.autoApprove;
  if (!rules) return false;
  if (rules.reasons.length > 0 && !request.reasons.every((reason) => rules.reasons.includes(reason))) return false;
  if (rules.maxGoodsValue !== null && request.goodsKopecks > Math.round(rules.maxGoodsValue * 100)) return false;
  if (rules.withinDays !== null && request.daysSinceDelivery > rules.withinDays) return false;
  return true;
}

/** Which statuses a step leaves from. */
const STEPS = {
  approve: ['requested'],
  refuse: ['requested'],
  cancel: ['requested', 'approved'],
  in_transit: ['approved'],
  received: ['approved', 'in_transit'],
  close: ['received'],
} as const satisfies Record<string, readonly ReturnStatus[]>;
export type ReturnStep = keyof typeof STEPS;

export function allows(step: ReturnStep, status: string): boolean {
  return (STEPS[step] as readonly string[]).includes(status);
}

/** Crockford's base32 without I, L, O, U: nothing to misread when a buyer dictates it at the point. */
const CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** `R` and 10 random characters (50 bits): printed and shown as a QR code, unique on the instance (an index). */
export function newReturnCode(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(10));
  let code = 'R';
  for (const byte of bytes) code += CODE_ALPHABET[byte & 31];
  return code;
}

/** The delivered statuses after which a buyer may return goods. */
export const DELIVERED_STATUSES: readonly number[] = [44, 47];

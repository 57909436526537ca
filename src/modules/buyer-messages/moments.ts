/**
 * The moments of a delivery a buyer hears of, and which order event makes each. A moment is
 * sent once per order and channel however often its status repeats (the messages' unique key).
 * Pure.
 */
import type { AccountEvent } from '../events/types.js';

export const MOMENTS = [
  'registered',
  'handed_over',
  'at_point',
  'storage_ending',
  'out_for_delivery',
  'delivered',
  'refused',
  'late',
  'return_received',
] as const;
export type Moment = (typeof MOMENTS)[number];

export const CHANNELS = ['email', 'sms', 'telegram'] as const;
export type Channel = (typeof CHANNELS)[number];

export const LANGUAGES = ['ru', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Statuses after which the parcel is with the company (the first of them is the hand-over). */
const HANDED_OVER: ReadonlySet<number> = new Set([14, 15, 31, 32, 41, 411, 412]);

/** The moment an event is, or null when buyers hear nothing of it. */
export function momentOf(event: Pick<AccountEvent, 'type' | 'statusFrom' | 'statusTo'>): Moment | null {
  if (event.type === 'order.late') return 'late';
  if (event.type === 'order.storage_ending') return 'storage_ending';
  if (event.type !== 'order.status_changed' || event.statusTo === null) return null;
  const to = event.statusTo;
  // registered with the company: the track number is known (Ready for shipment after registration)
  if (to === 13 && (event.statusFrom ?? 0) < 13) return 'registered';
  if (HANDED_OVER.has(to) && !HANDED_OVER.has(event.statusFrom ?? 0)) return 'handed_over';
  if (to === 42) return 'at_point';
  if (to === 43) return 'out_for_delivery';
  if (to === 44 || to === 47) return 'delivered';
  if (to === 461 || to === 462) return 'refused';
  if (to === 72) return 'return_received';
  return null;
}

/** The moments on by default for a shop that turns a channel on: SMS and Telegram say less than e-mail. */
export const DEFAULT_MOMENTS: Record<Channel, readonly Moment[]> = {
  email: ['registered', 'at_point', 'storage_ending', 'out_for_delivery', 'delivered', 'late'],
  sms: ['at_point', 'storage_ending', 'out_for_delivery'],
  telegram: ['registered', 'handed_over', 'at_point', 'storage_ending', 'out_for_delivery', 'delivered', 'late'],
};

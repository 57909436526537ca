/**
 * The variables a buyer's message template reads, from an order and its shop: every variable is
 * always there (an empty string when the order has no such thing), so a template that renders
 * with the sample renders with every order. Pure.
 */
import type { OrderDoc } from '../orders/document.js';
import type { Language } from './moments.js';

export interface MessageContext {
  hello: string;
  shop: { name: string; brand: string };
  order: {
    id: number;
    number: string;
    track: string;
    tracking_url: string;
    company: string;
    /** point, courier or post */
    type: string;
    /** The order's returns page (delivered orders of a shop), else empty. */
    returns_url: string;
  };
  recipient: { name: string };
  point: { name: string; address: string; hours: string; hold_until: string; place: string };
  courier: { date: string; interval: string };
  promise: { date: string; days: number };
  unsubscribe_url: string;
}

/** The variables' names and what they hold: the template editor lists them. */
export const CONTEXT_VARIABLES: Record<string, string> = {
  hello: 'Greeting with the buyer’s name, in the template’s language',
  'shop.name': 'The shop’s name',
  'shop.brand': 'The brand the buyer knows (the shop’s)',
  'order.number': 'The shop’s order number (cmsId), else ours',
  'order.track': 'Tracking number (empty before registration)',
  'order.tracking_url': 'The tracking page',
  'order.company': 'The delivery company',
  'order.type': 'point, courier or post',
  'order.returns_url':
    'The returns page of the order, where the buyer returns goods (empty for an order without a shop)',
  'recipient.name': 'The buyer’s name as the order has it',
  'point.name': 'Pickup point or post office',
  'point.address': 'Its address',
  'point.hours': 'Its opening hours',
  'point.hold_until': 'Last day of storage (YYYY-MM-DD; filters ru_date, en_date, numeric_date)',
  'point.place': '"в пункте выдачи" / "at the pickup point" (or the post office)',
  'courier.date': 'The courier’s day (YYYY-MM-DD)',
  'courier.interval': 'The courier’s interval, e.g. 10:00–14:00',
  'promise.date': 'Promised delivery date (YYYY-MM-DD)',
  'promise.days': 'Promised business days from hand-over',
  unsubscribe_url: 'One click stops these messages on this channel',
};

const WEEKDAYS: Record<Language, string[]> = {
  ru: ['пн', 'вт', 'ср', 'чт', 'пт', 'сб', 'вс'],
  en: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'],
};

/** Opening hours as a line: days of the same hours run together ("пн–пт 09:00–20:00, сб 10:00–16:00"). */
export function hoursText(
  schedule: ReadonlyArray<{ from: string; to: string } | null> | null | undefined,
  language: Language,
): string {
  if (!schedule || schedule.length !== 7) return '';
  const names = WEEKDAYS[language];
  const runs: string[] = [];
  for (let day = 0; day < 7; ) {
    const hours = schedule[day];
    let end = day;
    while (end + 1 < 7 && sameHours(schedule[end + 1], hours)) end++;
    if (hours) runs.push(`${names[day]}${end > day ? `–${names[end]}` : ''} ${hours.from}–${hours.to}`);
    day = end + 1;
  }
  return runs.join(', ');
}

function sameHours(a: { from: string; to: string } | null, b: { from: string; to: string } | null): boolean {
  return a === b || (a !== null && b !== null && a.from === b.from && a.to === b.to);
}

export interface ContextInput {
  order: OrderDoc & { id: number };
  shop: { name: string; brand: string };
  language: Language;
  /** The courier interval the order chose, as "10:00–14:00" (the companies area reads it). */
  courierInterval: string;
  unsubscribeUrl: string;
  /** The order's returns page (modules/returns), or empty. */
  returnsUrl?: string;
}

export function contextOf(input: ContextInput): MessageContext {
  const { order, language } = input;
  const point = order.delivery.point;
  const name = order.recipient.fullName.trim();
  const post = order.delivery.type === 3;
  return {
    hello:
      language === 'ru' ? (name ? `Здравствуйте, ${name}!` : 'Здравствуйте!') : name ? `Hello, ${name}!` : 'Hello!',
    shop: input.shop,
    order: {
      id: order.id,
      number: order.cmsId ?? String(order.id),
      track: order.trackNumber ?? '',
      tracking_url: order.trackingUrl ?? '',
      company: order.delivery.company.name ?? '',
      type: order.delivery.type === 2 ? 'courier' : post ? 'post' : 'point',
      returns_url: input.returnsUrl ?? '',
    },
    recipient: { name },
    point: {
      name: point?.name ?? '',
      address: point?.address ?? '',
      hours: hoursText(point?.schedule, language),
      hold_until: point?.holdDate?.slice(0, 10) ?? '',
      place:
        language === 'ru'
          ? post
            ? 'в почтовом отделении'
            : 'в пункте выдачи'
          : post
            ? 'at the post office'
            : 'at the pickup point',
    },
    courier: { date: order.clientDeliveryDate?.slice(0, 10) ?? '', interval: input.courierInterval },
    promise: { date: order.delivery.promise?.byDate ?? '', days: order.delivery.promise?.p90Days ?? 0 },
    unsubscribe_url: input.unsubscribeUrl,
  };
}

/** A made-up order's variables: templates are checked against it when saved. */
export function sampleContext(language: Language): MessageContext {
  return {
    hello: language === 'ru' ? 'Здравствуйте, Светлана Котова!' : 'Hello, Svetlana Kotova!',
    shop: { name: 'Мой магазин', brand: 'МойБренд' },
    order: {
      id: 1042,
      number: 'SITE-1042',
      track: 'TR000104212',
      tracking_url: 'https://delivery.example/t/abc',
      company: 'Пунктир',
      type: 'point',
      returns_url: 'https://delivery.example/site/returns/1-1-abc/1042-abc',
    },
    recipient: { name: 'Светлана Котова' },
    point: {
      name: 'Пунктир №12',
      address: 'Санкт-Петербург, Литейный пр., 3',
      hours: language === 'ru' ? 'пн–пт 09:00–20:00, сб 10:00–16:00' : 'Mon–Fri 09:00–20:00, Sat 10:00–16:00',
      hold_until: '2026-12-10',
      place: language === 'ru' ? 'в пункте выдачи' : 'at the pickup point',
    },
    courier: { date: '2026-12-03', interval: '10:00–14:00' },
    promise: { date: '2026-12-04', days: 3 },
    unsubscribe_url: 'https://delivery.example/u/abc',
  };
}

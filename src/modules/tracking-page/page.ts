/**
 * The public tracking page, rendered on the server: data in, HTML out (pure, no I/O).
 * No external assets (inline CSS, no scripts, no fonts): the page loads in one request on
 * a phone and asks nothing of other sites. Every value is escaped: shop and company text
 * (shop name, city, status descriptions) reaches a public page.
 */

export type Lang = 'ru' | 'en';

export interface WorkingHours {
  from: string;
  to: string;
}

export interface HistoryEntry {
  code: number;
  name: string;
  /** RFC 3339 instant. */
  at: string;
  /** The delivery company's own words, when they add to the status name. */
  description: string | null;
}

export interface PointView {
  name: string;
  address: string;
  description: string | null;
  latitude: number;
  longitude: number;
  /** 7 days from Monday; null: closed that day. */
  schedule: Array<WorkingHours | null> | null;
  /** The last day the parcel waits (`YYYY-MM-DD`, a day of the account). */
  holdDate: string | null;
  storageEnding: boolean;
}

export interface TrackingView {
  lang: Lang;
  /** The account's time zone: the shop's and its recipients' clock. */
  timeZone: string;
  trackNumber: string;
  /** The shop's own order number. */
  orderNumber: string | null;
  shopName: string;
  companyName: string;
  /** Latest first; never empty. */
  history: HistoryEntry[];
  deliveryType: number;
  /** Courier and post deliveries: the city only (the street and flat stay off a public page). */
  city: string | null;
  expected: { from: string | null; to: string | null };
  point: PointView | null;
  /** Roubles the recipient pays on delivery, while unpaid. */
  codToPay: number | null;
  /** The shop's Telegram bot, started for this order (its news there), when the shop has one. */
  telegramUrl?: string | null;
  /** The order's returns page (delivered orders of a shop). */
  returnsUrl?: string | null;
}

/** What a link without a seal (issued before links were sealed) may still show: the status only. */
export interface StatusOnlyView {
  lang: Lang;
  timeZone: string;
  trackNumber: string;
  companyName: string;
  status: HistoryEntry;
}

const TEXT = {
  ru: {
    title: 'Отслеживание посылки',
    parcel: 'Посылка',
    order: 'Заказ',
    from: 'Магазин',
    company: 'Служба доставки',
    status: 'Статус',
    history: 'История',
    point: 'Пункт выдачи',
    address: 'Адрес',
    hours: 'Часы работы',
    coordinates: 'Координаты',
    map: 'Открыть на карте',
    holdUntil: 'Хранится до',
    holdEnding: 'Срок хранения заканчивается — заберите посылку',
    courier: 'Доставка курьером',
    post: 'Доставка почтой',
    city: 'Город',
    expected: 'Ожидаемая дата доставки',
    toPay: 'К оплате при получении',
    closed: 'выходной',
    allDay: 'круглосуточно',
    days: ['Пн', 'Вт', 'Ср', 'Чт', 'Пт', 'Сб', 'Вс'],
    statusOnly: 'Подробности о доставке — по ссылке из последнего сообщения магазина.',
    telegram: 'Получать новости о заказе в Telegram',
    returns: 'Вернуть товар',
    missingTitle: 'Посылка не найдена',
    missing: 'По этой ссылке ничего не найдено. Проверьте, что ссылка скопирована целиком, или обратитесь в магазин.',
    logId: 'Код обращения',
    other: 'English',
    otherLang: 'en',
  },
  en: {
    title: 'Parcel tracking',
    parcel: 'Parcel',
    order: 'Order',
    from: 'Shop',
    company: 'Delivery company',
    status: 'Status',
    history: 'History',
    point: 'Pickup point',
    address: 'Address',
    hours: 'Opening hours',
    coordinates: 'Coordinates',
    map: 'Open on the map',
    holdUntil: 'Kept until',
    holdEnding: 'Storage ends soon: please collect the parcel',
    courier: 'Courier delivery',
    post: 'Delivery by post',
    city: 'City',
    expected: 'Expected delivery',
    toPay: 'To pay on delivery',
    closed: 'closed',
    allDay: 'open 24 hours',
    days: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'],
    statusOnly: "For the delivery details, open the link in the shop's latest message.",
    telegram: 'Get news of this order in Telegram',
    returns: 'Return goods',
    missingTitle: 'Parcel not found',
    missing: 'Nothing is found at this link. Check that the whole link was copied, or ask the shop.',
    logId: 'Reference for support',
    other: 'Русский',
    otherLang: 'ru',
  },
} as const;

const LOCALE: Record<Lang, string> = { ru: 'ru-RU', en: 'en-GB' };

/** Text for an HTML text node or a quoted attribute value. */
export function escapeHtml(value: string | number): string {
  return String(value).replace(/[&<>"'`]/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** An instant as the account's clock shows it: "24 ноября, 14:05". */
export function formatInstant(iso: string, lang: Lang, timeZone: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  return new Intl.DateTimeFormat(LOCALE[lang], {
    timeZone,
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  }).format(at);
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A calendar day (`YYYY-MM-DD`, already a day of the account): "28 ноября 2026 г.". */
export function formatDay(day: string, lang: Lang): string {
  if (!DAY.test(day)) return day;
  return new Intl.DateTimeFormat(LOCALE[lang], {
    timeZone: 'UTC',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
  }).format(new Date(`${day}T00:00:00Z`));
}

function formatRoubles(amount: number, lang: Lang): string {
  return new Intl.NumberFormat(LOCALE[lang], {
    style: 'currency',
    currency: 'RUB',
    currencyDisplay: 'narrowSymbol',
    minimumFractionDigits: 2,
  }).format(amount);
}

/** Consecutive days with the same hours in one line: "Пн–Пт 10:00–20:00". */
export function scheduleLines(schedule: Array<WorkingHours | null>, lang: Lang): string[] {
  const text = TEXT[lang];
  const hoursOf = (day: WorkingHours | null | undefined): string => {
    if (!day) return text.closed;
    if (day.from === '00:00' && (day.to === '24:00' || day.to === '23:59')) return text.allDay;
    return `${day.from}–${day.to}`;
  };
  const lines: string[] = [];
  let start = 0;
  for (let day = 1; day <= 7; day++) {
    if (day < 7 && hoursOf(schedule[day]) === hoursOf(schedule[start])) continue;
    const days = day - 1 === start ? text.days[start] : `${text.days[start]}–${text.days[day - 1]}`;
    lines.push(`${days} ${hoursOf(schedule[start])}`);
    start = day;
  }
  return lines;
}

export function mapUrl(latitude: number, longitude: number): string {
  return `https://www.openstreetmap.org/?mlat=${latitude}&mlon=${longitude}#map=17/${latitude}/${longitude}`;
}

const STYLE = `
*{box-sizing:border-box}
body{margin:0;background:#f2f4f7;color:#1d2433;font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;-webkit-text-size-adjust:100%}
main{max-width:560px;margin:0 auto;padding:16px}
header{display:flex;justify-content:space-between;align-items:baseline;gap:12px;margin:4px 0 12px}
h1{font-size:20px;margin:0}
h2{font-size:15px;margin:0 0 8px;color:#5b6475;text-transform:uppercase;letter-spacing:.04em}
section{background:#fff;border-radius:12px;padding:16px;margin:0 0 12px;box-shadow:0 1px 2px rgba(0,0,0,.06)}
.lang{font-size:14px;color:#2457c5}
.current{font-size:22px;font-weight:700;margin:0 0 4px;overflow-wrap:break-word}
p{margin:0 0 8px}
dl+p{margin-top:8px}
.muted{color:#5b6475;font-size:14px}
dl{margin:0;display:grid;grid-template-columns:fit-content(45%) 1fr;gap:6px 12px}
dt{color:#5b6475}
dd{margin:0;overflow-wrap:break-word;min-width:0}
ol{list-style:none;margin:0;padding:0}
ol li{position:relative;padding:0 0 12px 20px;border-left:2px solid #d5dae3;margin-left:5px}
ol li:last-child{border-left-color:transparent;padding-bottom:0}
ol li::before{content:"";position:absolute;left:-7px;top:4px;width:12px;height:12px;border-radius:50%;background:#d5dae3}
ol li:first-child::before{background:#1f9d55}
ol li:first-child .name{font-weight:700}
.name,.desc{display:block;overflow-wrap:break-word}
.hold{background:#fff6db;border-radius:8px;padding:10px 12px;margin:12px 0 0}
.hold strong{font-size:18px}
.warn{color:#9a3412;font-weight:600;display:block}
.pay{font-size:18px;font-weight:700;white-space:nowrap}
a.button{display:block;text-align:center;background:#2457c5;color:#fff;text-decoration:none;border-radius:8px;padding:12px;margin:12px 0 0;font-weight:600}
ul.hours{margin:0;padding:0;list-style:none}
`;

function layout(lang: Lang, title: string, body: string): string {
  const text = TEXT[lang];
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<header><h1>${escapeHtml(title)}</h1><a class="lang" href="?lang=${text.otherLang}" hreflang="${text.otherLang}">${text.other}</a></header>
${body}
</main>
</body>
</html>
`;
}

function row(term: string, value: string): string {
  return `<dt>${escapeHtml(term)}</dt><dd>${value}</dd>`;
}

function pointSection(point: PointView, view: TrackingView): string {
  const text = TEXT[view.lang];
  const coordinates = `${point.latitude.toFixed(6)}, ${point.longitude.toFixed(6)}`;
  const hours = point.schedule
    ? `<ul class="hours">${scheduleLines(point.schedule, view.lang)
        .map((line) => `<li>${escapeHtml(line)}</li>`)
        .join('')}</ul>`
    : null;
  const hold = point.holdDate
    ? `<div class="hold">${escapeHtml(text.holdUntil)}: <strong>${escapeHtml(formatDay(point.holdDate, view.lang))}</strong>${point.storageEnding ? `<span class="warn">${escapeHtml(text.holdEnding)}</span>` : ''}</div>`
    : '';
  return `<section class="point">
<h2>${escapeHtml(text.point)}</h2>
<p class="current">${escapeHtml(point.name)}</p>
<dl>
${row(text.address, escapeHtml(point.address))}
${hours ? row(text.hours, hours) : ''}
${row(text.coordinates, escapeHtml(coordinates))}
</dl>
${point.description ? `<p class="muted">${escapeHtml(point.description)}</p>` : ''}
${hold}
<a class="button" href="${escapeHtml(mapUrl(point.latitude, point.longitude))}" rel="noreferrer noopener" target="_blank">${escapeHtml(text.map)}</a>
</section>`;
}

/** "5–7 марта 2026 г.": one day, or a range written as short as the language allows. */
function expectedText(expected: TrackingView['expected'], lang: Lang): string | null {
  const { from, to } = expected;
  if (!from && !to) return null;
  if (from && to && from !== to && DAY.test(from) && DAY.test(to)) {
    const format = new Intl.DateTimeFormat(LOCALE[lang], {
      timeZone: 'UTC',
      day: 'numeric',
      month: 'long',
      year: 'numeric',
    });
    return format.formatRange(new Date(`${from}T00:00:00Z`), new Date(`${to}T00:00:00Z`));
  }
  return formatDay((from ?? to) as string, lang);
}

export function renderTrackingPage(view: TrackingView): string {
  const text = TEXT[view.lang];
  const current = view.history[0];
  const expected = expectedText(view.expected, view.lang);
  const summary = `<section class="status">
<h2>${escapeHtml(text.status)}</h2>
<p class="current">${escapeHtml(current.name)}</p>
<p class="muted">${escapeHtml(formatInstant(current.at, view.lang, view.timeZone))}</p>
<dl>
${row(text.parcel, escapeHtml(view.trackNumber))}
${view.orderNumber ? row(text.order, escapeHtml(view.orderNumber)) : ''}
${view.shopName ? row(text.from, escapeHtml(view.shopName)) : ''}
${row(text.company, escapeHtml(view.companyName))}
${view.codToPay ? row(text.toPay, `<span class="pay">${escapeHtml(formatRoubles(view.codToPay, view.lang))}</span>`) : ''}
</dl>
</section>`;
  const delivery = view.point
    ? pointSection(view.point, view)
    : `<section class="delivery">
<h2>${escapeHtml(view.deliveryType === 3 ? text.post : text.courier)}</h2>
<dl>
${view.city ? row(text.city, escapeHtml(view.city)) : ''}
${expected ? row(text.expected, escapeHtml(expected)) : ''}
</dl>
</section>`;
  const history = `<section class="history">
<h2>${escapeHtml(text.history)}</h2>
<ol>
${view.history
  .map(
    (entry) =>
      `<li><span class="name">${escapeHtml(entry.name)}</span>${entry.description ? `<span class="muted desc">${escapeHtml(entry.description)}</span>` : ''}<span class="muted">${escapeHtml(formatInstant(entry.at, view.lang, view.timeZone))}</span></li>`,
  )
  .join('\n')}
</ol>
</section>`;
  const telegram = view.telegramUrl
    ? `<p class="telegram"><a href="${escapeHtml(view.telegramUrl)}" rel="noopener">${escapeHtml(text.telegram)}</a></p>`
    : '';
  const returns = view.returnsUrl
    ? `<a class="button" href="${escapeHtml(view.returnsUrl)}">${escapeHtml(text.returns)}</a>\n`
    : '';
  return layout(view.lang, text.title, `${summary}\n${returns}${telegram}${delivery}\n${history}`);
}

export function renderStatusOnlyPage(view: StatusOnlyView): string {
  const text = TEXT[view.lang];
  return layout(
    view.lang,
    text.title,
    `<section class="status">
<h2>${escapeHtml(text.status)}</h2>
<p class="current">${escapeHtml(view.status.name)}</p>
<p class="muted">${escapeHtml(formatInstant(view.status.at, view.lang, view.timeZone))}</p>
<dl>
${row(text.parcel, escapeHtml(view.trackNumber))}
${row(text.company, escapeHtml(view.companyName))}
</dl>
</section>
<p class="muted">${escapeHtml(text.statusOnly)}</p>`,
  );
}

export function renderMissingPage(lang: Lang, logId: string): string {
  const text = TEXT[lang];
  return layout(
    lang,
    text.missingTitle,
    `<section>
<p>${escapeHtml(text.missing)}</p>
<p class="muted">${escapeHtml(text.logId)}: ${escapeHtml(logId)}</p>
</section>`,
  );
}

/** `?lang=` first, then the browser's Accept-Language (by weight), else Russian: recipients are in Russia. */
export function pageLanguage(query: string | undefined, acceptLanguage: string | undefined): Lang {
  if (query === 'ru' || query === 'en') return query;
  const ranked = (acceptLanguage ?? '')
    .split(',')
    .map((part, index) => {
      const [tag, ...params] = part.trim().toLowerCase().split(';');
      const weight = params.map((param) => /^\s*q=([0-9.]+)\s*$/.exec(param)?.[1]).find((value) => value !== undefined);
      return { primary: tag.split('-')[0], weight: weight === undefined ? 1 : Number(weight), index };
    })
    .filter((entry) => entry.weight > 0 && (entry.primary === 'ru' || entry.primary === 'en'))
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  return (ranked[0]?.primary as Lang | undefined) ?? 'ru';
}

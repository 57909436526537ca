/**
 * A shop's message templates in Liquid (liquidjs): strict (an unknown variable or filter is an
 * error, found when the template is saved by rendering it with a sample order), bounded (parse
 * and render limits: a shop's loop cannot hold a worker), and with no file access (no include,
 * render or layout). Filters for this market: Russian dates ("3 декабря"), plural forms
 * (`{{ n | plural: "день", "дня", "дней" }}`), numeric dates, money.
 */
import { LRUCache } from 'lru-cache';
import { Liquid, type FS, type Template } from 'liquidjs';
import { DEFAULT_TEXTS, type MomentTexts } from './default-templates.js';
import type { Channel, Language, Moment } from './moments.js';

/** A template's longest text: an e-mail's body is a few paragraphs. */
export const TEMPLATE_MAX_LENGTH = 4000;
/**
 * Milliseconds a template may take to render (a shop's `for` over a huge range stops here): a
 * save checks up to 72 templates, so at most ~1.5 s however they are written.
 */
const RENDER_LIMIT_MS = 20;
/**
 * The limit when a message is made for sending: its template passed the 20 ms check when it was
 * saved, so this only stops a runaway; a loaded machine's pause must not cost a buyer a message.
 */
export const SENDING_RENDER_LIMIT_MS = 250;

/** No partials: a template reads nothing but its variables. */
const NO_FILES: FS = {
  exists: async () => false,
  existsSync: () => false,
  readFile: async () => {
    throw new Error('templates include no files');
  },
  readFileSync: () => {
    throw new Error('templates include no files');
  },
  resolve: (_root: string, file: string) => file,
  sep: '/',
};

const RU_MONTHS = [
  'января',
  'февраля',
  'марта',
  'апреля',
  'мая',
  'июня',
  'июля',
  'августа',
  'сентября',
  'октября',
  'ноября',
  'декабря',
];
const EN_MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const RU_PLURALS = new Intl.PluralRules('ru');

function dayParts(value: unknown): [number, number, number] | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(String(value ?? ''));
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : null;
}

function engine(escape: boolean): Liquid {
  const liquid = new Liquid({
    strictVariables: true,
    strictFilters: true,
    ownPropertyOnly: true,
    fs: NO_FILES,
    dynamicPartials: false,
    relativeReference: false,
    parseLimit: TEMPLATE_MAX_LENGTH * 4,
    renderLimit: RENDER_LIMIT_MS,
    memoryLimit: 1_000_000,
    ...(escape ? { outputEscape: 'escape' as const } : {}),
  });
  liquid.registerFilter('ru_date', (value: unknown) => {
    const parts = dayParts(value);
    return parts ? `${parts[2]} ${RU_MONTHS[parts[1] - 1]}` : '';
  });
  liquid.registerFilter('en_date', (value: unknown) => {
    const parts = dayParts(value);
    return parts ? `${parts[2]} ${EN_MONTHS[parts[1] - 1]}` : '';
  });
  liquid.registerFilter('numeric_date', (value: unknown) => {
    const parts = dayParts(value);
    return parts ? `${String(parts[2]).padStart(2, '0')}.${String(parts[1]).padStart(2, '0')}.${parts[0]}` : '';
  });
  // two forms: English (one, other); three: Russian (1 день, 2 дня, 5 дней)
  liquid.registerFilter('plural', (value: unknown, one: string, few: string, many?: string) => {
    const count = Number(value);
    if (many === undefined) return `${count} ${count === 1 ? one : few}`;
    const form = RU_PLURALS.select(count);
    return `${count} ${form === 'one' ? one : form === 'few' ? few : many}`;
  });
  liquid.registerFilter('money', (value: unknown) => {
    const amount = Number(value);
    return Number.isFinite(amount) ? `${amount.toLocaleString('ru-RU', { maximumFractionDigits: 2 })} ₽` : '';
  });
  return liquid;
}

/** Plain text (e-mail text, SMS) and escaped HTML (e-mail HTML pieces, Telegram's HTML). */
const PLAIN = engine(false);
const ESCAPED = engine(true);

/** The parts of a message a template makes: an e-mail's subject and text, an SMS, a Telegram message. */
export type TemplatePart = 'subject' | 'text' | 'sms' | 'telegram';
export const TEMPLATE_PARTS: readonly TemplatePart[] = ['subject', 'text', 'sms', 'telegram'];

/** A shop's own templates: moment → language → part → Liquid. */
export type TemplateOverrides = Partial<
  Record<Moment, Partial<Record<Language, Partial<MomentTexts & { telegram: string }>>>>
>;

/**
 * The template of a part: the shop's own, else the default. Telegram says the e-mail's text
 * unless the shop wrote it a message of its own (the default has none).
 */
export function templateOf(
  overrides: TemplateOverrides,
  moment: Moment,
  language: Language,
  part: TemplatePart,
): string {
  const own = overrides[moment]?.[language];
  if (part === 'telegram') return own?.telegram ?? templateOf(overrides, moment, language, 'text');
  return own?.[part] ?? DEFAULT_TEXTS[language][moment][part];
}

/** The template of a channel's message body. */
export function bodyPartOf(channel: Channel): TemplatePart {
  return channel === 'sms' ? 'sms' : channel === 'telegram' ? 'telegram' : 'text';
}

/** Templates parsed lately: a shop's few dozen are rendered for every message (a parse is ~10 times a render). */
const parsed = new LRUCache<string, Template[]>({ max: 2000 });

function parsedOf(liquid: Liquid, template: string): Template[] {
  // escaping is decided as a template is parsed: the two engines' parses are kept apart
  const key = `${liquid === ESCAPED ? 'e' : 'p'}${template}`;
  let templates = parsed.get(key);
  if (!templates) {
    templates = liquid.parse(template);
    parsed.set(key, templates);
  }
  return templates;
}

/** Renders a template; HTML-escaped output for Telegram and an e-mail's HTML. Throws on an unknown variable. */
export async function renderTemplate(
  template: string,
  context: object,
  escapeHtml = false,
  limitMs = RENDER_LIMIT_MS,
): Promise<string> {
  const liquid = escapeHtml ? ESCAPED : PLAIN;
  // synchronously: LiquidJS's render limit is a deadline on the clock, and an asynchronous render
  // yields between tags to other requests, whose work then counted as the template's. On a loaded
  // machine a 1 ms template failed its 20 ms check (a preview showed an error, a save could be refused).
  // Our filters are synchronous and a template reads no files, so nothing in it needs to wait.
  const rendered = liquid.renderSync(parsedOf(liquid, template), context as Record<string, unknown>, {
    renderLimit: limitMs,
  });
  return String(rendered)
    .replace(/[ \t]+\n/g, '\n')
    .trim();
}

/**
 * What is wrong with a template, or null: it must parse, stay under the length, and render with
 * a sample order (every variable known, every filter ours).
 */
export async function templateProblem(template: string, sample: object): Promise<string | null> {
  if (template.length > TEMPLATE_MAX_LENGTH) return `longer than ${TEMPLATE_MAX_LENGTH} characters`;
  try {
    PLAIN.parse(template);
  } catch (error) {
    return `cannot be read: ${firstLine(error)}`;
  }
  try {
    await renderTemplate(template, sample);
  } catch (error) {
    return firstLine(error);
  }
  return null;
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0].slice(0, 300);
}

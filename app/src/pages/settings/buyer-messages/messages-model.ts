/**
 * The buyer-messages page's logic, pure: the settings as a form edits them and the PUT made of
 * them (a credential left empty is not sent, so the saved one stays; the gateway only when it
 * changes, since naming it makes the service check the gateway again), and the shop's own
 * templates as the editor keeps them (the PUT replaces them all: the parts it leaves out are the
 * defaults).
 */
import type { Answer, RequestBody, Schemas } from '../../../api';

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
] as const satisfies ReadonlyArray<ServiceMoment>;
export type Moment = (typeof MOMENTS)[number];
/** The moments the service answers: the list above is theirs (the app cannot import the service's). */
type ServiceMoment = Schemas['BuyerMessageSettings']['email']['moments'][number];
/** Compiles only while the list above holds every moment the service has. */
export const EVERY_MOMENT_LISTED: [Exclude<ServiceMoment, Moment>] extends [never] ? true : never = true;
export const CHANNELS = ['email', 'sms', 'telegram'] as const;
export type Channel = (typeof CHANNELS)[number];
export const LANGUAGES = ['ru', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
export type Gateway = 'smsru' | 'smsc';
/** A template's parts: the e-mail's subject and text, the SMS, the Telegram message (the text unless written). */
export const PARTS = ['subject', 'text', 'sms', 'telegram'] as const;
export type Part = (typeof PARTS)[number];

export type Settings = Schemas['BuyerMessageSettings'];
export type SettingsInput = RequestBody<'setBuyerMessageSettings'>;
export type TemplatesView = Answer<'getBuyerMessageTemplates'>;
export type TemplatesInput = RequestBody<'setBuyerMessageTemplates'>;

export interface ChannelDraft {
  enabled: boolean;
  moments: Moment[];
}

export interface SettingsDraft {
  email: ChannelDraft;
  sms: ChannelDraft & { gateway: Gateway | null; sender: string; apiId: string; login: string; password: string };
  telegram: ChannelDraft & { botToken: string };
  language: Language;
  anyHour: boolean;
  quietFrom: string;
  quietTo: string;
  color: string;
  logoUrl: string;
  sandbox: boolean;
}

/** The service's own quiet hours: offered when a shop that sends at any hour turns them on. */
const QUIET_DEFAULT = { from: '21:00', to: '09:00' };

function gatewayOf(value: string | null): Gateway | null {
  return value === 'smsru' || value === 'smsc' ? value : null;
}

export function draftOf(settings: Settings): SettingsDraft {
  return {
    email: { enabled: settings.email.enabled, moments: [...settings.email.moments] },
    sms: {
      enabled: settings.sms.enabled,
      moments: [...settings.sms.moments],
      gateway: gatewayOf(settings.sms.gateway),
      sender: settings.sms.sender ?? '',
      apiId: '',
      login: '',
      password: '',
    },
    telegram: { enabled: settings.telegram.enabled, moments: [...settings.telegram.moments], botToken: '' },
    language: settings.language,
    anyHour: settings.quietHours === null,
    quietFrom: settings.quietHours?.from ?? QUIET_DEFAULT.from,
    quietTo: settings.quietHours?.to ?? QUIET_DEFAULT.to,
    color: settings.brand.color,
    logoUrl: settings.brand.logoUrl ?? '',
    sandbox: settings.sandbox,
  };
}

/** The moments ticked, in the moments' order (what is not a moment dropped). */
export function momentsOf(ticked: readonly string[]): Moment[] {
  return MOMENTS.filter((moment) => ticked.includes(moment));
}

/** Whether the SMS credentials shown as connected are those of the gateway now chosen. */
export function smsConnected(draft: SettingsDraft, saved: Settings): boolean {
  return saved.sms.configured && draft.sms.gateway === gatewayOf(saved.sms.gateway);
}

/** Only what was typed: an empty field keeps the saved credential (sending '' would remove it). */
function typed<Key extends string>(key: Key, value: string): Partial<Record<Key, string>> {
  const trimmed = value.trim();
  return trimmed ? ({ [key]: trimmed } as Record<Key, string>) : {};
}

export function settingsBody(draft: SettingsDraft, saved: Settings): SettingsInput {
  const { sms } = draft;
  const gatewayChanged = sms.gateway !== null && sms.gateway !== gatewayOf(saved.sms.gateway);
  return {
    language: draft.language,
    quietHours: draft.anyHour ? null : { from: draft.quietFrom, to: draft.quietTo },
    brand: { color: draft.color, logoUrl: draft.logoUrl.trim() || null },
    sandbox: draft.sandbox,
    email: { enabled: draft.email.enabled, moments: draft.email.moments },
    sms: {
      enabled: sms.enabled,
      moments: sms.moments,
      sender: sms.sender.trim() || null,
      ...(gatewayChanged ? { gateway: sms.gateway } : {}),
      ...(sms.gateway === 'smsru' ? typed('apiId', sms.apiId) : {}),
      ...(sms.gateway === 'smsc' ? { ...typed('login', sms.login), ...typed('password', sms.password) } : {}),
    },
    telegram: {
      enabled: draft.telegram.enabled,
      moments: draft.telegram.moments,
      ...typed('botToken', draft.telegram.botToken),
    },
  };
}

/** The refusal's messages about `field` itself or a field inside it (`sms` takes `sms.sender` too), joined. */
export function problemAt(fieldErrors: Record<string, string>, field: string): string | undefined {
  const found = Object.entries(fieldErrors)
    .filter(([name]) => name === field || name.startsWith(`${field}.`) || name.startsWith(`${field}[`))
    .map(([, message]) => message);
  return found.length ? found.join('; ') : undefined;
}

/** The parts the shop wrote, by moment and language: what the templates' PUT sends back. */
export type OwnTemplates = Partial<Record<Moment, Partial<Record<Language, Partial<Record<Part, string>>>>>>;

function isMoment(value: string): value is Moment {
  return (MOMENTS as readonly string[]).includes(value);
}

function isLanguage(value: string): value is Language {
  return (LANGUAGES as readonly string[]).includes(value);
}

function isPart(value: string): value is Part {
  return (PARTS as readonly string[]).includes(value);
}

export function ownOf(view: TemplatesView): OwnTemplates {
  let own: OwnTemplates = {};
  for (const row of view.templates) {
    if (!isMoment(row.moment) || !isLanguage(row.language)) continue;
    for (const part of row.custom) if (isPart(part)) own = withPart(own, row.moment, row.language, part, row[part]);
  }
  return own;
}

/** `own` with one part written (a text) or given back to the default (null). */
export function withPart(
  own: OwnTemplates,
  moment: Moment,
  language: Language,
  part: Part,
  text: string | null,
): OwnTemplates {
  const parts = { ...own[moment]?.[language] };
  if (text === null) delete parts[part];
  else parts[part] = text;
  return { ...own, [moment]: { ...own[moment], [language]: parts } };
}

export function ownPart(own: OwnTemplates, moment: Moment, language: Language, part: Part): string | undefined {
  return own[moment]?.[language]?.[part];
}

/** What a part's field shows: the shop's text being edited, else what the service answered (its own or the default). */
export function shownPart(
  view: TemplatesView,
  own: OwnTemplates,
  moment: Moment,
  language: Language,
  part: Part,
): string {
  const edited = ownPart(own, moment, language, part);
  if (edited !== undefined) return edited;
  return view.templates.find((row) => row.moment === moment && row.language === language)?.[part] ?? '';
}

/** Whether the service holds this part as the shop's own (it answers the default otherwise). */
export function savedAsOwn(view: TemplatesView, moment: Moment, language: Language, part: Part): boolean {
  return Boolean(
    view.templates.find((row) => row.moment === moment && row.language === language)?.custom.includes(part),
  );
}

export function templatesBody(own: OwnTemplates): TemplatesInput {
  return { templates: own };
}

/** The field the service names when it refuses a part: `templates.at_point.ru.sms`. */
export function templateField(moment: Moment, language: Language, part: Part): string {
  return `templates.${moment}.${language}.${part}`;
}

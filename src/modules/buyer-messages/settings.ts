/**
 * A shop's buyer-message settings: what is stored (no secret), the defaults of a shop that never
 * saved any (e-mail as the `emailNotifications` flag always did: at the point, out for delivery,
 * delivered, and late), and a PUT merged over what is there. Pure.
 */
import { DEFAULT_MOMENTS, type Language, type Moment } from './moments.js';
import type { BuyerMessageSettings, BuyerMessageSettingsInput } from './schemas.js';

export interface StoredBuyerSettings {
  language: Language;
  quietHours: { from: string; to: string } | null;
  brand: { logoUrl: string | null; color: string };
  sandbox: boolean;
  email: { enabled: boolean; moments: Moment[] };
  sms: { enabled: boolean; moments: Moment[]; gateway: 'smsru' | 'smsc' | null; sender: string | null };
  telegram: { enabled: boolean; moments: Moment[]; botUsername: string | null };
}

/** The credentials, sealed together. */
export interface BuyerSecrets {
  smsApiId?: string;
  smsLogin?: string;
  smsPassword?: string;
  botToken?: string;
}

/** What shops e-mailed buyers at before they had settings (and a late order, since promises). */
const LEGACY_EMAIL_MOMENTS: Moment[] = ['at_point', 'out_for_delivery', 'delivered', 'late'];

export const DEFAULT_QUIET_HOURS = { from: '21:00', to: '09:00' };

export function defaultSettings(emailNotifications: boolean): StoredBuyerSettings {
  return {
    language: 'ru',
    quietHours: DEFAULT_QUIET_HOURS,
    brand: { logoUrl: null, color: '#3b5bdb' },
    sandbox: false,
    email: { enabled: emailNotifications, moments: LEGACY_EMAIL_MOMENTS },
    sms: { enabled: false, moments: [...DEFAULT_MOMENTS.sms], gateway: null, sender: null },
    telegram: { enabled: false, moments: [...DEFAULT_MOMENTS.telegram], botUsername: null },
  };
}

/** The stored settings, or the defaults; a stored value missing a field (older) takes the default's. */
export function settingsOf(stored: unknown, emailNotifications: boolean): StoredBuyerSettings {
  const defaults = defaultSettings(emailNotifications);
  if (!stored || typeof stored !== 'object') return defaults;
  const value = stored as Partial<StoredBuyerSettings>;
  return {
    language: value.language ?? defaults.language,
    quietHours: value.quietHours === undefined ? defaults.quietHours : value.quietHours,
    brand: { ...defaults.brand, ...value.brand },
    sandbox: value.sandbox ?? defaults.sandbox,
    email: { ...defaults.email, ...value.email },
    sms: { ...defaults.sms, ...value.sms },
    telegram: { ...defaults.telegram, ...value.telegram },
  };
}

/** A PUT over the settings there: what it leaves out stays; credentials given replace, null removes. */
export function mergeSettings(
  current: StoredBuyerSettings,
  secrets: BuyerSecrets,
  input: BuyerMessageSettingsInput,
): { settings: StoredBuyerSettings; secrets: BuyerSecrets } {
  const next: StoredBuyerSettings = structuredClone(current);
  const keys: BuyerSecrets = { ...secrets };
  if (input.language) next.language = input.language;
  if (input.quietHours !== undefined) next.quietHours = input.quietHours;
  if (input.brand) next.brand = { ...next.brand, ...input.brand, logoUrl: input.brand.logoUrl ?? next.brand.logoUrl };
  if (input.brand && input.brand.logoUrl === null) next.brand.logoUrl = null;
  if (input.sandbox !== undefined) next.sandbox = input.sandbox;
  if (input.email) next.email = { enabled: input.email.enabled, moments: input.email.moments ?? next.email.moments };
  if (input.sms) {
    const gateway = input.sms.gateway === undefined ? next.sms.gateway : input.sms.gateway;
    // another gateway: the old one's credentials mean nothing to it
    if (gateway !== next.sms.gateway) {
      delete keys.smsApiId;
      delete keys.smsLogin;
      delete keys.smsPassword;
    }
    next.sms = {
      enabled: input.sms.enabled,
      moments: input.sms.moments ?? next.sms.moments,
      gateway,
      sender: input.sms.sender === undefined ? next.sms.sender : input.sms.sender,
    };
    replaceSecret(keys, 'smsApiId', input.sms.apiId);
    replaceSecret(keys, 'smsLogin', input.sms.login);
    replaceSecret(keys, 'smsPassword', input.sms.password);
  }
  if (input.telegram) {
    next.telegram = {
      enabled: input.telegram.enabled,
      moments: input.telegram.moments ?? next.telegram.moments,
      botUsername: next.telegram.botUsername,
    };
    replaceSecret(keys, 'botToken', input.telegram.botToken);
    if (input.telegram.botToken === null) next.telegram.botUsername = null;
  }
  return { settings: next, secrets: keys };
}

function replaceSecret(keys: BuyerSecrets, name: keyof BuyerSecrets, value: string | null | undefined): void {
  if (value === undefined) return;
  if (value === null || value.trim() === '') delete keys[name];
  else keys[name] = value.trim();
}

export function smsConfigured(settings: StoredBuyerSettings, secrets: BuyerSecrets): boolean {
  if (settings.sms.gateway === 'smsru') return Boolean(secrets.smsApiId);
  if (settings.sms.gateway === 'smsc') return Boolean(secrets.smsLogin && secrets.smsPassword);
  return false;
}

export function settingsView(settings: StoredBuyerSettings, secrets: BuyerSecrets): BuyerMessageSettings {
  return {
    language: settings.language,
    quietHours: settings.quietHours,
    brand: settings.brand,
    sandbox: settings.sandbox,
    email: settings.email,
    sms: { ...settings.sms, configured: smsConfigured(settings, secrets) },
    telegram: settings.telegram,
  };
}

/** Whether `wallClock` (HH:MM) falls in the quiet hours (which may run past midnight). */
export function inQuietHours(quiet: { from: string; to: string } | null, wallClock: string): boolean {
  if (!quiet || quiet.from === quiet.to) return false;
  return quiet.from < quiet.to
    ? wallClock >= quiet.from && wallClock < quiet.to
    : wallClock >= quiet.from || wallClock < quiet.to;
}

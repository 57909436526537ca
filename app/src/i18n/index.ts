/**
 * The dashboard's words in English and Russian. A typed dictionary rather than a library: the
 * Russian table must have every key the English one has (the compiler checks), plurals are
 * Intl.PluralRules, and nothing is fetched at run time. The choice is kept in localStorage.
 * Each area's words are a file of this folder named as its pages' folder (pages/<area>/); the
 * layout's, the shared components' and those of several areas are common.ts. They are joined
 * here, once: a key that two areas give does not compile.
 */
import { createContext, useContext } from 'react';
import * as common from './common';
import * as auth from './auth';
import * as orders from './orders';
import * as documents from './documents';
import * as pickups from './pickups';
import * as notifications from './notifications';
import * as catalogue from './catalogue';
import * as fulfilment from './fulfilment';
import * as marketplaces from './marketplaces';
import * as money from './money';
import * as settings from './settings';
import * as warehouse from './warehouse';
import * as checklist from './checklist';
import * as buyerMessages from './buyer-messages';
import * as returns from './returns';

const AREAS = [
  common,
  auth,
  orders,
  documents,
  pickups,
  notifications,
  catalogue,
  fulfilment,
  marketplaces,
  money,
  settings,
  warehouse,
  checklist,
  buyerMessages,
  returns,
] as const;

/** The English keys given by more than one area (a spread would keep the last one silently). */
type Repeated<Areas extends readonly { en: object }[], Seen = never> = Areas extends readonly [
  infer First extends { en: object },
  ...infer Rest extends readonly { en: object }[],
]
  ? Extract<keyof First['en'], Seen> | Repeated<Rest, Seen | keyof First['en']>
  : never;
// does not compile, naming the key, when two areas give the same key
const noKeyTwice: [Repeated<typeof AREAS>] extends [never] ? true : Repeated<typeof AREAS> = true;

const en = {
  ...common.en,
  ...auth.en,
  ...orders.en,
  ...documents.en,
  ...pickups.en,
  ...notifications.en,
  ...catalogue.en,
  ...fulfilment.en,
  ...marketplaces.en,
  ...money.en,
  ...settings.en,
  ...warehouse.en,
  ...checklist.en,
  ...buyerMessages.en,
  ...returns.en,
};

export type TextKey = keyof typeof en;
export type Locale = 'ru' | 'en';

const ru: Record<TextKey, string> = {
  ...common.ru,
  ...auth.ru,
  ...orders.ru,
  ...documents.ru,
  ...pickups.ru,
  ...notifications.ru,
  ...catalogue.ru,
  ...fulfilment.ru,
  ...marketplaces.ru,
  ...money.ru,
  ...settings.ru,
  ...warehouse.ru,
  ...checklist.ru,
  ...buyerMessages.ru,
  ...returns.ru,
};

export const dictionaries: Record<Locale, Record<TextKey, string>> = { en, ru };

export type Translate = (key: TextKey, values?: Record<string, string | number>) => string;

/** A translate function for the locale; {name} in the text takes values.name. */
export function translator(locale: Locale): Translate {
  const table = dictionaries[locale];
  return (key, values) => {
    let text = table[key];
    if (values) for (const [name, value] of Object.entries(values)) text = text.replaceAll(`{${name}}`, String(value));
    return text;
  };
}

export interface LocaleState {
  locale: Locale;
  t: Translate;
  setLocale(locale: Locale): void;
}

export const LocaleContext = createContext<LocaleState>({
  locale: 'ru',
  t: translator('ru'),
  setLocale: () => undefined,
});

export function useText(): LocaleState {
  return useContext(LocaleContext);
}

const STORED_LOCALE = 'dashboard.locale';

export function initialLocale(): Locale {
  const stored = globalThis.localStorage?.getItem(STORED_LOCALE);
  if (stored === 'ru' || stored === 'en') return stored;
  return globalThis.navigator?.language?.toLowerCase().startsWith('en') ? 'en' : 'ru';
}

export function rememberLocale(locale: Locale): void {
  globalThis.localStorage?.setItem(STORED_LOCALE, locale);
}

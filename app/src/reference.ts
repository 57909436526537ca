/** The account's shops and warehouses, the companies and the status names: asked once per page load (and language). */
import { useEffect, useState } from 'react';
import { api, ok, type Schemas } from './api';
import type { Locale } from './i18n';

export interface Reference {
  shops: Schemas['Shop'][];
  warehouses: Schemas['Warehouse'][];
  companies: Array<{ id: number; name: string }>;
  statuses: Record<string, string>;
}

const cache = new Map<Locale, Promise<Reference>>();

async function load(locale: Locale): Promise<Reference> {
  const [shops, warehouses, companies, statuses] = await Promise.all([
    api.GET('/v2/shops', { params: { query: { perPage: 1000 } } }).then(ok),
    api.GET('/v2/warehouses', { params: { query: { perPage: 1000 } } }).then(ok),
    api.GET('/v2/lists/delivery-companies').then(ok),
    api.GET('/v2/lists/order-statuses', { params: { query: { lang: locale } } }).then(ok),
  ]);
  return {
    shops,
    warehouses,
    companies: companies.map((company) => ({ id: company.id, name: company.name })),
    statuses,
  };
}

export function useReference(locale: Locale): Reference | null {
  const [reference, setReference] = useState<Reference | null>(null);
  useEffect(() => {
    let live = true;
    let pending = cache.get(locale);
    if (!pending) {
      pending = load(locale);
      cache.set(locale, pending);
      // a failure (the session ended, the network) is asked again next time
      pending.catch(() => cache.delete(locale));
    }
    pending.then(
      (value) => live && setReference(value),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [locale]);
  return reference;
}

/**
 * An order status's name in the page's language: the account's list, asked in that language
 * (GET /v2/lists/order-statuses?lang=), names each code; the name a history or tracking record
 * carries is the service's own, in Russian, and stands only while the list is still coming.
 */
export function statusNameOf(reference: Reference | null, status: { code: number; name?: string }): string {
  return reference?.statuses[String(status.code)] ?? status.name ?? String(status.code);
}

/** A file link of the service (absolute, under PUBLIC_URL) as a path on this origin: the page may be reached by another name. */
export function fileHref(url: string): string {
  try {
    const parsed = new URL(url, globalThis.location?.origin);
    return parsed.pathname.startsWith('/files/') ? `${parsed.pathname}${parsed.search}` : parsed.toString();
  } catch {
    return url;
  }
}

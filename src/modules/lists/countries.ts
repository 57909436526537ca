import { readDataFile } from '../../platform/reference-data.js';

interface CountryEntry {
  code: string;
  en: string;
  ru: string;
}

/** ISO 3166-1 alpha-2 countries, from data/countries.json. */
export class CountryDirectory {
  private readonly byCode: Map<string, CountryEntry>;

  constructor(entries: CountryEntry[] = readDataFile<CountryEntry[]>('countries.json')) {
    this.byCode = new Map(entries.map((entry) => [entry.code, entry]));
  }

  has(code: string): boolean {
    return this.byCode.has(code.toUpperCase());
  }

  name(code: string, lang: 'ru' | 'en'): string | undefined {
    return this.byCode.get(code.toUpperCase())?.[lang];
  }
}

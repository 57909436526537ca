import { readDataFile } from '../../platform/reference-data.js';

export interface OrderStatusEntry {
  code: number;
  ru: string;
  en: string;
}

/** Order status codes of field-notes.md (dotted numbers without dots), in both languages. */
export class OrderStatusDirectory {
  readonly entries: OrderStatusEntry[];
  private readonly byLanguage: Record<'ru' | 'en', Record<string, string>>;

  constructor(entries: OrderStatusEntry[] = readDataFile<OrderStatusEntry[]>('order-statuses.json')) {
    this.entries = entries;
    this.byLanguage = { ru: {}, en: {} };
    for (const entry of entries) {
      this.byLanguage.ru[String(entry.code)] = entry.ru;
      this.byLanguage.en[String(entry.code)] = entry.en;
    }
  }

  /** `{ "11": "Черновик", ... }` */
  names(lang: 'ru' | 'en'): Record<string, string> {
    return this.byLanguage[lang];
  }

  has(code: number): boolean {
    return String(code) in this.byLanguage.en;
  }

  name(code: number, lang: 'ru' | 'en'): string {
    return this.byLanguage[lang][String(code)] ?? this.byLanguage[lang]['1'];
  }
}

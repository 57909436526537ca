import { describe, expect, it } from 'vitest';
import { LocalityDirectory } from './directory.js';
import { bgnToCyrillic, cleanName, nameKey } from './names.js';
import { buildLocalities } from './source.js';

const directory = new LocalityDirectory(await buildLocalities());

describe('localities', () => {
  it('has thousands of Russian localities with coordinates, regions and big-city FIAS ids and postal codes', () => {
    expect(directory.all.length).toBeGreaterThan(4000);
    const moscow = directory.find({ fias: '0c5b2444-70a0-4932-980c-b4dc0d3f02b5' })!;
    expect(moscow).toMatchObject({ name: 'Москва', nameEn: 'Moscow', region: 'Москва', type: 'г', zip: '101000' });
    expect(moscow.latitude).toBeCloseTo(55.75, 1);
  });

  it('finds a locality by Russian name with or without г., by English name, with ё or е', () => {
    for (const name of ['Москва', 'г. Москва', 'г.Москва', 'город Москва', 'moscow', 'MOSCOW'])
      expect(directory.find({ name })?.name, name).toBe('Москва');
    for (const name of ['Санкт-Петербург', 'Saint Petersburg'])
      expect(directory.find({ name })?.name).toBe('Санкт-Петербург');
    expect(directory.find({ name: 'Нижний Новгород' })?.region).toBe('Нижегородская область');
    expect(directory.find({ name: 'Екатеринбург' })?.nameEn).toBe('Yekaterinburg');
    expect(directory.find({ name: 'Орел' })?.name).toBe('Орёл');
    expect(directory.find({ name: 'Удомля' })?.region).toBe('Тверская область');
  });

  it('tells same-named localities apart by region, else takes the largest', () => {
    const tambov = directory.find({ name: 'Сосновка', region: 'Тамбовская обл.' });
    expect(tambov?.region).toBe('Тамбовская область');
    const any = directory.find({ name: 'Сосновка' });
    expect(any).toBeDefined();
    expect(directory.find({ name: 'Сосновка', region: 'Кировская область' })?.region).toBe('Кировская область');
  });

  it('falls back to the postal code, and knows nothing abroad or unknown', () => {
    expect(directory.find({ zipCode: '190031' })?.name).toBe('Санкт-Петербург');
    expect(directory.find({ name: 'Нетакогогорода' })).toBeUndefined();
    expect(directory.find({ name: 'Москва', countryCode: 'KZ' })).toBeUndefined();
    expect(directory.find({ fias: 'gn:524901' })?.name).toBe('Москва');
  });

  it('answers a name asked again as the first time, whatever was asked between (names keep their keys)', () => {
    const asks = [
      { name: 'г. Москва' },
      { name: 'Сосновка', region: 'Тамбовская обл.' },
      { name: 'Сосновка', region: 'Кировская область' },
      { name: 'г.', zipCode: '190031' },
      { name: 'Нетакогогорода', zipCode: '101000' },
      { name: 'moscow' },
    ];
    const fresh = new LocalityDirectory(directory.all);
    const first = asks.map((ask) => fresh.find(ask)?.id);
    expect(first.every((id) => id !== undefined)).toBe(true);
    // a name that cleans to nothing ("г.") falls back to the postal code, as an unknown one does
    expect(first[3]).toBe(directory.find({ zipCode: '190031' })?.id);
    expect([...asks].reverse().map((ask) => fresh.find(ask)?.id)).toEqual([...first].reverse());
  });

  it('transliterates GeoNames names back to Russian', () => {
    expect(bgnToCyrillic('Naberezhnyye Chelny')).toBe('Набережные Челны');
    expect(bgnToCyrillic('Novozavidovskiy')).toBe('Новозавидовский');
    expect(bgnToCyrillic('Elista')).toBe('Элиста');
    expect(bgnToCyrillic('Yelets')).toBe('Елец');
    expect(bgnToCyrillic('Ryazan’')).toBe('Рязань');
    expect(cleanName('  г.  Москва ')).toBe('москва');
    expect(nameKey('Набережные Челны')).toBe(nameKey('Naberezhnyye Chelny'));
  });
});

/**
 * Locality names as shops type them: Russian or English, with or without `г.`, `ё` or `е`.
 * Both spellings are reduced to one Latin "sound key", so `Удомля`, `Udomlya` and
 * `г. Удомля` meet, whichever alphabet the dataset and the shop used.
 */

const CYRILLIC_TO_LATIN: Record<string, string> = {
  а: 'a',
  б: 'b',
  в: 'v',
  г: 'g',
  д: 'd',
  е: 'e',
  ё: 'e',
  ж: 'zh',
  з: 'z',
  и: 'i',
  й: 'y',
  к: 'k',
  л: 'l',
  м: 'm',
  н: 'n',
  о: 'o',
  п: 'p',
  р: 'r',
  с: 's',
  т: 't',
  у: 'u',
  ф: 'f',
  х: 'kh',
  ц: 'ts',
  ч: 'ch',
  ш: 'sh',
  щ: 'shch',
  ъ: '',
  ы: 'y',
  ь: '',
  э: 'e',
  ю: 'yu',
  я: 'ya',
  і: 'i',
  ї: 'i',
  є: 'e',
  ў: 'u',
};

/** Locality type words that shops put before (or after) the name. */
const TYPE_WORDS =
  /^(г|город|гор|пгт|пос[её]лок городского типа|рп|рабочий пос[её]лок|п|пос|пос[её]лок|с|село|д|дер|деревня|ст|ст-ца|станица|х|хутор|аул|city|town|village|g|gorod)\.?\s+/u;

/** Lower case, `ё` as `е`, the type word dropped, single spaces. */
export function cleanName(raw: string): string {
  let value = raw.toLowerCase().replace(/ё/g, 'е').replace(/[«»"]/g, ' ').replace(/\s+/g, ' ').trim();
  // "г.Москва" has no space after the dot
  value = value.replace(/^(г|пгт|п|пос|с|д|рп|ст)\.(?=\S)/u, '$1. ');
  for (let i = 0; i < 2; i++) value = value.replace(TYPE_WORDS, '');
  value = value.replace(/,?\s+(г|город)\.?$/u, '');
  return value.trim();
}

/** The Latin sound key of a name in either alphabet: `Нижний Новгород` and `Nizhniy Novgorod` share one. */
export function nameKey(raw: string): string {
  const cleaned = cleanName(raw);
  let latin = '';
  for (const char of cleaned) latin += CYRILLIC_TO_LATIN[char] ?? char;
  return latin
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[’'`ʹʼ]/g, '')
    .replace(/[^a-z0-9]/g, '')
    .replace(/shch/g, 'sch')
    .replace(/yy/g, 'y')
    .replace(/iy/g, 'i')
    .replace(/y([aeiou])/g, '$1')
    .replace(/kh/g, 'h')
    .replace(/ts/g, 'c');
}

/** Region words dropped before comparing regions (`Московская обл.` ~ `Московская область`). */
export function regionKey(raw: string): string {
  const cleaned = raw
    .toLowerCase()
    .replace(/ё/g, 'е')
    .replace(
      /\b(область|обл|край|республика|респ|автономный округ|ао|аобл|г|город|oblast|krai|kray|republic)\b\.?/gu,
      ' ',
    )
    .replace(/(^|\s)(область|обл|край|республика|респ|автономный округ|ао|г)\.?(?=\s|$)/gu, ' ');
  return nameKey(cleaned).slice(0, 6);
}

/**
 * BGN/PCGN Latin back to Cyrillic (GeoNames spells Russian localities this way). Good for
 * ordinary names; the big cities come from a table of exceptions instead.
 */
export function bgnToCyrillic(latin: string): string {
  return latin
    .split(/(\s+|-)/)
    .map((word) => (/^(\s+|-)$/.test(word) || word === '' ? word : wordToCyrillic(word)))
    .join('');
}

const SEQUENCES: Array<[RegExp, string]> = [
  [/shch/g, 'щ'],
  [/yye$/g, 'ые'],
  [/yy$/g, 'ый'],
  [/iy$/g, 'ий'],
  [/zhny$/g, 'жний'],
  [/yye/g, 'ые'],
  [/zh/g, 'ж'],
  [/kh/g, 'х'],
  [/ts/g, 'ц'],
  [/ch/g, 'ч'],
  [/sh/g, 'ш'],
  [/yu/g, 'ю'],
  [/ya/g, 'я'],
  [/^yo/g, 'йо'],
  [/yo/g, 'ё'],
  [/ye/g, 'е'],
  [/^e/g, 'э'],
  [/([аеёиоуыэюяaeiou])y/g, '$1й'],
  [/y/g, 'ы'],
];

const LETTERS: Record<string, string> = {
  a: 'а',
  b: 'б',
  v: 'в',
  g: 'г',
  d: 'д',
  e: 'е',
  z: 'з',
  i: 'и',
  k: 'к',
  l: 'л',
  m: 'м',
  n: 'н',
  o: 'о',
  p: 'п',
  r: 'р',
  s: 'с',
  t: 'т',
  u: 'у',
  f: 'ф',
  h: 'х',
  c: 'к',
  w: 'в',
  x: 'кс',
  q: 'к',
  j: 'й',
  '’': 'ь',
  "'": 'ь',
  '”': 'ъ',
};

function wordToCyrillic(word: string): string {
  let value = word.toLowerCase().replace(/ë/g, 'ё');
  for (const [pattern, replacement] of SEQUENCES) value = value.replace(pattern, replacement);
  let result = '';
  for (const char of value) result += LETTERS[char] ?? char;
  return result.charAt(0).toUpperCase() + result.slice(1);
}

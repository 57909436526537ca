/**
 * Keys that the register's names and house numbers are searched by: what a buyer types and what
 * the register writes meet on one key. Pure; the import writes them (`search_key`), suggestions
 * and cleaning compute them from the query. The search side refines them; keep the signatures.
 */

/** Lower case, `ё` as `е`, every run of punctuation and spaces one space, trimmed: "Им. Ленина-Ульянова " → "им ленина ульянова". */
export function searchKey(text: string): string {
  return text
    .toLowerCase()
    .replaceAll('ё', 'е')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** The letters a house number's addition is written with, by its AS_ADDHOUSE_TYPES id. */
const ADDITION_LETTERS: Readonly<Record<number, string>> = { 1: 'к', 2: 'с', 3: 'соор', 4: 'лит' };

/**
 * A house's key: number and additions without spaces, the additions marked by their kind: "12к2с1",
 * "12/2", "7а". Without the additions' types (most houses) the first is a корпус and the second a
 * строение, as the register mostly uses them.
 */
export function houseSearchKey(
  num: string | null,
  add1: string | null,
  add2: string | null,
  addType1?: number | null,
  addType2?: number | null,
): string {
  let key = houseNumberPart(num ?? '');
  if (add1) key += (ADDITION_LETTERS[addType1 ?? 1] ?? 'к') + houseNumberPart(add1);
  if (add2) key += (ADDITION_LETTERS[addType2 ?? 2] ?? 'с') + houseNumberPart(add2);
  return key;
}

/** A number or an addition as the key holds it: lower case, `ё` as `е`, letters, digits and the fraction's slash only. */
function houseNumberPart(text: string): string {
  return text
    .toLowerCase()
    .replaceAll('ё', 'е')
    .replace(/[^\p{L}\p{N}/]+/gu, '');
}

/** Words a typed house number marks its additions with, longest first, and the letter the key uses. */
const TYPED_ADDITIONS: ReadonlyArray<[RegExp, string]> = [
  [/(корпус|корп|кор|к)\.?\s*(?=[\p{N}\p{L}])/gu, 'к'],
  [/(сооружение|соор)\.?\s*(?=[\p{N}\p{L}])/gu, 'соор'],
  [/(строение|строен|стр|с)\.?\s*(?=[\p{N}\p{L}])/gu, 'с'],
  [/(литера|литер|лит)\.?\s*(?=[\p{N}\p{L}])/gu, 'лит'],
];

/**
 * A house number as people type it ("д. 12 корп. 2 стр 1", "12 к2", "12К2С1", OpenStreetMap's
 * `addr:housenumber`) to the key `houseSearchKey` gives the register's house: "12к2с1".
 */
export function typedHouseKey(text: string): string {
  let value = ` ${text.toLowerCase().replaceAll('ё', 'е')} `
    .replace(/(^|\s)(дом|д|вл|владение)\.?\s*(?=\p{N})/gu, ' ')
    .trim();
  // an addition's word only where it follows the number: the "с" of "12с1", never a letter of the number itself ("7а")
  const number = /^[\p{N}]+(\s*[/-]\s*[\p{N}]+)?\s*([\p{L}](?![\p{L}.]))?/u.exec(value);
  if (!number) return houseNumberPart(value);
  let rest = value.slice(number[0].length);
  for (const [word, letter] of TYPED_ADDITIONS) rest = rest.replace(word, `${letter}`);
  value = number[0].replace(/\s*-\s*/, '/') + rest;
  return houseNumberPart(value);
}

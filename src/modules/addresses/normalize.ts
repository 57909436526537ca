/**
 * Addresses as people type them, made into tokens the search can match: lower case, ё → е, a text
 * typed in the Latin keyboard layout turned back into Cyrillic, type words recognised both ways
 * (ул/улица, пр-т/пр-кт/проспект …), house designators read into number, корпус, строение and
 * flat ("5к2с1", "д.5, корп.2", "12/2", "5-3"), city nicknames (мск, спб, питер, екб).
 */
import { searchKey } from './search-key.js';

/** The Latin key under each Cyrillic letter of the ЙЦУКЕН layout. */
const LATIN_LAYOUT = "qwertyuiop[]asdfghjkl;'zxcvbnm,.`";
const CYRILLIC_LAYOUT = 'йцукенгшщзхъфывапролджэячсмитьбюё';
const LAYOUT = new Map([...LATIN_LAYOUT].map((latin, index) => [latin, CYRILLIC_LAYOUT[index]]));

/** What a type word names: the register's short type it stands for, and the kind of object. */
export type TypeKind = 'region' | 'area' | 'locality' | 'street' | 'house' | 'block' | 'building' | 'flat' | 'letter';

interface TypeWord {
  kind: TypeKind;
  /** The register's short type ("ул", "пр-кт", "г"). */
  short: string;
  full: string;
}

const t = (kind: TypeKind, short: string, full: string, ...spellings: string[]): [string, TypeWord][] =>
  [short, full, ...spellings].map((spelling) => [searchKey(spelling), { kind, short, full }]);

/**
 * Type words as typed (their search keys: "пр-т" is "пр т"), the register's short type they mean.
 * "д", "с", "п", "к" mean two things each (деревня/дом, село/строение, посёлок, корпус): which one
 * is decided by what follows (a number or a word): see `ambiguousBefore`.
 */
const TYPE_WORDS = new Map<string, TypeWord>([
  ...t('region', 'обл', 'область', 'обл.'),
  ...t('region', 'респ', 'республика'),
  ...t('region', 'край', 'край'),
  ...t('region', 'ао', 'автономный округ', 'авт округ'),
  ...t('area', 'р-н', 'район', 'р н', 'рн', 'р-он'),
  ...t('area', 'г.о.', 'городской округ', 'го', 'г о'),
  ...t('area', 'м.р-н', 'муниципальный район'),
  ...t('locality', 'г', 'город', 'гор'),
  ...t('locality', 'пгт', 'поселок городского типа'),
  ...t('locality', 'рп', 'рабочий поселок'),
  ...t('locality', 'п', 'поселок', 'пос', 'посёлок'),
  ...t('locality', 'с', 'село'),
  ...t('locality', 'д', 'деревня', 'дер'),
  ...t('locality', 'ст-ца', 'станица', 'ст ца'),
  ...t('locality', 'х', 'хутор'),
  ...t('locality', 'аул', 'аул'),
  ...t('locality', 'снт', 'садовое некоммерческое товарищество'),
  ...t('street', 'ул', 'улица', 'у л'),
  ...t('street', 'пр-кт', 'проспект', 'пр-т', 'пр т', 'пркт', 'прт', 'просп', 'пр'),
  ...t('street', 'пер', 'переулок', 'пер-к'),
  ...t('street', 'ш', 'шоссе', 'шос'),
  ...t('street', 'б-р', 'бульвар', 'бул', 'бр', 'б р'),
  ...t('street', 'пл', 'площадь', 'пл-дь'),
  ...t('street', 'наб', 'набережная', 'н б'),
  ...t('street', 'мкр', 'микрорайон', 'мк-н', 'мкрн', 'м-н', 'мкр-н'),
  ...t('street', 'проезд', 'проезд', 'пр-д', 'пр д', 'прд'),
  ...t('street', 'туп', 'тупик'),
  ...t('street', 'аллея', 'аллея', 'ал'),
  ...t('street', 'линия', 'линия', 'лин'),
  ...t('street', 'тракт', 'тракт'),
  ...t('street', 'кв-л', 'квартал', 'квл'),
  ...t('house', 'д', 'дом', 'д', 'дом №', 'No', '№'),
  ...t('house', 'влд', 'владение', 'вл'),
  ...t('house', 'зд', 'здание'),
  ...t('block', 'к', 'корпус', 'корп', 'кор', 'кп'),
  ...t('building', 'стр', 'строение', 'стр-е', 'ст', 'с'),
  ...t('letter', 'литера', 'литера', 'лит', 'литер'),
  ...t('flat', 'кв', 'квартира', 'кварт', 'квар'),
  ...t('flat', 'офис', 'офис', 'оф'),
  ...t('flat', 'пом', 'помещение', 'помещ'),
]);

/** Spellings that name a house part before a number and a locality before a word. */
const HOUSE_OR_LOCALITY: Record<string, TypeWord> = {
  д: { kind: 'locality', short: 'д', full: 'деревня' },
  с: { kind: 'locality', short: 'с', full: 'село' },
  к: { kind: 'locality', short: 'к', full: 'кордон' },
  ст: { kind: 'locality', short: 'ст', full: 'станция' },
};

/** Words that say nothing about the place: the country, "адрес:", "доставка". */
const NOISE = new Set([
  'россия',
  'рф',
  'российская',
  'федерация',
  'russia',
  'адрес',
  'адресу',
  'доставка',
  'доставить',
  'по',
  'получатель',
]);

/** Nicknames people use for big cities, as their search keys. */
export const CITY_NICKNAMES = new Map<string, string>([
  ['мск', 'москва'],
  ['мсква', 'москва'],
  ['спб', 'санкт петербург'],
  ['питер', 'санкт петербург'],
  ['петербург', 'санкт петербург'],
  ['с петербург', 'санкт петербург'],
  ['с пб', 'санкт петербург'],
  ['екб', 'екатеринбург'],
  ['ебург', 'екатеринбург'],
  ['екат', 'екатеринбург'],
  ['нск', 'новосибирск'],
  ['новосиб', 'новосибирск'],
  ['нн', 'нижний новгород'],
  ['нижний', 'нижний новгород'],
  ['ростов на дону', 'ростов на дону'],
  ['ростов', 'ростов на дону'],
  ['казань', 'казань'],
]);

/** Turns text typed with the Latin layout on into what the keys meant: "vjcrdf" → "москва". */
export function fromLatinLayout(text: string): string {
  let out = '';
  const chars = [...text.toLowerCase()];
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i];
    // Shift+/ is "," in the Russian layout: the comma typed between parts
    if (char === '?') {
      out += ',';
      continue;
    }
    const mapped = LAYOUT.get(char);
    if (mapped === undefined) {
      out += char;
      continue;
    }
    // "," "." are б and ю before a letter (",fevfyf" is "баумана"), separators before a space or the end
    if (char === ',' || char === '.') {
      out += /[a-z[\];'`,.?]/.test(chars[i + 1] ?? '') ? mapped : char;
      continue;
    }
    out += mapped;
  }
  return out;
}

/** Whether a text was typed in the Latin layout: Latin letters and no Cyrillic at all. */
export function looksLatinLayout(text: string): boolean {
  return !/[а-яё]/i.test(text) && (text.match(/[a-z]/gi)?.length ?? 0) >= 2;
}

export type Token =
  | { kind: 'word'; text: string; segment: number; typeHint: TypeWord | null; complete: boolean }
  | { kind: 'number'; text: string; segment: number; complete: boolean };

export interface HouseParts {
  /** "12", "12/2", "5а". */
  number: string;
  block: string | null;
  building: string | null;
  /** Whether a marker said it is a house ("д 5", "дом 5"), not only a number that follows a street. */
  marked: boolean;
  /** The number as typed, for matching a house number inside a street's name. */
  typed: string;
  /** The house is still being typed (the query ends within it). */
  complete: boolean;
}

export interface FlatParts {
  number: string;
  type: string;
  complete: boolean;
}

/** A text read into tokens: the words and numbers left for the names, and the house and flat found. */
export interface ParsedText {
  tokens: Token[];
  house: HouseParts | null;
  flat: FlatParts | null;
  postcode: string | null;
  /** Typed in the Latin layout (and turned back). */
  latinLayout: boolean;
  /** Whether the text ends with a separator: the last word is complete (suggestions). */
  endsWithSeparator: boolean;
  /** What was read as something else than typed: "5-3" as house 5, flat 3. */
  notes: string[];
  /** What a courier reads but the register does not hold: "подъезд 2", "этаж 3", "домофон 15". */
  extras: string[];
}

/** Words of a courier's details, each with the value after it. */
const COURIER_DETAILS = new Set(['подъезд', 'под', 'п-д', 'пд', 'этаж', 'эт', 'домофон', 'код']);

const HOUSE_GLUED = /^(\d+[а-я]?(?:\/\d+[а-я]?)?)(?:(к|корп|корпус)(\d+[а-я]?))?(?:(с|стр|строение)(\d+[а-я]?))?$/;
const NUMBER_LIKE = /^\d+[а-я]?(?:\/\d+[а-я]?)?$/;

/**
 * Reads the text. Punctuation separates words (commas and dots alike); a number glued to
 * its markers ("5к2с1", "д5", "кв3") is cut into them first.
 */
export function parseAddressText(raw: string): ParsedText {
  const notes: string[] = [];
  const extras: string[] = [];
  let text = raw.toLowerCase().replace(/ё/g, 'е');
  const latinLayout = looksLatinLayout(text);
  if (latinLayout) text = fromLatinLayout(text);
  const endsWithSeparator = /[\s,.;]$/.test(text);
  // "д.5" "кв.3" "ул.ленина": the dot after a type word is a separator
  text = text
    .replace(/№/g, ' № ')
    .replace(/(\d)\s*-\s*(\d)/g, '$1 - $2')
    .replace(/(\d+)\s*\/\s*(\d+)/g, '$1/$2');
  const segments = text.split(/[,;\n]+/);
  const pieces: { text: string; segment: number; last: boolean }[] = [];
  segments.forEach((segment, segmentIndex) => {
    const words = segment
      .split(/[\s.()"«»:]+/)
      .map((word) => word.replace(/^[-'`]+|[-'`]+$/g, ''))
      .filter((word) => word !== '');
    for (const word of words) pieces.push({ text: word, segment: segmentIndex, last: false });
  });
  if (pieces.length > 0) pieces[pieces.length - 1].last = true;

  const tokens: Token[] = [];
  let house: HouseParts | null = null;
  let flat: FlatParts | null = null;
  let postcode: string | null = null;
  const complete = (index: number) => !pieces[index].last || endsWithSeparator;

  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i];
    const word = piece.text;
    const next = pieces[i + 1]?.text;
    if (/^\d{6}$/.test(word) && postcode === null && house === null) {
      postcode = word;
      continue;
    }
    if (NOISE.has(word)) continue;
    // "5-3": house 5, flat 3, after a street
    if (word === '-' && house && !flat && next && /^\d+$/.test(next)) {
      flat = { number: next, type: 'кв', complete: complete(i + 1) };
      notes.push(`"${house.typed}-${next}" read as house ${house.number}, flat ${next}`);
      i += 1;
      continue;
    }
    if (word === '-') continue;
    if (COURIER_DETAILS.has(word)) {
      const value = next !== undefined && /^[\dа-я#*]+$/.test(next) ? next : '';
      extras.push(value ? `${word} ${value}` : word);
      if (value) i += 1;
      continue;
    }
    const glued = /^(д|дом|кв|к|корп|стр|с|оф|офис|пом|лит)(\d+[а-я]?(?:\/\d+)?)$/.exec(word);
    const marker = glued ? TYPE_WORDS.get(glued[1]) : TYPE_WORDS.get(searchKey(word));
    const markerValue = glued ? glued[2] : next;
    const consumed = glued ? 0 : 1;
    if (
      marker &&
      markerValue !== undefined &&
      /^\d/.test(markerValue) &&
      ['house', 'flat', 'block', 'building'].includes(marker.kind)
    ) {
      const valueIndex = i + consumed;
      if (marker.kind === 'house' && !house) {
        const parts = HOUSE_GLUED.exec(markerValue);
        house = {
          number: parts ? parts[1] : markerValue,
          block: parts?.[3] ?? null,
          building: parts?.[5] ?? null,
          marked: true,
          typed: markerValue,
          complete: complete(valueIndex),
        };
        i = valueIndex;
        continue;
      }
      if (marker.kind === 'flat' && !flat) {
        flat = { number: markerValue, type: marker.short, complete: complete(valueIndex) };
        i = valueIndex;
        continue;
      }
      // "5 к 2": the bare number before a корпус or строение is the house
      const previous = tokens[tokens.length - 1];
      if ((marker.kind === 'block' || marker.kind === 'building') && !house && previous?.kind === 'number') {
        tokens.pop();
        house = {
          number: previous.text,
          block: null,
          building: null,
          marked: false,
          typed: previous.text,
          complete: true,
        };
      }
      if (marker.kind === 'block' && house && !house.block) {
        house.block = markerValue;
        house.complete = complete(valueIndex);
        i = valueIndex;
        continue;
      }
      if (marker.kind === 'building' && house && !house.building) {
        house.building = markerValue;
        house.complete = complete(valueIndex);
        i = valueIndex;
        continue;
      }
    }
    if (marker?.kind === 'letter' && house && next && /^[а-я]$/.test(next)) {
      house.number += next;
      i += 1;
      continue;
    }
    // a letter after the house number: "5 а"
    if (house && !house.block && /^[а-я]$/.test(word) && !TYPE_WORDS.has(word) && house.number === house.typed) {
      house.number += word;
      house.typed += word;
      continue;
    }
    // a letter after a bare number: "10 а" is house 10А
    const previousToken = tokens[tokens.length - 1];
    if (
      !house &&
      /^[а-я]$/.test(word) &&
      !TYPE_WORDS.has(word) &&
      previousToken?.kind === 'number' &&
      /^\d+$/.test(previousToken.text)
    ) {
      previousToken.text += word;
      previousToken.complete = complete(i);
      continue;
    }
    const gluedHouse = HOUSE_GLUED.exec(word);
    if (gluedHouse && (gluedHouse[3] || gluedHouse[5])) {
      if (!house) {
        house = {
          number: gluedHouse[1],
          block: gluedHouse[3] ?? null,
          building: gluedHouse[5] ?? null,
          marked: false,
          typed: word,
          complete: complete(i),
        };
        continue;
      }
    }
    if (NUMBER_LIKE.test(word)) {
      tokens.push({ kind: 'number', text: word, segment: piece.segment, complete: complete(i) });
      continue;
    }
    // a word: a type word (or an ambiguous one decided by what follows), else a name word
    const key = searchKey(word);
    if (key === '') continue;
    const ambiguous = HOUSE_OR_LOCALITY[key];
    let typeHint = TYPE_WORDS.get(key) ?? null;
    if (ambiguous && next !== undefined && !/^\d/.test(next)) typeHint = ambiguous;
    if (typeHint && ['house', 'block', 'building', 'flat', 'letter'].includes(typeHint.kind)) {
      // a house marker with no number after it: still being typed ("ленина д"), or noise
      if (!typeHint || !complete(i)) continue;
      continue;
    }
    if (key.includes(' ')) {
      for (const part of key.split(' '))
        tokens.push({ kind: 'word', text: part, segment: piece.segment, typeHint: null, complete: true });
      continue;
    }
    tokens.push({ kind: 'word', text: key, segment: piece.segment, typeHint, complete: complete(i) });
  }
  return { tokens, house, flat, postcode, latinLayout, endsWithSeparator, notes, extras };
}

/** Whether `x` from `xFrom` equals `y` from `yFrom`, compared in place (no slices: a country's names are scanned). */
function sameFrom(x: string, xFrom: number, y: string, yFrom: number): boolean {
  if (x.length - xFrom !== y.length - yFrom) return false;
  for (let k = 0; xFrom + k < x.length; k++) if (x.charCodeAt(xFrom + k) !== y.charCodeAt(yFrom + k)) return false;
  return true;
}

/**
 * Whether `a` and `b` differ by at most one edit: a letter replaced, added, removed, or two
 * neighbours swapped (Damerau). Linear: no matrix for a question with a yes/no answer.
 */
export function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  const la = a.length;
  const lb = b.length;
  if (la - lb > 1 || lb - la > 1) return false;
  let i = 0;
  while (i < la && i < lb && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (la === lb)
    return (
      sameFrom(a, i + 1, b, i + 1) ||
      (a.charCodeAt(i) === b.charCodeAt(i + 1) &&
        a.charCodeAt(i + 1) === b.charCodeAt(i) &&
        sameFrom(a, i + 2, b, i + 2))
    );
  return la > lb ? sameFrom(a, i + 1, b, i) : sameFrom(a, i, b, i + 1);
}

/** Short words for a name's first word ("Б. Козихинский": Большой): the start each stands for. */
export const NAME_ABBREVIATIONS = new Map<string, string[]>([
  ['б', ['больш']],
  ['бол', ['больш']],
  ['м', ['мал']],
  ['мал', ['мал']],
  ['ср', ['средн']],
  ['н', ['нов', 'нижн']],
  ['нов', ['нов']],
  ['ст', ['стар']],
  ['в', ['верхн']],
]);

/** Typos are forgiven only in words of 4 letters or more: shorter ones match too much. */
export const TYPO_MIN_LENGTH = 4;

/**
 * How a typed word matches a name's word: 3 exactly, 2 as the start of it (a word being typed),
 * 1 with one typo (whole, or as a start for a word being typed), 0 not at all.
 */
export function wordMatch(typed: string, name: string, typing: boolean): 0 | 1 | 2 | 3 {
  if (typed === name) return 3;
  if (typing && name.startsWith(typed)) return 2;
  if (typed.length < TYPO_MIN_LENGTH) return 0;
  if (withinOneEdit(typed, name)) return 1;
  if (typing) {
    for (const length of [typed.length - 1, typed.length, typed.length + 1])
      if (length > 0 && length < name.length && withinOneEdit(typed, name.slice(0, length))) return 1;
  }
  return 0;
}

/** A type word's register short type for a typed spelling ("улица" → "ул"), or null. */
export function typeWordOf(spelling: string): TypeWord | null {
  return TYPE_WORDS.get(searchKey(spelling)) ?? null;
}

/** Full names of the register's short types, for `…TypeFull`. */
export function fullTypeName(short: string): string {
  const found = TYPE_WORDS.get(searchKey(short));
  if (found && found.short === short) return found.full;
  for (const word of TYPE_WORDS.values()) if (word.short === short) return word.full;
  return short;
}

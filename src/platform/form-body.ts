/**
 * Hand-written, and why: qs 6.17 merged every key into the whole result, so 4 × 10,000 indexed keys (425 KiB) took 5.7 s of the event loop; this reader takes each key once (measured by bench/form-parse.ts).
 *
 * PHP-style form bodies and query strings, `ids[0]=15&products[0][dimensions][width]=10&a[]=1`,
 * read in one pass whose work is bounded before it starts: at most MAX_FORM_PARAMETERS pairs and
 * MAX_FORM_BRACKETS brackets (counted before anything is split), at most MAX_FORM_DEPTH brackets in
 * a key and MAX_FORM_NAMES distinct names (counted as they come). What comes out
 * is what qs gave the service before: objects whose keys are all indexes become arrays in index
 * order (holes closed), a repeated plain key collects its values in an array, `[]` appends, and
 * a key naming a property of Object.prototype (`__proto__`, `constructor`) is dropped whole.
 */
import querystring from 'node:querystring';
import { AppError } from './errors.js';

/** Pairs in one body or query string. The largest real bodies: a supply of 2000 lines of 2-4 fields, an order of 100 lines of ~10. */
export const MAX_FORM_PARAMETERS = 20_000;
/** Brackets in one body or query string, all keys together (the supply of 2000 lines has 8,000-16,000). */
export const MAX_FORM_BRACKETS = 60_000;
/**
 * Distinct field names (list indexes aside) in one body or query string. Real bodies repeat a few
 * dozen (`products[7][name]`); each new name costs an object shape, so 20,000 distinct ones took
 * ~60 ms where 20,000 repeated ones take ~5.
 */
export const MAX_FORM_NAMES = 1_000;
/** Brackets in one key: `a[b][c]` has two. Real plugins use three or four. */
export const MAX_FORM_DEPTH = 12;
/** A bracketed number up to this is a list index; a larger one is a plain key (as qs's arrayLimit did). */
export const MAX_FORM_INDEX = 20_000;

/** A container while the body is read: its entries, and whether every key so far is a list index. */
class Box {
  // a plain object: with names bounded (MAX_FORM_NAMES) objects share their shapes; prototype
  // keys never reach it (isPrototypeKey)
  readonly entries: Record<string, unknown> = {};
  indexed = true;
  /** The index `[]` appends at: one past the largest index seen. */
  next = 0;
}

function decode(text: string): string {
  if (!text.includes('%') && !text.includes('+')) return text;
  const spaced = text.includes('+') ? text.replace(/\+/g, ' ') : text;
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced; // a malformed %-escape stays as it is, as qs left it
  }
}

/** The list index a key names (`0`, `17`, never `07` or `1e3`), or -1. */
function listIndex(key: string): number {
  const length = key.length;
  if (length === 0 || length > 5 || (length > 1 && key.charCodeAt(0) === 0x30)) return -1;
  let index = 0;
  for (let at = 0; at < length; at += 1) {
    const digit = key.charCodeAt(at) - 0x30;
    if (digit < 0 || digit > 9) return -1;
    index = index * 10 + digit;
  }
  return index <= MAX_FORM_INDEX ? index : -1;
}

/** `__proto__`, `constructor`, `toString`…: dropped, so no later merge can reach a prototype. */
const PROTOTYPE_KEYS = new Set(Object.getOwnPropertyNames(Object.prototype));

function isPrototypeKey(key: string): boolean {
  return PROTOTYPE_KEYS.has(key);
}

/**
 * `a[b][]` → ['a', 'b', ''] (an empty segment appends); undefined when the key must be dropped.
 * Text after the last closing bracket is ignored, as PHP does; an unclosed bracket is part of the name.
 */
function keySegments(key: string): string[] | undefined {
  const open = key.indexOf('[');
  if (open <= 0 || key.indexOf(']', open) === -1) return key === '' || isPrototypeKey(key) ? undefined : [key];
  const segments = [key.slice(0, open)];
  let at = open;
  while (at < key.length && key.charCodeAt(at) === 0x5b) {
    const close = key.indexOf(']', at + 1);
    if (close === -1) break;
    if (segments.length > MAX_FORM_DEPTH) {
      // named as the house names fields: `bindings[0]`, `recipient.name`
      const field = listIndex(segments[1]) === -1 ? `${segments[0]}.${segments[1]}` : `${segments[0]}[${segments[1]}]`;
      throw new AppError(400, 'form_too_deep', `A form key nests more than ${MAX_FORM_DEPTH} brackets deep.`, [
        { field, message: `nests more than ${MAX_FORM_DEPTH} brackets deep` },
      ]);
    }
    segments.push(key.slice(at + 1, close));
    at = close + 1;
  }
  return segments.some(isPrototypeKey) ? undefined : segments;
}

function tooLarge(): AppError {
  return new AppError(
    400,
    'form_too_large',
    `The form body or query string holds more than ${MAX_FORM_PARAMETERS} fields, ${MAX_FORM_BRACKETS} brackets or ${MAX_FORM_NAMES} distinct field names; send a large request as JSON.`,
  );
}

/** How many times `needle` occurs in `text`, counting no further than `limit` + 1. */
function occurrences(text: string, needle: string, limit: number): number {
  let count = 0;
  for (let at = text.indexOf(needle); at !== -1 && count <= limit; at = text.indexOf(needle, at + needle.length)) {
    count += 1;
  }
  return count;
}

/** Refuses a text of more fields or brackets than the limits before splitting it: the parser's work is bounded by these. */
function checkSize(text: string): void {
  if (occurrences(text, '&', MAX_FORM_PARAMETERS) + 1 > MAX_FORM_PARAMETERS) throw tooLarge();
  let brackets = occurrences(text, '[', MAX_FORM_BRACKETS);
  if (brackets <= MAX_FORM_BRACKETS && text.includes('%5')) {
    brackets += occurrences(text, '%5B', MAX_FORM_BRACKETS) + occurrences(text, '%5b', MAX_FORM_BRACKETS);
  }
  if (brackets > MAX_FORM_BRACKETS) throw tooLarge();
}

/** The key a segment names in its box: `''` appends; notes whether the box stays a list. */
function keyIn(box: Box, segment: string): string {
  if (segment === '') {
    const key = String(box.next);
    box.next += 1;
    return key;
  }
  if (box.indexed) {
    const index = listIndex(segment);
    if (index === -1) box.indexed = false;
    else if (index >= box.next) box.next = index + 1;
  }
  return segment;
}

function addPair(root: Record<string, unknown>, segments: string[], value: string): void {
  let entries = root;
  let box: Box | undefined;
  const last = segments.length - 1;
  for (let depth = 0; depth < last; depth += 1) {
    const key = box ? keyIn(box, segments[depth]) : segments[depth];
    const existing = entries[key];
    if (existing instanceof Box) box = existing;
    else {
      // a plain value where a container is wanted (`a=1&a[b]=2`): the container takes its place
      box = new Box();
      entries[key] = box;
    }
    entries = box.entries;
  }
  const key = box ? keyIn(box, segments[last]) : segments[last];
  const existing = entries[key];
  if (existing === undefined) entries[key] = value;
  else if (Array.isArray(existing)) existing.push(value);
  else if (typeof existing === 'string') entries[key] = [existing, value];
  // a plain value where a container already is (`a[b]=2&a=1`) is dropped
}

/** Boxes whose keys are all indexes become arrays, in index order (integer keys iterate ascending), the others objects. */
function finish(value: unknown): unknown {
  if (!(value instanceof Box)) return value;
  const entries = value.entries;
  if (value.indexed) return Object.values(entries).map(finish);
  for (const key of Object.keys(entries)) entries[key] = finish(entries[key]);
  return entries;
}

/** Reads `a=1&b[c]=2&d[]=3` into nested objects and arrays; 400 for more fields or deeper keys than the limits. */
export function parseForm(text: string): Record<string, unknown> {
  checkSize(text);
  // Plain `a=1&b=2` (most list calls) needs no bracket parsing; Node's own parser is faster.
  if (!text.includes('[') && !text.includes('%5B') && !text.includes('%5b')) {
    const flat = querystring.parse(text, '&', '=', { maxKeys: MAX_FORM_PARAMETERS });
    const keys = Object.keys(flat);
    if (keys.length > MAX_FORM_NAMES) throw tooLarge();
    for (const key of keys) if (isPrototypeKey(key)) delete flat[key];
    return { ...flat };
  }
  const names = new Set<string>();
  const root: Record<string, unknown> = {};
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('&', start);
    if (end === -1) end = text.length;
    if (end > start) {
      let equals = text.indexOf('=', start);
      if (equals === -1 || equals > end) equals = end;
      const segments = keySegments(decode(text.slice(start, equals)));
      if (segments) {
        for (const segment of segments) if (segment !== '' && listIndex(segment) === -1) names.add(segment);
        if (names.size > MAX_FORM_NAMES) throw tooLarge();
        addPair(root, segments, equals === end ? '' : decode(text.slice(equals + 1, end)));
      }
    }
    start = end + 1;
  }
  for (const key of Object.keys(root)) root[key] = finish(root[key]);
  return root;
}

/**
 * Hand-written, and why. Figure: of 8 PHP form bodies plugins send (numbers as strings, decimal
 * commas, "" for "not given", on/yes, lists past qs's array limit, NUL, "null"), Ajv 8.20 with
 * Fastify's coercion (`coerceTypes: 'array'`, defaults, removal) reads all 8 otherwise than this
 * validator (it needs a `type` beside TypeBox's literal unions, coerces "" to 0, and knows no
 * decimal comma); Ajv is faster on a valid JSON body (28k against 20k bodies/s, ~15 µs a
 * request). Reproduce: `npx tsx bench/validation-vs-ajv.ts`. Measured against: ajv 8.20 (the
 * hostile-input and real-clients tests are the judge of behaviour, and Ajv fails them). ajv-errors
 * would give per-schema messages, not the one wording of every field ("must be at most 999").
 *
 * Request validation: one TypeBox schema per request part gives the OpenAPI document,
 * the TypeScript type and this check.
 *
 * Before checking, values are coerced along the schema, because PHP shop plugins send
 * form-encoded bodies where every number is a string, booleans are `1`/`0` and arrays
 * come as `ids[0]=1` (an object with numeric keys once qs has read it). Unknown fields
 * are dropped; schema defaults are filled in. Errors come back as our field paths
 * (`products[2].dimensions.width`) with sentences a shop owner can read (validation-errors.ts).
 *
 * Rules every part shares, whatever the schema: an empty string for an optional field is
 * "not given"; text holding NUL or a lone surrogate is refused (no database stores it alike);
 * free-form JSON is bounded in depth and size.
 */
import { Compile } from 'typebox/compile';
import type { TSchema } from 'typebox';
import type { ErrorItem } from './errors.js';
import { isPlainObject, typesOf, type SchemaNode } from './schema-node.js';
import {
  fieldOf,
  headerLabel,
  mergeErrors,
  translateErrors,
  validationError,
  type RawError,
} from './validation-errors.js';

export { toFieldPath, translateErrors, validationError } from './validation-errors.js';

/** Where the value came from: form bodies and query strings carry only strings. */
export type RequestPart = 'body' | 'querystring' | 'params' | 'headers';

export interface ValidatorOptions {
  /**
   * A PATCH body: an absent field keeps its stored value, so an empty string there is not
   * "not given" but "make it empty", which a field that takes no null refuses.
   */
  partial?: boolean;
}

const ABSENT = Symbol('absent');
type Coerced = unknown | typeof ABSENT;

const TRUE_WORDS = new Set(['1', 'true', 'on', 'yes']);
const FALSE_WORDS = new Set(['0', 'false', 'off', 'no']);
const NUMERIC = /^[+-]?(\d+([.,]\d*)?|[.,]\d+)([eE][+-]?\d+)?$/;

function allowsNull(node: SchemaNode): boolean {
  if (typesOf(node).includes('null')) return true;
  return node.anyOf?.some((branch) => allowsNull(branch)) ?? false;
}

/** Whether a string can be a valid value of the node (so '' is a value, not "nothing"). */
function acceptsString(node: SchemaNode): boolean {
  if (node.anyOf) return node.anyOf.some((branch) => acceptsString(branch));
  if (node.enum || node.const !== undefined)
    return (node.enum ?? [node.const]).some((item) => typeof item === 'string');
  const types = typesOf(node);
  return types.length === 0 || types.includes('string');
}

/** A node that takes any JSON (`Type.Unknown()`, `Type.Any()`): stored as given, so bounded here. */
function isFreeForm(node: SchemaNode): boolean {
  return node.type === undefined && !node.anyOf && !node.enum && node.const === undefined && node.not === undefined;
}

function toNumber(text: string): number | undefined {
  const trimmed = text.trim();
  if (!NUMERIC.test(trimmed)) return undefined;
  const value = Number(trimmed.replace(',', '.'));
  return Number.isFinite(value) ? value : undefined;
}

/** `{ "0": a, "1": b }` as qs produces past its array limit, or from sparse indexes. */
function indexedObjectToArray(value: Record<string, unknown>): unknown[] | undefined {
  const keys = Object.keys(value);
  if (keys.length === 0 || !keys.every((key) => /^\d+$/.test(key))) return undefined;
  return keys.sort((a, b) => Number(a) - Number(b)).map((key) => value[key]);
}

/** NUL (PostgreSQL text refuses it) and lone UTF-16 surrogates (no UTF-8 spelling, so JSON columns refuse them). */
const UNSTORABLE_TEXT = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** Cheap first look: most text has neither NUL nor any surrogate (emoji pairs do, and are fine). */
const SUSPECT_TEXT = /[\u0000\uD800-\uDFFF]/;
const MAX_VALUE_DEPTH = 64;

function unstorableTextProblem(text: string): string | undefined {
  if (!SUSPECT_TEXT.test(text)) return undefined;
  const match = UNSTORABLE_TEXT.exec(text);
  if (!match) return undefined;
  return match[0] === '\u0000'
    ? 'must not contain a NUL character (U+0000)'
    : 'must be valid Unicode text (it holds an unpaired UTF-16 surrogate)';
}

/**
 * Names every string and key of a free-form value that is not storable text. Called only for
 * a value where a cheap look found suspect text.
 */
function findUnstorableText(value: unknown, path: Array<string | number>, found: ErrorItem[]): void {
  if (typeof value === 'string') {
    const problem = unstorableTextProblem(value);
    if (problem) found.push({ field: fieldOf(path), message: problem });
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  if (path.length >= MAX_VALUE_DEPTH) {
    found.push({ field: fieldOf(path), message: 'is nested too deep' });
    return;
  }
  const entries: Array<[string | number, unknown]> = Array.isArray(value)
    ? value.map((item, index) => [index, item])
    : Object.entries(value);
  for (const [key, item] of entries) {
    const keyProblem = typeof key === 'string' ? unstorableTextProblem(key) : undefined;
    if (keyProblem) {
      // The key itself is not echoed: name the object that holds it.
      found.push({ field: fieldOf(path), message: `has a key that ${keyProblem}` });
      continue;
    }
    path.push(key);
    findUnstorableText(item, path, found);
    path.pop();
  }
}

/** Free-form JSON (marketplace bindings...) is stored as given: at most this deep and this long. */
export const FREE_FORM_MAX_DEPTH = 8;
export const FREE_FORM_MAX_CHARS = 16_384;

/**
 * Nesting, JSON length and suspect text of a free-form value, stopping as soon as the depth
 * or the length is over the limit.
 */
function measureFreeForm(value: unknown): { tooDeep: boolean; chars: number; suspect: boolean } {
  let chars = 0;
  let suspect = false;
  const stack: Array<{ item: unknown; depth: number }> = [{ item: value, depth: 0 }];
  while (stack.length > 0) {
    const { item, depth } = stack.pop() as { item: unknown; depth: number };
    if (typeof item === 'string') {
      chars += item.length + 2;
      suspect ||= SUSPECT_TEXT.test(item);
    } else if (typeof item !== 'object' || item === null) chars += String(item).length;
    else {
      if (depth >= FREE_FORM_MAX_DEPTH) return { tooDeep: true, chars, suspect };
      const entries = Array.isArray(item) ? item.map((child) => ['', child] as const) : Object.entries(item);
      chars += 2 + entries.length;
      for (const [key, child] of entries) {
        chars += key === '' ? 0 : key.length + 3;
        suspect ||= SUSPECT_TEXT.test(key);
        stack.push({ item: child, depth: depth + 1 });
      }
    }
    if (chars > FREE_FORM_MAX_CHARS) return { tooDeep: false, chars, suspect };
  }
  return { tooDeep: false, chars, suspect };
}

/**
 * Reads one request part along its schema. One instance per request part: it keeps the
 * path it is at, to name the field of a problem only the coercion sees (free-form limits).
 */
class Coercer {
  readonly issues: ErrorItem[] = [];
  private readonly path: Array<string | number> = [];

  /**
   * `stringly`: the part can only carry strings (form body, query, params, headers).
   * `partial`: a PATCH body (see ValidatorOptions).
   */
  constructor(
    private readonly stringly: boolean,
    private readonly partial = false,
  ) {}

  coerce(node: SchemaNode, value: unknown): Coerced {
    if (value === undefined) return ABSENT;
    // Every string of the part passes here (free-form ones in boundFreeForm): one text rule.
    if (typeof value === 'string' && SUSPECT_TEXT.test(value)) this.checkText(value);
    if (node.anyOf) return this.coerceUnion(node, value);
    const types = typesOf(node);

    // An empty string where no string can be a value means "nothing": null where null is a
    // value, else absent (so a required field "is required"). Optional fields are read by
    // the same rule one level up, in coerceObject.
    if (value === '' && !acceptsString(node)) {
      if (types.includes('array')) return [];
      return allowsNull(node) ? null : ABSENT;
    }
    if (isFreeForm(node)) return this.boundFreeForm(value);
    if (value === null || (typeof value === 'string' && value === 'null' && this.stringly)) {
      return types.includes('null') ? null : value;
    }
    if (node.enum || node.const !== undefined) return this.coerceLiteral(node, value);
    if (types.includes('object')) return this.coerceObject(node, value);
    if (types.includes('array')) return this.coerceArray(node, value);
    if (types.includes('integer') || types.includes('number')) {
      if (typeof value === 'string') return toNumber(value) ?? value;
      if (typeof value === 'boolean' && this.stringly) return value ? 1 : 0;
      return value;
    }
    if (types.includes('boolean')) {
      if (typeof value === 'string') {
        const word = value.trim().toLowerCase();
        if (TRUE_WORDS.has(word)) return true;
        if (FALSE_WORDS.has(word)) return false;
        return value;
      }
      if (value === 1) return true;
      if (value === 0) return false;
      return value;
    }
    if (types.includes('string')) {
      if (typeof value === 'number' && Number.isFinite(value)) return String(value);
      if (typeof value === 'string' && node.format === undefined) return value;
      return typeof value === 'string' ? value.trim() : value;
    }
    return value;
  }

  private coerceLiteral(node: SchemaNode, value: unknown): Coerced {
    const allowed = node.enum ?? [node.const];
    if (typeof value === 'string' && allowed.some((item) => typeof item === 'number')) {
      const number = toNumber(value);
      if (number !== undefined && allowed.includes(number)) return number;
    }
    if (typeof value === 'string' && allowed.some((item) => typeof item === 'boolean')) {
      const word = value.trim().toLowerCase();
      if (TRUE_WORDS.has(word) && allowed.includes(true)) return true;
      if (FALSE_WORDS.has(word) && allowed.includes(false)) return false;
    }
    if (typeof value === 'string' && allowed.includes(0) && allowed.includes(1)) {
      const word = value.trim().toLowerCase();
      if (TRUE_WORDS.has(word)) return 1;
      if (FALSE_WORDS.has(word)) return 0;
    }
    if (typeof value === 'boolean' && allowed.includes(0) && allowed.includes(1)) return value ? 1 : 0;
    if (typeof value === 'number' && allowed.some((item) => typeof item === 'string')) {
      const text = String(value);
      if (allowed.includes(text)) return text;
    }
    return value;
  }

  private coerceUnion(node: SchemaNode, value: unknown): Coerced {
    const branches = node.anyOf ?? [];
    const nullable = branches.some((branch) => typesOf(branch).includes('null'));
    if (value === null) return value;
    if (value === '') return acceptsString(node) ? value : nullable ? null : ABSENT;
    if (value === 'null' && this.stringly) return nullable ? null : value;
    const concrete = branches.filter((branch) => !typesOf(branch).includes('null') || branch.anyOf);
    // Pick the branch whose kind matches the value, so `{"id": "5"}` and `"5"` both work
    // for a field that takes either an object or a number.
    if (isPlainObject(value)) {
      const objectBranch = concrete.find((branch) => typesOf(branch).includes('object'));
      if (objectBranch) return this.coerce(objectBranch, value);
      const arrayBranch = concrete.find((branch) => typesOf(branch).includes('array'));
      if (arrayBranch) return this.coerce(arrayBranch, value);
      return value;
    }
    if (Array.isArray(value)) {
      const arrayBranch = concrete.find((branch) => typesOf(branch).includes('array'));
      return arrayBranch ? this.coerce(arrayBranch, value) : value;
    }
    // a number where a branch takes numbers stays one (not the text of another branch: a company id 2, not "2")
    if (
      typeof value === 'number' &&
      concrete.some((branch) => typesOf(branch).some((type) => type === 'integer' || type === 'number'))
    )
      return value;
    for (const branch of concrete) {
      const coerced = this.coerce(branch, value);
      if (coerced !== value) return coerced;
    }
    return value;
  }

  private coerceArray(node: SchemaNode, value: unknown): Coerced {
    let list: unknown[];
    if (Array.isArray(value)) list = value;
    else if (isPlainObject(value)) list = indexedObjectToArray(value) ?? [value];
    else if (
      typeof value === 'string' &&
      this.stringly &&
      node.items &&
      this.isCommaListItem(node.items) &&
      value.includes(',')
    ) {
      list = value
        .split(',')
        .map((part) => part.trim())
        .filter((part) => part !== '');
    } else list = [value];
    if (!node.items) return list;
    const items = node.items;
    return list.map((item, index) => {
      this.path.push(index);
      const coerced = this.coerce(items, item);
      this.path.pop();
      return coerced === ABSENT ? null : coerced;
    });
  }

  private boundFreeForm(value: unknown): unknown {
    const { tooDeep, chars, suspect } = measureFreeForm(value);
    if (tooDeep) this.issue(`must not nest objects or arrays more than ${FREE_FORM_MAX_DEPTH} levels deep`);
    else if (chars > FREE_FORM_MAX_CHARS) this.issue(`must be at most ${FREE_FORM_MAX_CHARS} characters long as JSON`);
    else if (suspect) findUnstorableText(value, [...this.path], this.issues);
    return value;
  }

  private checkText(text: string): void {
    const problem = unstorableTextProblem(text);
    if (problem) this.issue(problem);
  }

  /** A key the schema does not name, kept as given: its text follows the same rule. */
  private checkKey(key: string): boolean {
    const problem = SUSPECT_TEXT.test(key) ? unstorableTextProblem(key) : undefined;
    // The key itself is not echoed: name the object that holds it.
    if (problem) this.issue(`has a key that ${problem}`);
    return problem === undefined;
  }

  private issue(message: string): void {
    const field = fieldOf(this.path);
    // A union tries a value against each branch: one problem per field.
    if (!this.issues.some((issue) => issue.field === field)) this.issues.push({ field, message });
  }

  /**
   * An empty string for a property. For an optional one it means "not given", whatever the
   * field's rules (a minLength, pattern or enum never refuses it): null where null is a
   * value, else absent. Except in a PATCH body, where absent keeps the stored value: there it
   * is "make it empty" (null, an empty list, or refused). A required field reads it by the
   * node rule: "is required" or "must not be empty".
   */
  private emptyProperty(node: SchemaNode, optional: boolean): Coerced {
    if (allowsNull(node)) return null;
    if (optional && !this.partial) return ABSENT;
    if (optional && typesOf(node).includes('array')) return [];
    if (optional) return '';
    return this.coerce(node, '');
  }

  /** Items a comma list can carry unambiguously (`types=a,b`, `ids=1,2`): numbers, and names none of which holds a comma. */
  private isCommaListItem(node: SchemaNode): boolean {
    // a number or an own delivery method id ('12_3') holds no comma either (a `{0,14}` quantifier matches none)
    if (node.anyOf)
      return node.anyOf.every(
        (branch) =>
          this.isCommaListItem(branch) ||
          (typesOf(branch).includes('string') &&
            branch.pattern !== undefined &&
            !branch.pattern.replace(/\{\d+(,\d*)?\}/g, '').includes(',')),
      );
    const types = typesOf(node);
    if (types.includes('integer') || types.includes('number')) return true;
    return (
      node.enum?.every((item) => typeof item === 'number' || (typeof item === 'string' && !item.includes(','))) ?? false
    );
  }

  private coerceObject(node: SchemaNode, value: unknown): Coerced {
    if (!isPlainObject(value)) return value;
    const properties = node.properties ?? {};
    const required = node.required ?? [];
    const extra = node.additionalProperties;
    const result: Record<string, unknown> = {};
    for (const [key, propertyNode] of Object.entries(properties)) {
      const given = value[key];
      let coerced: Coerced = ABSENT;
      if (given !== undefined) {
        this.path.push(key);
        coerced =
          given === '' ? this.emptyProperty(propertyNode, !required.includes(key)) : this.coerce(propertyNode, given);
        this.path.pop();
      }
      if (coerced !== ABSENT) result[key] = coerced;
      else if (propertyNode.default !== undefined) result[key] = defaultValue(propertyNode.default);
    }
    const patterned = node.patternProperties ? Object.values(node.patternProperties) : [];
    const extraNode = isPlainObject(extra as unknown)
      ? (extra as SchemaNode)
      : patterned.length === 1
        ? patterned[0]
        : undefined;
    if (extraNode) {
      for (const [key, item] of Object.entries(value)) {
        if (key in properties || !this.checkKey(key)) continue;
        this.path.push(key);
        const coerced = this.coerce(extraNode, item);
        this.path.pop();
        if (coerced !== ABSENT) result[key] = coerced;
      }
    } else if (extra === true || (node.properties === undefined && extra === undefined)) {
      // An object whose schema names no fields takes any: free-form, bounded like the others.
      for (const [key, item] of Object.entries(value)) {
        if (key in properties || !this.checkKey(key)) continue;
        this.path.push(key);
        result[key] = this.boundFreeForm(item);
        this.path.pop();
      }
    }
    return result;
  }
}

export interface CompiledValidator<T = unknown> {
  /** Coerces, fills defaults, drops unknown fields and checks; throws a 400 AppError. */
  parse(value: unknown): T;
}

/** Marks a body that arrived form-encoded: it can only carry strings, so it is read leniently. */
export const FORM_ENCODED = Symbol('form-encoded');

export function markFormEncoded<T extends object>(body: T): T {
  Object.defineProperty(body, FORM_ENCODED, { value: true, enumerable: false });
  return body;
}

function isFormEncoded(value: unknown): boolean {
  return isPlainObject(value) && (value as Record<symbol, unknown>)[FORM_ENCODED] === true;
}

/**
 * Builds the validator for one request part. Query strings, params, headers and
 * form-encoded bodies get string coercion; header parts keep the headers they do not
 * declare (authentication must still see them).
 */
export function compileValidator<T = unknown>(
  schema: TSchema,
  part: RequestPart,
  options: ValidatorOptions = {},
): CompiledValidator<T> {
  const root = schema as unknown as SchemaNode;
  const check = Compile(schema);
  const rootIsObject = typesOf(root).includes('object');
  const partial = part === 'body' && options.partial === true;
  return {
    parse(value: unknown): T {
      const input = value === undefined || value === null ? (rootIsObject ? {} : value) : value;
      const coercer = new Coercer(part !== 'body' || isFormEncoded(input), partial);
      const result = coercer.coerce(root, input);
      const declared = result === ABSENT ? undefined : result;
      let coerced = declared;
      if (part === 'headers' && isPlainObject(input) && isPlainObject(declared)) {
        // Undeclared headers pass through as they came; declared ones as read (an empty
        // Shop-Id is no Shop-Id).
        const rest = Object.fromEntries(Object.entries(input).filter(([name]) => !(name in (root.properties ?? {}))));
        coerced = { ...rest, ...declared };
      }
      const problems = coercer.issues;
      if (problems.length === 0 && check.Check(coerced)) return coerced as T;
      const errors = mergeErrors(
        problems,
        problems.length > 0 && check.Check(coerced)
          ? []
          : translateErrors(root, check.Errors(coerced) as RawError[], '', coerced),
      );
      if (part === 'headers') for (const error of errors) error.field = headerLabel(error.field ?? '');
      throw validationError(errors);
    },
  };
}

/** A schema default for one request: a copy when it is an object or array (a handler may change it), else itself. */
function defaultValue(schemaDefault: unknown): unknown {
  return typeof schemaDefault === 'object' && schemaDefault !== null ? structuredClone(schemaDefault) : schemaDefault;
}

/**
 * Request validation: one TypeBox schema per request part gives the OpenAPI document,
 * the TypeScript type and this check.
 *
 * Before checking, values are coerced along the schema, because PHP shop plugins send
 * form-encoded bodies where every number is a string, booleans are `1`/`0` and arrays
 * come as `ids[0]=1` (an object with numeric keys once qs has read it). Unknown fields
 * are dropped; schema defaults are filled in. Errors come back as our field paths
 * (`products[2].dimensions.width`) with sentences a shop owner can read.
 */
import { Compile } from 'typebox/compile';
import type { TSchema } from 'typebox';
import { AppError, type ErrorItem } from './errors.js';

/** Where the value came from: form bodies and query strings carry only strings. */
export type RequestPart = 'body' | 'querystring' | 'params' | 'headers';

/** A JSON Schema node as TypeBox produces it; only the keywords we coerce by. */
interface SchemaNode {
  type?: string | string[];
  anyOf?: SchemaNode[];
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, SchemaNode>;
  required?: string[];
  additionalProperties?: boolean | SchemaNode;
  items?: SchemaNode;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  format?: string;
  pattern?: string;
  /** Our extension keyword: the sentence to show when this node fails (pattern, format...). */
  'x-message'?: string;
}

const ABSENT = Symbol('absent');
type Coerced = unknown | typeof ABSENT;

const TRUE_WORDS = new Set(['1', 'true', 'on', 'yes']);
const FALSE_WORDS = new Set(['0', 'false', 'off', 'no']);
const NUMERIC = /^[+-]?(\d+([.,]\d*)?|[.,]\d+)([eE][+-]?\d+)?$/;

function typesOf(node: SchemaNode): string[] {
  if (node.type === undefined) return [];
  return Array.isArray(node.type) ? node.type : [node.type];
}

function allowsNull(node: SchemaNode): boolean {
  if (typesOf(node).includes('null')) return true;
  return node.anyOf?.some((branch) => allowsNull(branch)) ?? false;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
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

class Coercer {
  /** `stringly`: the part can only carry strings (form body, query, params, headers). */
  constructor(private readonly stringly: boolean) {}

  coerce(node: SchemaNode, value: unknown): Coerced {
    if (value === undefined) return ABSENT;
    if (node.anyOf) return this.coerceUnion(node, value);
    const types = typesOf(node);

    if (typeof value === 'string' && this.stringly && value === '' && !types.includes('string')) {
      return allowsNull(node) ? null : ABSENT;
    }
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
    if (typeof value === 'string' && this.stringly && (value === '' || value === 'null')) {
      const stringBranch = branches.some((branch) => typesOf(branch).includes('string'));
      if (value === '' && stringBranch) return value;
      return nullable ? null : value === '' ? ABSENT : value;
    }
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
    else if (typeof value === 'string' && this.stringly && node.items && this.isScalarNumberNode(node.items) && value.includes(',')) {
      list = value.split(',').map((part) => part.trim()).filter((part) => part !== '');
    } else if (typeof value === 'string' && this.stringly && value === '') list = [];
    else list = [value];
    if (!node.items) return list;
    const items = node.items;
    return list.map((item) => {
      const coerced = this.coerce(items, item);
      return coerced === ABSENT ? null : coerced;
    });
  }

  private isScalarNumberNode(node: SchemaNode): boolean {
    const types = typesOf(node);
    return types.includes('integer') || types.includes('number') || (node.enum?.every((item) => typeof item === 'number') ?? false);
  }

  private coerceObject(node: SchemaNode, value: unknown): Coerced {
    if (!isPlainObject(value)) return value;
    const properties = node.properties ?? {};
    const extra = node.additionalProperties;
    const result: Record<string, unknown> = {};
    for (const [key, propertyNode] of Object.entries(properties)) {
      const coerced = this.coerce(propertyNode, value[key]);
      if (coerced !== ABSENT) result[key] = coerced;
      else if (propertyNode.default !== undefined) result[key] = structuredClone(propertyNode.default);
    }
    if (isPlainObject(extra as unknown)) {
      for (const [key, item] of Object.entries(value)) {
        if (key in properties) continue;
        const coerced = this.coerce(extra as SchemaNode, item);
        if (coerced !== ABSENT) result[key] = coerced;
      }
    } else if (extra === true || (node.properties === undefined && extra === undefined)) {
      for (const [key, item] of Object.entries(value)) if (!(key in properties)) result[key] = item;
    }
    return result;
  }
}

// ---------------------------------------------------------------------------------
// Error messages

function resolvePointer(root: SchemaNode, pointer: string): SchemaNode | undefined {
  const parts = pointer.replace(/^#\/?/, '').split('/').filter((part) => part !== '');
  let node: unknown = root;
  for (const part of parts) {
    if (!isPlainObject(node) && !Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return isPlainObject(node) ? (node as SchemaNode) : undefined;
}

/** `/products/2/dimensions/width` -> `products[2].dimensions.width` */
export function toFieldPath(instancePath: string, prefix = ''): string {
  let path = prefix;
  for (const raw of instancePath.split('/').filter((part) => part !== '')) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (/^\d+$/.test(part)) path += `[${part}]`;
    else path += path === '' ? part : `.${part}`;
  }
  return path;
}

function describeLiterals(values: unknown[]): string {
  return values.map((value) => JSON.stringify(value)).join(', ');
}

function literalValues(node: SchemaNode): unknown[] | undefined {
  if (node.enum) return node.enum;
  if (node.const !== undefined) return [node.const];
  if (node.anyOf) {
    const values: unknown[] = [];
    for (const branch of node.anyOf) {
      if (typesOf(branch).includes('null') && !branch.anyOf) {
        values.push(null);
        continue;
      }
      const inner = literalValues(branch);
      if (!inner) return undefined;
      values.push(...inner);
    }
    return values;
  }
  return undefined;
}

const TYPE_WORDS: Record<string, string> = {
  integer: 'a whole number',
  number: 'a number',
  string: 'a string',
  boolean: 'true or false (1 or 0)',
  object: 'an object',
  array: 'an array',
  null: 'null',
};

const FORMAT_WORDS: Record<string, string> = {
  date: 'a date in the form YYYY-MM-DD',
  'date-time': 'a date and time in RFC 3339 form, e.g. 2026-01-31T10:00:00+03:00',
  email: 'an e-mail address',
  uri: 'an absolute URL',
  url: 'an absolute URL',
  time: 'a time in the form HH:MM',
};

function describeNode(node: SchemaNode): string {
  if (node['x-message']) return node['x-message'];
  const literals = literalValues(node);
  if (literals) return `must be one of: ${describeLiterals(literals)}`;
  if (node.anyOf) {
    const words = node.anyOf.map((branch) => (branch.format ? FORMAT_WORDS[branch.format] : undefined) ?? typesOf(branch).map((type) => TYPE_WORDS[type] ?? type).join(' or '));
    return `must be ${[...new Set(words.filter((word) => word !== ''))].join(' or ')}`;
  }
  return 'has an invalid value';
}

interface RawError {
  keyword: string;
  schemaPath: string;
  instancePath: string;
  params: Record<string, unknown>;
  message: string;
}

function messageFor(error: RawError, node: SchemaNode | undefined): string {
  if (node?.['x-message'] && error.keyword !== 'required') return node['x-message'];
  const limit = error.params.limit as number | undefined;
  switch (error.keyword) {
    case 'type': {
      const expected = error.params.type as string | string[];
      const words = (Array.isArray(expected) ? expected : [expected]).map((type) => TYPE_WORDS[type] ?? type);
      return `must be ${words.join(' or ')}`;
    }
    case 'minimum':
      return `must be at least ${limit}`;
    case 'maximum':
      return `must be at most ${limit}`;
    case 'exclusiveMinimum':
      return `must be greater than ${limit}`;
    case 'exclusiveMaximum':
      return `must be less than ${limit}`;
    case 'minLength':
      return limit === 1 ? 'must not be empty' : `must be at least ${limit} characters long`;
    case 'maxLength':
      return `must be at most ${limit} characters long`;
    case 'minItems':
      if (node && node.maxItems === limit) return `must hold exactly ${limit} values`;
      return limit === 1 ? 'must not be empty' : `must hold at least ${limit} values`;
    case 'maxItems':
      if (node && node.minItems === limit) return `must hold exactly ${limit} values`;
      return `must hold at most ${limit} values`;
    case 'enum':
      return `must be one of: ${describeLiterals((error.params.allowedValues as unknown[]) ?? node?.enum ?? [])}`;
    case 'const':
      return `must be ${JSON.stringify(error.params.allowedValue)}`;
    case 'format':
      return `must be ${FORMAT_WORDS[error.params.format as string] ?? `in ${String(error.params.format)} format`}`;
    case 'pattern':
      return 'has an invalid format';
    case 'multipleOf':
      return `must be a multiple of ${String(error.params.multipleOf)}`;
    case 'uniqueItems':
      return 'must not repeat values';
    case 'anyOf':
      return node ? describeNode(node) : 'has an invalid value';
    default:
      return error.message;
  }
}

/**
 * Inside a union (`anyOf`), the branch of the value's own kind says what is wrong
 * ("must be at least 0.001" rather than "must be a number or null"). When exactly one
 * branch matches the value's kind, keep its errors; otherwise keep the union's sentence.
 */
function resolveUnionErrors(raw: RawError[]): RawError[] {
  const dropped = new Set<RawError>();
  const unions = raw.filter((error) => error.keyword === 'anyOf').sort((a, b) => a.schemaPath.length - b.schemaPath.length);
  for (const union of unions) {
    if (dropped.has(union)) continue;
    const prefix = `${union.schemaPath}/anyOf/`;
    const branches = new Map<string, RawError[]>();
    for (const error of raw) {
      if (!error.schemaPath.startsWith(prefix)) continue;
      const branch = error.schemaPath.slice(prefix.length).split('/')[0];
      branches.set(branch, [...(branches.get(branch) ?? []), error]);
    }
    const kindMismatch = (errors: RawError[]) =>
      errors.some((error) => error.instancePath === union.instancePath && (error.keyword === 'type' || error.keyword === 'const' || error.keyword === 'enum'));
    const matching = [...branches.values()].filter((errors) => !kindMismatch(errors));
    const kept = matching.length === 1 ? new Set(matching[0]) : new Set<RawError>();
    for (const errors of branches.values()) for (const error of errors) if (!kept.has(error)) dropped.add(error);
    if (kept.size > 0) dropped.add(union);
  }
  return raw.filter((error) => !dropped.has(error));
}

/**
 * An object whose `additionalProperties` is a schema reports an extra property twice: once on
 * the property itself (its own message, "cannot be changed by PATCH") and once on the object
 * ("must not have additional properties"). Keep the one that names the property.
 */
function withoutRestatedExtras(raw: RawError[]): RawError[] {
  const reported = new Set(raw.map((error) => error.instancePath));
  return raw.filter((error) => {
    if (error.keyword !== 'additionalProperties') return true;
    const extras = (error.params.additionalProperties as string[] | undefined) ?? [];
    return extras.length === 0 || !extras.every((key) => reported.has(`${error.instancePath}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`));
  });
}

/** Turns TypeBox errors into our field errors: one per field, the most useful first. */
export function translateErrors(root: SchemaNode, rawErrors: RawError[], prefix = ''): ErrorItem[] {
  const raw = withoutRestatedExtras(resolveUnionErrors(rawErrors));
  const byField = new Map<string, ErrorItem>();
  for (const error of raw) {
    if (error.keyword === 'required') {
      const missing = (error.params.requiredProperties as string[] | undefined) ?? [];
      for (const property of missing) {
        const field = toFieldPath(`${error.instancePath}/${property.replace(/~/g, '~0').replace(/\//g, '~1')}`, prefix);
        if (!byField.has(field)) byField.set(field, { field, message: 'is required' });
      }
      continue;
    }
    const field = toFieldPath(error.instancePath, prefix) || prefix || '(body)';
    if (byField.has(field)) continue;
    const node = resolvePointer(root, error.schemaPath);
    byField.set(field, { field, message: messageFor(error, node) });
  }
  return [...byField.values()];
}

export function validationError(errors: ErrorItem[]): AppError {
  const first = errors[0];
  const summary = first ? `${first.field}: ${first.message}` : 'The request is invalid.';
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
  return new AppError(400, 'validation_failed', `Invalid request. ${summary}${more}.`, errors);
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

const JSON_COERCER = new Coercer(false);
const STRING_COERCER = new Coercer(true);

/**
 * Builds the validator for one request part. Query strings, params, headers and
 * form-encoded bodies get string coercion; header parts keep the headers they do not
 * declare (authentication must still see them).
 */
export function compileValidator<T = unknown>(schema: TSchema, part: RequestPart): CompiledValidator<T> {
  const root = schema as unknown as SchemaNode;
  const check = Compile(schema);
  const rootIsObject = typesOf(root).includes('object');
  return {
    parse(value: unknown): T {
      const input = value === undefined || value === null ? (rootIsObject ? {} : value) : value;
      const coercer = part !== 'body' || isFormEncoded(input) ? STRING_COERCER : JSON_COERCER;
      let coerced: unknown;
      if (part === 'headers' && isPlainObject(input)) {
        coerced = { ...input, ...(coercer.coerce(root, input) as Record<string, unknown>) };
      } else {
        const result = coercer.coerce(root, input);
        coerced = result === ABSENT ? undefined : result;
      }
      if (check.Check(coerced)) return coerced as T;
      const errors = translateErrors(root, check.Errors(coerced) as RawError[]);
      if (part === 'headers') for (const error of errors) error.field = headerLabel(error.field ?? '');
      throw validationError(errors);
    },
  };
}

const HEADER_LABELS: Record<string, string> = { 'shop-id': 'Shop-Id', 'company-id': 'Company-Id', type: 'Type', 'idempotency-key': 'Idempotency-Key' };

function headerLabel(field: string): string {
  return HEADER_LABELS[field] ?? field;
}

/**
 * What a refused request part is told: TypeBox's errors as our field errors (one per field,
 * the field as `products[2].dimensions.width`, a sentence a shop owner can read), merged with
 * what the coercion found first, and the 400 `validation_failed` that carries them. Apart from
 * validation.ts because none of it runs for a valid request: the coercion and the check there
 * are the hot path, this is read only when they refuse.
 */
import { AppError, type ErrorItem } from './errors.js';
import { isPlainObject, typesOf, type SchemaNode } from './schema-node.js';

function resolvePointer(root: SchemaNode, pointer: string): SchemaNode | undefined {
  const parts = pointer
    .replace(/^#\/?/, '')
    .split('/')
    .filter((part) => part !== '');
  let node: unknown = root;
  for (const part of parts) {
    if (!isPlainObject(node) && !Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return isPlainObject(node) ? (node as SchemaNode) : undefined;
}

function valueAt(value: unknown, instancePath: string): unknown {
  let at: unknown = value;
  for (const raw of instancePath.split('/').filter((part) => part !== '')) {
    if (typeof at !== 'object' || at === null) return undefined;
    at = (at as Record<string, unknown>)[raw.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return at;
}

/** `['products', 2, 'name']` -> `products[2].name` */
export function fieldOf(path: Array<string | number>): string {
  return (
    path
      .map((part) => (typeof part === 'number' ? `[${part}]` : `.${part}`))
      .join('')
      .replace(/^\./, '') || '(body)'
  );
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
    const words = node.anyOf.map(
      (branch) =>
        (branch.format ? FORMAT_WORDS[branch.format] : undefined) ??
        typesOf(branch)
          .map((type) => TYPE_WORDS[type] ?? type)
          .join(' or '),
    );
    return `must be ${[...new Set(words.filter((word) => word !== ''))].join(' or ')}`;
  }
  return 'has an invalid value';
}

export interface RawError {
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
  const unions = raw
    .filter((error) => error.keyword === 'anyOf')
    .sort((a, b) => a.schemaPath.length - b.schemaPath.length);
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
      errors.some(
        (error) =>
          error.instancePath === union.instancePath &&
          (error.keyword === 'type' || error.keyword === 'const' || error.keyword === 'enum'),
      );
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
    return (
      extras.length === 0 ||
      !extras.every((key) => reported.has(`${error.instancePath}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`))
    );
  });
}

/** Turns TypeBox errors into our field errors: one per field, the most useful first. */
export function translateErrors(root: SchemaNode, rawErrors: RawError[], prefix = '', value?: unknown): ErrorItem[] {
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
    // An empty string that a rule refuses is one problem whatever the rule: it is empty.
    const empty =
      error.keyword !== 'not' && error.keyword !== 'additionalProperties' && valueAt(value, error.instancePath) === '';
    byField.set(field, { field, message: empty ? 'must not be empty' : messageFor(error, node) });
  }
  return [...byField.values()];
}

export function validationError(errors: ErrorItem[]): AppError {
  const first = errors[0];
  const summary = first ? `${first.field}: ${first.message}` : 'The request is invalid.';
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
  return new AppError(400, 'validation_failed', `Invalid request. ${summary}${more}.`, errors);
}

/** Problems found while reading first, then the schema's; one per field. */
export function mergeErrors(first: ErrorItem[], second: ErrorItem[]): ErrorItem[] {
  const seen = new Set(first.map((error) => error.field));
  return [...first, ...second.filter((error) => !seen.has(error.field))];
}

const HEADER_LABELS: Record<string, string> = {
  'shop-id': 'Shop-Id',
  'company-id': 'Company-Id',
  type: 'Type',
  'idempotency-key': 'Idempotency-Key',
};

export function headerLabel(field: string): string {
  return HEADER_LABELS[field] ?? field;
}

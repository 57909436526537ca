import { describe, expect, it } from 'vitest';
import Type, { type Static } from 'typebox';
import { compileValidator, markFormEncoded, toFieldPath } from './validation.js';
import { AppError } from './errors.js';
import { parseQueryString } from './http.js';
import { Nullable } from './schemas.js';

const Order = Type.Object({
  ids: Type.Optional(Type.Array(Type.Integer({ minimum: 1 }))),
  applyWidgetSettings: Type.Optional(Type.Boolean()),
  weight: Type.Optional(Nullable(Type.Number({ minimum: 0.001 }))),
  comment: Type.Optional(Type.String()),
  type: Type.Optional(Type.Enum([1, 2, 3])),
  flag: Type.Optional(Type.Enum([0, 1])),
  products: Type.Optional(
    Type.Array(
      Type.Object({
        name: Type.String(),
        count: Type.Integer({ minimum: 1, default: 1 }),
        dimensions: Type.Optional(Type.Object({ width: Type.Integer({ minimum: 1, maximum: 999 }) })),
      }),
    ),
  ),
  warehouse: Type.Optional(Type.Union([Type.Object({ id: Type.Integer() }), Type.Integer()])),
});

function errorsOf(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error.errors;
    throw error;
  }
  throw new Error('expected a validation error');
}

describe('form-encoded bodies are read along the schema', () => {
  const body = compileValidator<Static<typeof Order>>(Order, 'body');
  const form = (text: string) => body.parse(markFormEncoded(parseQueryString(text)));

  it('turns strings into numbers, 1/0 into booleans and bracket keys into arrays', () => {
    expect(
      form(
        'ids[0]=15&ids[1]=16&applyWidgetSettings=1&weight=0.5&type=2&products[0][name]=Чай&products[0][count]=3&products[0][dimensions][width]=10',
      ),
    ).toEqual({
      ids: [15, 16],
      applyWidgetSettings: true,
      weight: 0.5,
      type: 2,
      products: [{ name: 'Чай', count: 3, dimensions: { width: 10 } }],
    });
    expect(form('applyWidgetSettings=0&flag=true')).toEqual({ applyWidgetSettings: false, flag: 1 });
    expect(form('applyWidgetSettings=false')).toEqual({ applyWidgetSettings: false });
  });

  it('keeps long and sparse index lists in order, and takes a single value or a comma list as an array', () => {
    const keys = Array.from({ length: 30 }, (_, index) => `ids[${index}]=${index + 1}`).join('&');
    expect(form(keys).ids).toEqual(Array.from({ length: 30 }, (_, index) => index + 1));
    expect(form('ids[3]=4&ids[10]=11').ids).toEqual([4, 11]);
    expect(form('ids=7').ids).toEqual([7]);
    expect(form('ids=7,8,9').ids).toEqual([7, 8, 9]);
    const names = compileValidator<{ kinds?: string[] }>(
      Type.Object({ kinds: Type.Optional(Type.Array(Type.Enum(['a.b', 'c.d']))) }),
      'querystring',
    );
    expect(names.parse(parseQueryString('kinds=a.b,c.d')).kinds).toEqual(['a.b', 'c.d']);
  });

  it('treats an empty value as absent, or null where null is allowed', () => {
    expect(form('weight=&comment=&type=')).toEqual({ weight: null });
  });

  it('fills defaults and drops fields the schema does not know', () => {
    expect(form('products[0][name]=x&products[0][prePay]=1&products[0][discount]=5&unknown=1')).toEqual({
      products: [{ name: 'x', count: 1 }],
    });
  });

  it('reads a union of an object and a number from either spelling', () => {
    expect(form('warehouse[id]=5').warehouse).toEqual({ id: 5 });
    expect(form('warehouse=5').warehouse).toBe(5);
  });

  it('reports field paths the way clients name fields', () => {
    expect(
      errorsOf(() => form('products[0][name]=a&products[1][name]=b&products[1][dimensions][width]=1000&ids[0]=x')),
    ).toEqual([
      { field: 'ids[0]', message: 'must be a whole number' },
      { field: 'products[1].dimensions.width', message: 'must be at most 999' },
    ]);
    expect(errorsOf(() => form('weight=0.0001'))).toEqual([{ field: 'weight', message: 'must be at least 0.001' }]);
    expect(errorsOf(() => form('type=7'))).toEqual([{ field: 'type', message: 'must be one of: 1, 2, 3' }]);
    expect(errorsOf(() => form('applyWidgetSettings=maybe'))).toEqual([
      { field: 'applyWidgetSettings', message: 'must be true or false (1 or 0)' },
    ]);
    expect(errorsOf(() => form('products[0][count]=2'))).toEqual([
      { field: 'products[0].name', message: 'is required' },
    ]);
  });
});

describe('JSON bodies', () => {
  const body = compileValidator<Static<typeof Order>>(Order, 'body');

  it('accepts numeric strings and drops unknown fields', () => {
    expect(body.parse({ ids: ['1', 2], weight: '1.5', comment: 'x', extra: true })).toEqual({
      ids: [1, 2],
      weight: 1.5,
      comment: 'x',
    });
  });

  it('reads an empty string for an optional field as not given, as form bodies do', () => {
    expect(
      body.parse({
        weight: '',
        comment: '',
        type: '',
        applyWidgetSettings: '',
        ids: '',
        products: [{ name: 'x', count: '' }],
      }),
    ).toEqual({ weight: null, products: [{ name: 'x', count: 1 }] });
  });
});

describe('empty strings: one rule for every optional field', () => {
  const Country = Type.String({ pattern: '^[A-Za-z]{2}$', 'x-message': 'must be a two-letter country code' });
  const Product = Type.Object({
    name: Type.String({ minLength: 1 }),
    code: Type.String({ pattern: '^[A-Z]{2}$' }),
    producingCountry: Type.Optional(Nullable(Country)),
    origin: Type.Optional(Country),
    vat: Type.Optional(Nullable(Type.Enum([0, 10, 20]))),
    kind: Type.Optional(Type.Enum(['a', 'b'], { default: 'a' })),
    since: Type.Optional(Type.String({ format: 'date' })),
    tags: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
  });
  const json = compileValidator(Product, 'body');
  const patch = compileValidator(Product, 'body', { partial: true });
  const form = (text: string) => json.parse(markFormEncoded(parseQueryString(text)));

  it('never lets a minLength, pattern, enum or format of an optional field refuse an empty string, JSON or form', () => {
    const empty = { producingCountry: '', origin: '', vat: '', kind: '', since: '', tags: '' };
    expect(json.parse({ name: 'x', code: 'RU', ...empty })).toEqual({
      name: 'x',
      code: 'RU',
      producingCountry: null,
      vat: null,
      kind: 'a',
    });
    expect(form('name=x&code=RU&producingCountry=&origin=&vat=&kind=&since=&tags=')).toEqual({
      name: 'x',
      code: 'RU',
      producingCountry: null,
      vat: null,
      kind: 'a',
    });
  });

  it('refuses an empty string for a required field as empty', () => {
    expect(errorsOf(() => json.parse({ name: '', code: '' }))).toEqual([
      { field: 'name', message: 'must not be empty' },
      { field: 'code', message: 'must not be empty' },
    ]);
  });

  it('reads an empty string in a PATCH body as "make it empty": null where allowed, else refused', () => {
    expect(patch.parse({ name: 'x', code: 'RU', producingCountry: '', tags: '' })).toEqual({
      name: 'x',
      code: 'RU',
      producingCountry: null,
      tags: [],
      kind: 'a',
    });
    expect(errorsOf(() => patch.parse({ name: '', code: 'RU' }))).toEqual([
      { field: 'name', message: 'must not be empty' },
    ]);
    expect(errorsOf(() => patch.parse({ name: 'x', code: 'RU', origin: '', kind: '' }))).toEqual([
      { field: 'origin', message: 'must not be empty' },
      { field: 'kind', message: 'must not be empty' },
    ]);
  });
});

describe('text every database can store', () => {
  const Box = Type.Object({
    name: Type.Optional(Type.String()),
    data: Type.Optional(Type.Array(Type.Unknown())),
    ids: Type.Optional(Type.Array(Type.Integer())),
  });
  const json = compileValidator(Box, 'body');

  it('refuses a NUL character or a lone surrogate anywhere, free-form keys and values included, naming the field', () => {
    expect(errorsOf(() => json.parse({ name: 'a\u0000b' }))).toEqual([
      { field: 'name', message: 'must not contain a NUL character (U+0000)' },
    ]);
    expect(errorsOf(() => json.parse({ name: 'a\ud800' }))).toEqual([
      { field: 'name', message: expect.stringMatching(/unpaired UTF-16 surrogate/) },
    ]);
    expect(errorsOf(() => json.parse({ name: '\udc00x' }))).toEqual([
      { field: 'name', message: expect.stringMatching(/unpaired/) },
    ]);
    expect(errorsOf(() => json.parse({ data: [{ sku: ['ok', 'x\u0000'] }] }))).toEqual([
      { field: 'data[0].sku[1]', message: expect.stringMatching(/NUL/) },
    ]);
    expect(errorsOf(() => json.parse({ data: [{ ['k\ud800']: 1 }] }))).toEqual([
      { field: 'data[0]', message: expect.stringMatching(/^has a key that must be valid Unicode/) },
    ]);
    expect(json.parse({ name: 'Чай 🍵 ok' })).toEqual({ name: 'Чай 🍵 ok' });
  });

  it('checks query strings and headers by the same rule', () => {
    const query = compileValidator(Type.Object({ name: Type.Optional(Type.String()) }), 'querystring');
    expect(errorsOf(() => query.parse(parseQueryString('name=a%00b')))).toEqual([
      { field: 'name', message: expect.stringMatching(/NUL/) },
    ]);
  });
});

describe('free-form JSON', () => {
  const Product = Type.Object({ bindings: Type.Optional(Type.Array(Type.Unknown(), { maxItems: 100 })) });
  const json = compileValidator(Product, 'body');

  it('bounds the depth and the size of what is stored as given', () => {
    let deep: unknown = 1;
    for (let level = 0; level < 9; level += 1) deep = [deep];
    expect(errorsOf(() => json.parse({ bindings: [deep] }))).toEqual([
      { field: 'bindings[0]', message: 'must not nest objects or arrays more than 8 levels deep' },
    ]);
    expect(errorsOf(() => json.parse({ bindings: [{ sku: 'x'.repeat(20_000) }] }))).toEqual([
      { field: 'bindings[0]', message: expect.stringMatching(/^must be at most 16384 characters/) },
    ]);
    expect(json.parse({ bindings: [{ marketplaceId: 3, sku: 'WB-1', extra: { a: [1, { b: 2 }] } }] })).toEqual({
      bindings: [{ marketplaceId: 3, sku: 'WB-1', extra: { a: [1, { b: 2 }] } }],
    });
  });
});

describe('headers', () => {
  it('coerces declared headers, keeps the rest, and names them as clients write them', () => {
    const headers = compileValidator(Type.Object({ 'shop-id': Type.Integer({ minimum: 1 }) }), 'headers');
    expect(headers.parse({ 'shop-id': '12', authorization: 'Bearer x' })).toEqual({
      'shop-id': 12,
      authorization: 'Bearer x',
    });
    expect(errorsOf(() => headers.parse({ 'shop-id': 'abc' }))).toEqual([
      { field: 'Shop-Id', message: 'must be a whole number' },
    ]);
  });
});

describe('toFieldPath', () => {
  it('writes array indexes in brackets', () => {
    expect(toFieldPath('/products/2/dimensions/width')).toBe('products[2].dimensions.width');
    expect(toFieldPath('/0/name')).toBe('[0].name');
    expect(toFieldPath('')).toBe('');
  });
});

describe('properties an object does not take', () => {
  const Refused = Type.Unsafe<never>({ not: {}, 'x-message': 'cannot be changed here' });
  const Patch = Type.Object(
    {
      comment: Type.Optional(Type.String()),
      recipient: Type.Optional(
        Type.Object({ phone: Type.String({ minLength: 1 }) }, { additionalProperties: Refused }),
      ),
    },
    { additionalProperties: Refused },
  );
  const patch = compileValidator(Patch, 'body');

  it('names each refused property once, with the message of its schema', () => {
    expect(errorsOf(() => patch.parse({ comment: 'x', price: 1 }))).toEqual([
      { field: 'price', message: 'cannot be changed here' },
    ]);
  });

  it('names a refused nested property beside an error of its sibling, each once', () => {
    expect(errorsOf(() => patch.parse({ recipient: { phone: '', address: 'Kazan' } }))).toEqual([
      { field: 'recipient.address', message: 'cannot be changed here' },
      { field: 'recipient.phone', message: 'must not be empty' },
    ]);
  });
});

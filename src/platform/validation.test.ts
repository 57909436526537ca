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
    expect(form('ids[0]=15&ids[1]=16&applyWidgetSettings=1&weight=0.5&type=2&products[0][name]=Чай&products[0][count]=3&products[0][dimensions][width]=10')).toEqual({
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
  });

  it('treats an empty value as absent, or null where null is allowed', () => {
    expect(form('weight=&comment=&type=')).toEqual({ weight: null, comment: '' });
  });

  it('fills defaults and drops fields the schema does not know', () => {
    expect(form('products[0][name]=x&products[0][prePay]=1&products[0][discount]=5&unknown=1')).toEqual({ products: [{ name: 'x', count: 1 }] });
  });

  it('reads a union of an object and a number from either spelling', () => {
    expect(form('warehouse[id]=5').warehouse).toEqual({ id: 5 });
    expect(form('warehouse=5').warehouse).toBe(5);
  });

  it('reports field paths the way clients name fields', () => {
    expect(errorsOf(() => form('products[0][name]=a&products[1][name]=b&products[1][dimensions][width]=1000&ids[0]=x'))).toEqual([
      { field: 'ids[0]', message: 'must be a whole number' },
      { field: 'products[1].dimensions.width', message: 'must be at most 999' },
    ]);
    expect(errorsOf(() => form('weight=0.0001'))).toEqual([{ field: 'weight', message: 'must be at least 0.001' }]);
    expect(errorsOf(() => form('type=7'))).toEqual([{ field: 'type', message: 'must be one of: 1, 2, 3' }]);
    expect(errorsOf(() => form('applyWidgetSettings=maybe'))).toEqual([{ field: 'applyWidgetSettings', message: 'must be true or false (1 or 0)' }]);
    expect(errorsOf(() => form('products[0][count]=2'))).toEqual([{ field: 'products[0].name', message: 'is required' }]);
  });
});

describe('JSON bodies', () => {
  const body = compileValidator<Static<typeof Order>>(Order, 'body');

  it('accepts numeric strings and drops unknown fields but keeps empty strings as strings', () => {
    expect(body.parse({ ids: ['1', 2], weight: '1.5', comment: '', extra: true })).toEqual({ ids: [1, 2], weight: 1.5, comment: '' });
  });

  it('refuses an empty string for a number', () => {
    expect(errorsOf(() => body.parse({ weight: '' }))).toEqual([{ field: 'weight', message: 'must be a number or null' }]);
  });
});

describe('headers', () => {
  it('coerces declared headers, keeps the rest, and names them as clients write them', () => {
    const headers = compileValidator(Type.Object({ 'shop-id': Type.Integer({ minimum: 1 }) }), 'headers');
    expect(headers.parse({ 'shop-id': '12', authorization: 'Bearer x' })).toEqual({ 'shop-id': 12, authorization: 'Bearer x' });
    expect(errorsOf(() => headers.parse({ 'shop-id': 'abc' }))).toEqual([{ field: 'Shop-Id', message: 'must be a whole number' }]);
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
      recipient: Type.Optional(Type.Object({ phone: Type.String({ minLength: 1 }) }, { additionalProperties: Refused })),
    },
    { additionalProperties: Refused },
  );
  const patch = compileValidator(Patch, 'body');

  it('names each refused property once, with the message of its schema', () => {
    expect(errorsOf(() => patch.parse({ comment: 'x', price: 1 }))).toEqual([{ field: 'price', message: 'cannot be changed here' }]);
  });

  it('names a refused nested property beside an error of its sibling, each once', () => {
    expect(errorsOf(() => patch.parse({ recipient: { phone: '', address: 'Kazan' } }))).toEqual([
      { field: 'recipient.address', message: 'cannot be changed here' },
      { field: 'recipient.phone', message: 'must not be empty' },
    ]);
  });
});

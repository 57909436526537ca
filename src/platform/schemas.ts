/** TypeBox building blocks shared by every area: ids, nullable values, sizes, dates, errors. */
import Type, { type Static, type TSchema, type TUnsafe } from 'typebox';
import { ERROR_CODES, type ErrorCode } from './error-codes.js';

/**
 * `T | null`. Written as a type list (`"type": ["string", "null"]`) where the schema has
 * one type: responses serialise several times faster than with `anyOf`, and validation
 * reports the inner rule ("must be at least 1") rather than the union.
 */
export function Nullable<T extends TSchema>(schema: T): TUnsafe<Static<T> | null> {
  const type = (schema as { type?: unknown }).type;
  if (typeof type === 'string') return Type.Unsafe<Static<T> | null>({ ...schema, type: [type, 'null'] });
  return Type.Unsafe<Static<T> | null>(Type.Union([schema, Type.Null()]));
}

/**
 * The id of a stored record (order, shop, warehouse, product, point). Larger numbers lose digits
 * in JavaScript and PostgreSQL refuses them for its bigint columns (a 500), so they are bad input.
 */
export const RecordId = (description?: string) =>
  Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, ...(description ? { description } : {}) });

/** The largest value of a 32-bit integer column (PostgreSQL `integer`): codes, pages, counts. */
export const INT32_MAX = 2_147_483_647;

/** An id from a fixed list (a delivery company, a service, a time slot), kept in 32-bit columns. */
export const CodeId = (description?: string) =>
  Type.Integer({ minimum: 1, maximum: INT32_MAX, ...(description ? { description } : {}) });

export const IdParams = Type.Object({ id: RecordId('Identifier') });

export const Created = Type.Object(
  { id: Type.Integer({ description: 'Identifier of the created record' }) },
  { description: 'Created' },
);

/** 0 or 1 in a query filter (`true`/`false` accepted too). */
export const ZeroOne = Type.Enum([0, 1], { description: '0 or 1' });

/** A side in centimetres, 1 to 999 (whole numbers for products and boxes). */
export const SideCm = Type.Integer({ minimum: 1, maximum: 999, description: 'cm, whole number 1 to 999' });

/**
 * A side of a whole shipment (overall `dimensions`), 1 to 999 cm. 0 means "not given", like an
 * empty value: a WordPress plugin rounds every parcel under 0.125 m³ down to 0, and the goods'
 * or the widget's sizes must then apply instead of a refusal.
 */
export const OverallSideCm = Type.Number({
  minimum: 0,
  maximum: 999,
  description: "cm, 1 to 999; 0 or empty: not given (the goods' or the widget's sizes apply)",
});

/** A weight in kilograms, to the gram. The gram precision is checked by `gramsOf()`. */
export const WeightKg = Type.Number({
  minimum: 0.001,
  maximum: 100000,
  description: 'kg, to the gram (3 decimals), at least 0.001',
});

/** A calendar day, YYYY-MM-DD, described for its field. */
export const DayText = (description: string) => Type.String({ format: 'date', description, examples: ['2026-12-01'] });
export const DateText = DayText('YYYY-MM-DD');

/** An instant with its offset (RFC 3339). */
export const Instant = Type.String({ format: 'date-time', description: 'RFC 3339 date and time with offset' });

export const CountryCode = Type.String({
  pattern: '^[A-Za-z]{2}$',
  'x-message': 'must be a two-letter country code (ISO 3166-1), e.g. RU',
  description: 'ISO 3166-1 alpha-2 country code',
  examples: ['RU'],
});

export const Phone = Type.String({
  pattern: '^\\+?[0-9 ()\\-]{5,25}$',
  'x-message': 'must be a phone number of digits, with an optional leading +',
  examples: ['+79161234567'],
});

/** The error codes of the closed catalogue (platform/error-codes.ts), published once as `ErrorCode`. */
export const ErrorCodeSchema = Type.Unsafe<ErrorCode>({
  type: 'string',
  enum: Object.keys(ERROR_CODES),
  description: `Stable machine-readable code, one of a closed catalogue:\n${Object.entries(ERROR_CODES)
    .map(([code, meaning]) => `- \`${code}\`: ${meaning}`)
    .join('\n')}`,
  examples: ['validation_failed'],
});

export const ErrorBody = Type.Object(
  {
    code: ErrorCodeSchema,
    message: Type.String({ description: 'A sentence to show to the shop owner' }),
    errors: Type.Array(
      Type.Object({
        field: Type.Optional(Type.String({ description: 'Path of the field, e.g. products[2].dimensions.width' })),
        id: Type.Optional(
          Type.Union([Type.Integer(), Type.String()], { description: 'Id of the record (batch operations)' }),
        ),
        message: Type.String(),
      }),
    ),
    logId: Type.String({ description: 'Quote it to support; also in the x-log-id header' }),
  },
  { description: 'Error' },
);

/** Error responses documented on every route. */
export function errorResponses(...statuses: number[]): Record<number, TSchema> {
  const responses: Record<number, TSchema> = {};
  for (const status of [400, 401, ...statuses]) responses[status] = ErrorBody;
  return responses;
}

/** 204: no body. */
export const NoContent = Type.Unsafe<undefined>({ description: 'No content' });

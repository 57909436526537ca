import Type, { type Static } from 'typebox';
import { Nullable, SideCm, WeightKg } from '../../platform/schemas.js';
import { PagingQueryFields } from '../../platform/paging.js';

export const BoxInput = Type.Object({
  name: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
  dimensions: Type.Object({ width: SideCm, height: SideCm, length: SideCm }),
  weight: Type.Optional(Nullable(WeightKg)),
});
export type BoxInput = Static<typeof BoxInput>;

/** PATCH: any part of a box; dimensions may be sent one side at a time. */
export const BoxPatch = Type.Object({
  name: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
  dimensions: Type.Optional(
    Type.Object({ width: Type.Optional(SideCm), height: Type.Optional(SideCm), length: Type.Optional(SideCm) }),
  ),
  weight: Type.Optional(Nullable(WeightKg)),
});
export type BoxPatch = Static<typeof BoxPatch>;

export const Box = Type.Object(
  {
    id: Type.Integer(),
    name: Nullable(Type.String()),
    dimensions: Type.Object({ width: Type.Integer(), height: Type.Integer(), length: Type.Integer() }),
    weight: Nullable(Type.Number({ description: 'kg' })),
  },
  { description: 'Box' },
);
export type Box = Static<typeof Box>;

export const BoxListQuery = Type.Object({
  name: Type.Optional(Type.String({ description: 'Substring of the name, any case' })),
  width: Type.Optional(Type.Integer({ minimum: 1, maximum: 999, description: 'Exact width, cm' })),
  height: Type.Optional(Type.Integer({ minimum: 1, maximum: 999, description: 'Exact height, cm' })),
  length: Type.Optional(Type.Integer({ minimum: 1, maximum: 999, description: 'Exact length, cm' })),
  weight: Type.Optional(Type.Number({ minimum: 0, maximum: 100000, description: 'Exact weight, kg (to the gram)' })),
  ...PagingQueryFields,
});
export type BoxListQuery = Static<typeof BoxListQuery>;

import Type, { type Static } from 'typebox';
import { Nullable } from '../../platform/schemas.js';

const Done = (description: string) => Type.Boolean({ description });

export const Checklist = Type.Object(
  {
    complete: Type.Boolean({ description: 'Every step is done' }),
    steps: Type.Object({
      warehouse: Type.Object({
        done: Done('The account has a sender warehouse (POST /v2/warehouses)'),
        warehouseId: Nullable(Type.Integer({ description: 'Its first warehouse' })),
      }),
      shop: Type.Object({
        done: Done('The account has a shop (POST /v2/shops)'),
        shopId: Nullable(Type.Integer({ description: 'Its first shop' })),
      }),
      deliveryCompanies: Type.Object({
        done: Done(
          'A contract with a real company is connected, in its test environment or live (POST /v2/carrier-integrations/{companyId}); the built-in simulated companies are on without one',
        ),
        connected: Type.Array(Type.Integer(), { description: 'The companies with a contract' }),
      }),
      widget: Type.Object({
        done: Done(
          "A shop has a publishable widget key that some site's origin may use (POST /v2/shops/{id}/widget-key)",
        ),
        shopId: Nullable(Type.Integer({ description: 'The first shop with such a key' })),
      }),
      testOrder: Type.Object({
        done: Done('An order made from a widget selection has its sticker formed (POST /v2/orders/stickers)'),
        orderId: Nullable(Type.Integer({ description: 'The latest order made from a widget selection' })),
        status: Nullable(Type.Integer({ description: 'Its status code' })),
        stickerFormed: Type.Boolean(),
      }),
      cmsPlugin: Type.Object({
        done: Done(
          "A shop's current API key has authenticated a call: a CMS plugin (or the shop's server) was given it and calls",
        ),
        shopId: Nullable(Type.Integer({ description: 'The first shop whose key has called' })),
      }),
    }),
  },
  {
    description:
      "The first-run checklist: each step's tick computed from the account's data at the time of asking (nothing is stored as done)",
  },
);
export type Checklist = Static<typeof Checklist>;

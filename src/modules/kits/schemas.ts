import Type, { type Static } from 'typebox';
import { PagingQueryFields } from '../../platform/paging.js';
import { RecordId } from '../../platform/schemas.js';
import { Product } from '../products/schemas.js';

export const KitLineInput = Type.Object({
  id: RecordId('Product id (a product of this account)'),
  count: Type.Integer({ minimum: 1, maximum: 10000, description: 'How many of it the kit holds' }),
});

/** POST and PUT. */
export const KitInput = Type.Object({
  shopId: Type.Optional(
    RecordId('The shop the kit belongs to; default: the Shop-Id header, or the shop of a shop API key'),
  ),
  name: Type.String({ minLength: 1, maxLength: 500, description: 'Required' }),
  vendorCode: Type.String({ minLength: 1, maxLength: 255, description: 'Required; unique within the shop' }),
  discount: Type.Optional(
    Type.Number({ minimum: 0, maximum: 100, default: 0, description: 'Default discount, percent 0 to 100' }),
  ),
  products: Type.Array(KitLineInput, { minItems: 1, maxItems: 500, description: 'Goods of the kit: [{id, count}]' }),
});
export type KitInput = Static<typeof KitInput>;

export const KitProduct = Type.Object(
  { ...Product.properties, count: Type.Integer({ description: 'How many of it the kit holds' }) },
  { description: 'Product of a kit' },
);
export type KitProduct = Static<typeof KitProduct>;

export const Kit = Type.Object(
  {
    id: Type.Integer(),
    shopId: Type.Integer({ description: 'The shop the kit belongs to' }),
    name: Type.String(),
    vendorCode: Type.String(),
    discount: Type.Number({ description: 'percent' }),
    products: Type.Array(KitProduct, {
      description: 'Full product models with count; a product deleted from the catalogue still shows here',
    }),
  },
  { description: 'Kit' },
);
export type Kit = Static<typeof Kit>;

export const KitListQuery = Type.Object({
  name: Type.Optional(Type.String({ maxLength: 500, description: 'Substring of the name, any case' })),
  vendorCode: Type.Optional(Type.String({ maxLength: 255, description: 'Substring of the vendor code, any case' })),
  search: Type.Optional(Type.String({ maxLength: 500, description: 'Substring of the name or of the vendor code' })),
  shopId: Type.Optional(
    RecordId('Only kits of this shop (default: the Shop-Id header if sent, else every shop the caller may see)'),
  ),
  ...PagingQueryFields,
});
export type KitListQuery = Static<typeof KitListQuery>;

import Type, { type Static } from 'typebox';
import { Nullable, RecordId, ZeroOne } from '../../platform/schemas.js';
import { PagingQueryFields } from '../../platform/paging.js';
import { Warehouse } from '../warehouses/schemas.js';

const EventFlag = Type.Optional(Type.Boolean({ default: false }));

/** The notification settings of a shop, as sent (every flag optional, default off). */
export const NotificationsInput = Type.Object({
  events: Type.Optional(
    Type.Object({
      ordersExpirationInPickupPoint: EventFlag,
      ordersSentForReturn: EventFlag,
      newOrder: EventFlag,
      newProblemOrder: EventFlag,
      fulfillmentReceivedReturns: EventFlag,
      productEndsInFulfilment: Type.Optional(
        Type.Object({
          enabled: EventFlag,
          border: Type.Optional(
            Nullable(
              Type.Integer({
                minimum: 0,
                maximum: 1_000_000,
                description: 'Stock at which the low-stock notice fires',
              }),
            ),
          ),
        }),
      ),
      orderProductsNotAvailableInFulfilment: EventFlag,
      deliveryAcceptedForFulfillment: EventFlag,
    }),
  ),
  currentAccount: Type.Optional(Type.Object({ enabled: EventFlag })),
  employees: Type.Optional(
    Type.Object({
      enabled: EventFlag,
      ids: Type.Optional(
        Type.Array(RecordId(), {
          maxItems: 1000,
          description: 'Employees to notify; empty means every employee with access to the shop',
        }),
      ),
    }),
  ),
});
export type NotificationsInput = Static<typeof NotificationsInput>;

export const Notifications = Type.Object({
  events: Type.Object({
    ordersExpirationInPickupPoint: Type.Boolean(),
    ordersSentForReturn: Type.Boolean(),
    newOrder: Type.Boolean(),
    newProblemOrder: Type.Boolean(),
    fulfillmentReceivedReturns: Type.Boolean(),
    productEndsInFulfilment: Type.Object({ enabled: Type.Boolean(), border: Nullable(Type.Integer()) }),
    orderProductsNotAvailableInFulfilment: Type.Boolean(),
    deliveryAcceptedForFulfillment: Type.Boolean(),
  }),
  currentAccount: Type.Object({ enabled: Type.Boolean() }),
  employees: Type.Object({ enabled: Type.Boolean(), ids: Type.Array(Type.Integer()) }),
});
export type Notifications = Static<typeof Notifications>;

/** Platforms we know by name; others are accepted as given (lower case). */
export const KNOWN_PLATFORMS = [
  'woocommerce',
  'bitrix',
  'opencart',
  'joomla',
  'insales',
  'tilda',
  'shopify',
  'prestashop',
  'magento',
  'drupal',
  'modx',
  'wix',
  'ecwid',
  'shopscript',
  'api',
  'checkout',
  'other',
];

const Flag = Type.Optional(Type.Boolean({ default: false }));

export const ShopInput = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 255 }),
  brand: Type.String({ minLength: 1, maxLength: 255, description: 'Shown to customers on tracking pages and labels' }),
  cmsProductsAutocomplete: Flag,
  emailNotifications: Flag,
  carrierACalling: Flag,
  disableQuantityControlInCheckout: Type.Optional(
    Type.Boolean({
      default: false,
      description: 'Has effect only when platform is "checkout" (the service\'s own checkout)',
    }),
  ),
  sendQuantityToCMS: Flag,
  platform: Type.Optional(
    Nullable(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description: `The shop's platform, lower case. Known values: ${KNOWN_PLATFORMS.join(', ')}; "checkout" is the service's own checkout`,
        examples: ['woocommerce'],
      }),
    ),
  ),
  warehouse: Type.Union([Type.Object({ id: RecordId() }), RecordId()], {
    description: 'The sender warehouse: {"id": n} or the bare id',
    'x-message': 'must be {"id": <warehouse id>} or a warehouse id',
  }),
  notifications: Type.Optional(NotificationsInput),
});
export type ShopInput = Static<typeof ShopInput>;

export const Shop = Type.Object(
  {
    id: Type.Integer(),
    apiKey: Nullable(
      Type.String({
        description:
          'API key for integrations: a bearer token limited to this shop. null for a shop manager: only owners and account tokens see it',
      }),
    ),
    name: Type.String(),
    brand: Type.String(),
    cmsProductsAutocomplete: Type.Boolean(),
    emailNotifications: Type.Boolean(),
    carrierACalling: Type.Boolean(),
    disableQuantityControlInCheckout: Type.Boolean(),
    sendQuantityToCMS: Type.Boolean(),
    platform: Nullable(Type.String()),
    warehouse: Warehouse,
    notifications: Notifications,
  },
  { description: 'Shop' },
);
export type Shop = Static<typeof Shop>;

export const ShopListQuery = Type.Object({
  name: Type.Optional(Type.String({ description: 'Substring of the name, any case' })),
  brand: Type.Optional(Type.String({ description: 'Substring of the brand, any case' })),
  warehouseId: Type.Optional(RecordId()),
  onlyFulfilment: Type.Optional(ZeroOne),
  onlyMergedPickup: Type.Optional(ZeroOne),
  ...PagingQueryFields,
});
export type ShopListQuery = Static<typeof ShopListQuery>;

export const ApiKeyResponse = Type.Object({ apiKey: Type.String() });

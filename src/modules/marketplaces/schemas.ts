import Type, { type Static } from 'typebox';
import { CodeId, Nullable } from '../../platform/schemas.js';

export const ShippingMode = Type.Enum([1, 2, 3], {
  description:
    "Shipping mode: 1 FBS (sale from the seller's warehouse), 2 FBO (from the marketplace's warehouse), 3 DBS (delivery by the seller)",
});

export const MarketplaceListQuery = Type.Object({
  onlyWithIntegration: Type.Optional(
    Type.Boolean({
      description: 'Only marketplaces whose integration is available (all of ours are: they have an adapter)',
    }),
  ),
  shippingMode: Type.Optional(ShippingMode),
  isIntegration: Type.Optional(
    Type.Boolean({
      description:
        'true: only marketplaces some fulfilment warehouse of the service is integrated with (their ids are accepted by GET /v2/warehouses?integrationMarketplaceId=); false: the others',
    }),
  ),
});
export type MarketplaceListQuery = Static<typeof MarketplaceListQuery>;

const LocalText = Type.Object({ ru: Type.String(), en: Type.String() });

export const MarketplaceSettings = Type.Object(
  { fbsEnabled: Type.Boolean(), fboEnabled: Type.Boolean(), dbsEnabled: Type.Boolean() },
  { description: "Which shipping modes' orders are read from the marketplace" },
);

export const Marketplace = Type.Object(
  {
    id: Type.Integer({ description: '1 Ozon, 2 Wildberries, 3 Yandex Market, 4 the built-in sandbox' }),
    name: Type.String(),
    logo: Type.String({ description: 'URL' }),
    legalEntity: Type.Object({ name: Type.String(), TIN: Type.String() }),
    fbs: Type.Boolean(),
    fbo: Type.Boolean(),
    dbs: Type.Boolean(),
    connected: Type.Boolean({
      description: "The account's credentials were checked with the marketplace and are stored",
    }),
    integrationParams: Type.Array(
      Type.Object({
        name: LocalText,
        key: Type.String(),
        value: Type.String({
          description: 'Masked: only the last 4 characters of values of 8 or more are shown; empty when not connected',
        }),
      }),
    ),
    settings: Nullable(MarketplaceSettings),
    bindingNames: Type.Record(Type.String(), LocalText, {
      description:
        "Product binding parameters of this marketplace: the keys a product's bindings item may carry beside marketplaceId",
    }),
  },
  { description: 'Marketplace' },
);
export type Marketplace = Static<typeof Marketplace>;

export const MarketplaceIdParams = Type.Object({ id: CodeId('Marketplace id') });

export const IntegrationBody = Type.Record(Type.String({ maxLength: 64 }), Type.String({ maxLength: 4096 }), {
  maxProperties: 20,
  description: "The values of the marketplace's integrationParams, keyed by their key",
});
export type IntegrationBody = Static<typeof IntegrationBody>;

export const SettingsBody = Type.Object({
  fbsEnabled: Type.Optional(Type.Boolean()),
  fboEnabled: Type.Optional(Type.Boolean()),
  dbsEnabled: Type.Optional(Type.Boolean()),
});
export type SettingsBody = Static<typeof SettingsBody>;

export const MarketplaceWarehouseQuery = Type.Object({
  marketplaceId: CodeId('Marketplace id'),
  shippingMode: ShippingMode,
  fias: Type.String({ minLength: 1, maxLength: 64, description: 'FIAS id of the locality' }),
});
export type MarketplaceWarehouseQuery = Static<typeof MarketplaceWarehouseQuery>;

export const MarketplaceWarehouse = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    address: Type.Object({
      city: Type.Object({
        countryCode: Type.String(),
        name: Type.String(),
        fias: Nullable(Type.String()),
        type: Nullable(Type.String()),
        region: Nullable(Type.String()),
      }),
      street: Nullable(Type.String()),
      house: Nullable(Type.String()),
      bulk: Nullable(Type.String()),
      flat: Nullable(Type.String()),
      zipCode: Nullable(Type.String()),
    }),
  },
  { description: 'Marketplace warehouse' },
);
export type MarketplaceWarehouse = Static<typeof MarketplaceWarehouse>;

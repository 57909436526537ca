/** modules/addresses, the area definition (src/modules.ts lists it): The federal address register: import, suggestions, cleaning, coordinates. */
import type { Config } from '../../config.js';
import { defineModule } from '../../platform/module.js';
import { addressesCommand } from './commands.js';
import { dadataCors, dadataRoutes, type DadataRouteServices } from './dadata-routes.js';
import type { AddressImportService } from './import-service.js';
import { addressRegister } from './migrations/0096_address_register.js';
import { addressImportStaging } from './migrations/0097_address_import_staging.js';
import { addressSearch } from './migrations/0098_address_search.js';
import { addressRoutes, type AddressRouteServices } from './routes.js';
import { AddressSuggestion, CleanedAddress, StructuredAddress } from './schemas.js';
import type { AddressSettingsTables } from './settings-tables.js';
import type { AddressTables } from './tables.js';

export const addressesModule = defineModule<
  AddressRouteServices &
    DadataRouteServices & { addressImports: AddressImportService; config: Pick<Config, 'widgetRateLimitPerMinute'> },
  AddressTables & AddressSettingsTables
>({
  area: 'addresses',
  purpose:
    'The federal address register (ГАР): its import, suggestions as the buyer types, cleaning of free text, coordinates.',
  offers: ['addresses', 'addressImports'],
  dependsOn: ['localities', 'widget', 'accounts'],
  migrationHistory: [],
  migrations: [addressRegister, addressImportStaging, addressSearch],
  commands: { addresses: addressesCommand },
  tags: [
    {
      name: 'Addresses',
      description:
        "Extension: addresses from the federal address register (ГАР): suggestions as the buyer types, an address by its FIAS id, houses near a point, cleaning of free text; the widget's suggestions with the shop's publishable key; DaData-compatible routes under /dadata (DaData's shapes and `Authorization: Token`), and the account's own DaData key asked where the register has no house.",
    },
  ],
  schemas: { StructuredAddress, AddressSuggestion, CleanedAddress },
  cors: dadataCors,
  routes: (app, services) => {
    addressRoutes(app, services, { widgetPerMinute: services.config.widgetRateLimitPerMinute });
    dadataRoutes(app, services, { perMinute: services.config.widgetRateLimitPerMinute });
    app.addHook('onClose', async () => services.addresses.shutdown());
  },
});

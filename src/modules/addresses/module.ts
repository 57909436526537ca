/** modules/addresses, the area definition (src/modules.ts lists it): The federal address register: import, suggestions, cleaning, coordinates. */
import { defineModule } from '../../platform/module.js';
import { addressesCommand } from './commands.js';
import type { AddressImportService } from './import-service.js';
import { addressRegister } from './migrations/0096_address_register.js';
import { addressImportStaging } from './migrations/0097_address_import_staging.js';
import type { AddressTables } from './tables.js';

export const addressesModule = defineModule<{ addressImports: AddressImportService }, AddressTables>({
  area: 'addresses',
  purpose:
    'The federal address register (ГАР): its import, suggestions as the buyer types, cleaning of free text, coordinates.',
  offers: ['addressImports'],
  dependsOn: ['localities'],
  migrationHistory: [],
  migrations: [addressRegister, addressImportStaging],
  commands: { addresses: addressesCommand },
});

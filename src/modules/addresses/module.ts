/** modules/addresses, the area definition (src/modules.ts lists it): The federal address register: import, suggestions, cleaning, coordinates. */
import { defineModule } from '../../platform/module.js';
import { addressRegister } from './migrations/0096_address_register.js';
import type { AddressTables } from './tables.js';

export const addressesModule = defineModule<object, AddressTables>({
  area: 'addresses',
  purpose:
    'The federal address register (ГАР): its import, suggestions as the buyer types, cleaning of free text, coordinates.',
  offers: [],
  dependsOn: ['localities'],
  migrationHistory: [],
  migrations: [addressRegister],
});

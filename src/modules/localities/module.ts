/** modules/localities, the area definition (src/modules.ts lists it): The locality directory (cities, FIAS ids, names) the reference data loads. */
import { defineModule } from '../../platform/module.js';

export const localitiesModule = defineModule({
  area: 'localities',
  purpose: 'The locality directory (cities, FIAS ids, names) the reference data loads.',
  offers: [],
  dependsOn: [],
  migrationHistory: [],
});

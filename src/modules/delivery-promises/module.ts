/** modules/delivery-promises, the area definition (src/modules.ts lists it): delivery dates learnt from the service's own deliveries. */
import { defineModule } from '../../platform/module.js';
import { promisesCommand } from './commands.js';
import { deliveryPromises } from './migrations/0100_delivery_promises.js';
import { deliveryPromiseRoutes, type DeliveryPromiseRouteServices } from './routes.js';
import { DeliveryPromiseModel, OnTimeReport } from './schemas.js';
import type { DeliveryPromiseService } from './service.js';
import type { DeliveryPromiseTables } from './tables.js';
import type { ReferenceData } from '../companies/reference.js';

export const deliveryPromisesModule = defineModule<
  DeliveryPromiseRouteServices & { deliveryPromises: DeliveryPromiseService; reference: ReferenceData },
  DeliveryPromiseTables
>({
  area: 'delivery-promises',
  purpose:
    'Delivery dates that come true: transit days measured per route from arrived parcels, promises on quotes and orders, the on-time report.',
  offers: ['deliveryPromises', 'onTimeReports'],
  dependsOn: ['localities', 'companies'],
  migrationHistory: [],
  migrations: [deliveryPromises],
  commands: { promises: promisesCommand },
  tags: [
    {
      name: 'Delivery promises (extension)',
      description:
        "Extension: each delivered parcel's transit time in business days of the production calendar, kept per route (company, type, tariff, from and to locality) with coarser fall-backs (regions, distance band, company). Calculator options, widget offers and orders carry a `promise` (median and 90th-percentile days, the date they give, their basis); an order past its promised date becomes late (order.late). The report compares promised and actual.",
    },
  ],
  schemas: { DeliveryPromise: DeliveryPromiseModel, OnTimeReport },
  routes: deliveryPromiseRoutes,
  hourly: (services) => ({
    'delivery promises: parcels recorded by other processes': () => services.deliveryPromises.refresh(),
  }),
});

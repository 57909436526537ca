/** modules/delivery-methods, the area definition (src/modules.ts lists it): An account's own delivery methods (the shop delivers itself). */
import { defineModule } from '../../platform/module.js';
import { deliveryMethodRoutes, type DeliveryMethodsRouteServices } from './routes.js';
import { DeliveryMethod } from './schemas.js';
import type { DeliveryMethodTables } from './tables.js';

export const deliveryMethodsModule = defineModule<DeliveryMethodsRouteServices, DeliveryMethodTables>({
  area: 'delivery-methods',
  purpose: "An account's own delivery methods (the shop delivers itself).",
  offers: ['deliveryMethods'],
  dependsOn: ['companies'],
  migrationHistory: ['0017_own_delivery_methods'],
  tags: [
    {
      name: 'Delivery methods',
      description:
        "Extension: the account's own delivery methods (the shop delivers itself); their ids '{accountId}_{methodId}' (convention 12) are company ids in the calculator, orders, lists and documents.",
    },
  ],
  schemas: { DeliveryMethod },
  routes: deliveryMethodRoutes,
});

declare module '../../platform/cache.js' {
  interface CacheTopics {
    'delivery-methods': 'the account’s own delivery methods (delivery-methods/service.ts)';
  }
}

/** modules/orders, the area definition (src/modules.ts lists it): Orders: creation and pricing, batch operations, the list read model, carrier follow-up (tracking). */
import { defineModule } from '../../platform/module.js';
import { carrierCommand } from './commands.js';
import { orderRoutes, trackingRoutes, type OrdersRouteServices } from './routes.js';
import { DuplicateResult, MissingProducts, Order, PushResult, StatusHistoryItem, TrackingRecord } from './schemas.js';
import type { OrderTables } from './tables.js';
import type { LateOrders } from './late-orders.js';
import { orderPromises } from './migrations/0101_order_promises.js';

export const ordersModule = defineModule<OrdersRouteServices & { lateOrders: LateOrders }, OrderTables>({
  area: 'orders',
  purpose: 'Orders: creation and pricing, batch operations, the list read model, carrier follow-up (tracking).',
  offers: ['orders', 'tracking', 'lateOrders'],
  dependsOn: [
    'shops',
    'products',
    'calculator',
    'companies',
    'lists',
    'fulfilment',
    'delivery-methods',
    'delivery-promises',
    'accounts',
    'addresses',
  ],
  migrationHistory: [
    '0006_orders',
    '0009_packed_orders',
    '0010_order_lists',
    '0013_pickups',
    '0017_own_delivery_methods',
    '0020_report_indexes',
  ],
  migrations: [orderPromises],
  tags: [
    {
      name: 'Tracking',
      description:
        "Contract 4.1 (GET /v2/tracking); extensions: the recipient tracking page and the delivery companies' status push.",
    },
    { name: 'Orders', description: 'Contract 4.4: orders, their batch operations, reservation and shipment options.' },
  ],
  schemas: {
    Order,
    OrderStatusChange: StatusHistoryItem,
    TrackingRecord,
    MissingProducts,
    DuplicatedOrders: DuplicateResult,
    PushResult,
  },
  routes: (app, services) => {
    orderRoutes(app, services);
    trackingRoutes(app, services);
  },
  jobs: (worker, services) => {
    services.tracking.registerJobs(worker);
  },
  schedules: async (services) => {
    await services.tracking.schedulePolling();
  },
  hourly: (services) => ({
    'late orders: past their promised delivery date': () => services.lateOrders.markLate(),
  }),
  commands: { carrier: carrierCommand },
});

declare module '../../platform/cache.js' {
  interface CacheTopics {
    orders: 'pages, counts and list positions of the account’s orders (orders/service.ts)';
  }
}

/** modules/buyer-messages, the area definition (src/modules.ts lists it): what buyers hear of their delivery, in the shop's name. */
import { defineModule } from '../../platform/module.js';
import type { BuyerMessageDispatcher } from './dispatch.js';
import { buyerMessages } from './migrations/0102_buyer_messages.js';
import { buyerMessageRoutes, type BuyerMessageRouteServices } from './routes.js';
import { BuyerMessage, BuyerMessageSettings } from './schemas.js';
import type { BuyerMessageTables } from './tables.js';

export const buyerMessagesModule = defineModule<
  BuyerMessageRouteServices & { buyerMessageDispatcher: BuyerMessageDispatcher },
  BuyerMessageTables
>({
  area: 'buyer-messages',
  purpose:
    "What buyers hear of their delivery in the shop's name: e-mail, SMS and Telegram at each moment, the shop's templates, quiet hours, unsubscribes.",
  offers: ['buyerMessages', 'buyerMessageDispatcher'],
  dependsOn: ['events', 'orders', 'shops', 'companies', 'accounts'],
  migrationHistory: [],
  migrations: [buyerMessages],
  tags: [
    {
      name: 'Buyer messages (extension)',
      description:
        "Extension: the shop's buyers hear of their delivery in the shop's name — registered, handed over, at the point, storage ending, out for delivery, delivered, refused, late, return received — by e-mail (HTML with the shop's brand and text), SMS (SMS.ru or SMSC, the shop's own account) and the shop's own Telegram bot (the buyer subscribes from the tracking page). Templates per shop, moment, channel and language in Liquid; quiet hours in the buyer's time zone; one message per order, moment and channel; one-click unsubscribe; each message's outcome on the order.",
    },
  ],
  schemas: { BuyerMessageSettings, BuyerMessage },
  routes: buyerMessageRoutes,
  jobs: (worker, services) => services.buyerMessageDispatcher.registerJobs(worker),
  schedules: async (services) => {
    await services.buyerMessageDispatcher.scheduleDispatch();
  },
});

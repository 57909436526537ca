/**
 * The buyers' messages' services as the composition root builds them (src/services.ts hands in
 * what they use): the channels (a shop's SMS gateway by its credentials, its Telegram bot by its
 * token, the instance's mailer), the store, the service and the dispatcher.
 */
import type { Kysely } from 'kysely';
import { SmsRuGateway } from '../../messaging/sms-ru.js';
import { SmscGateway } from '../../messaging/smsc.js';
import { TelegramBotClient } from '../../messaging/telegram.js';
import type { SecretBox } from '../../platform/crypto.js';
import type { Tables } from '../../platform/db/tables.js';
import type { JobQueue } from '../../platform/jobs.js';
import type { Mailer } from '../../platform/mail.js';
import type { ReferenceData } from '../companies/reference.js';
import type { EventService } from '../events/service.js';
import type { OrderService } from '../orders/service.js';
import type { ShopService } from '../shops/service.js';
import { BuyerMessageDispatcher, zoneOfRegion, type MessageChannels } from './dispatch.js';
import { BuyerMessageService, type AccountZones } from './service.js';
import { BuyerMessageStore } from './store.js';

/** Seconds between the dispatcher's runs (as the notifications' dispatcher). */
const DISPATCH_SECONDS = 5;

export function buyerMessaging(deps: {
  db: Kysely<Tables>;
  shops: ShopService;
  orders: OrderService;
  accounts: AccountZones;
  reference: ReferenceData;
  secretBox: SecretBox;
  events: EventService;
  jobs: JobQueue;
  mailer: Mailer | null;
  urls: { publicUrl: string; smsRuUrl: string; smscUrl: string; telegramApiUrl: string };
  /** A delivered order's returns page (modules/returns). */
  returnsPage?: (accountId: number, shopId: number | null, orderId: number) => string | null;
}): { buyerMessages: BuyerMessageService; buyerMessageDispatcher: BuyerMessageDispatcher } {
  const { urls } = deps;
  const channels: MessageChannels = {
    mailer: deps.mailer,
    smsGateway: (kind, secrets, sender) => {
      if (kind === 'smsru')
        return secrets.smsApiId ? new SmsRuGateway({ apiId: secrets.smsApiId, baseUrl: urls.smsRuUrl, sender }) : null;
      return secrets.smsLogin && secrets.smsPassword
        ? new SmscGateway({ login: secrets.smsLogin, password: secrets.smsPassword, baseUrl: urls.smscUrl, sender })
        : null;
    },
    telegramBot: (token) => new TelegramBotClient({ token, baseUrl: urls.telegramApiUrl }),
  };
  const store = new BuyerMessageStore(deps.db);
  const buyerMessages = new BuyerMessageService(
    store,
    deps.shops,
    deps.orders,
    deps.accounts,
    deps.reference,
    deps.secretBox,
    channels,
    { publicUrl: urls.publicUrl, regionZone: zoneOfRegion, returnsPage: deps.returnsPage },
  );
  const buyerMessageDispatcher = new BuyerMessageDispatcher(store, deps.events, buyerMessages, channels, deps.jobs, {
    dispatchSeconds: DISPATCH_SECONDS,
  });
  return { buyerMessages, buyerMessageDispatcher };
}

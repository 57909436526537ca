/**
 * From order events to buyers' messages: a consumer of the events stream makes, for each moment
 * a shop's channel is on for, one message (rendered now, from the order as it is; the unique key
 * of order, moment and channel keeps a repeated status from making a second) and a job that sends
 * it. SMS and Telegram due in the buyer's quiet hours wait until their end. A send job re-reads
 * the unsubscribes (honoured at once), sends, and writes the outcome on the message; a gateway
 * down is retried by the job table with back-off and never slows the API.
 */
import { wallClockIn } from '../../platform/clock.js';
import type { Job, JobQueue, JobWorker } from '../../platform/jobs.js';
import { PermanentJobError } from '../../platform/jobs.js';
import type { Mailer } from '../../platform/mail.js';
import { readDataFile } from '../../platform/reference-data.js';
import { MessagingError, type SmsGateway, type TelegramBot } from '../../messaging/types.js';
import { normalisePhone } from '../../messaging/phone.js';
import type { AccountEvent } from '../events/types.js';
import type { EventService } from '../events/service.js';
import type { OrderDoc } from '../orders/document.js';
import { emailHtml } from './email-html.js';
import { momentOf, type Channel, type Language, type Moment } from './moments.js';
import type { BuyerMessageService, ShopMessaging } from './service.js';
import { inQuietHours, type BuyerSecrets } from './settings.js';
import { unsubscribeKey, type BuyerMessageStore, type MessageRow, type NewMessage } from './store.js';

export const BUYER_DISPATCH_JOB = 'buyer-messages.dispatch';
export const BUYER_SEND_JOB = 'buyer-messages.send';
export const BUYER_SMS_STATUS_JOB = 'buyer-messages.sms-status';
export const BUYER_CONSUMER = 'buyer-messages';
/** An SMS's delivery is asked of its gateway this long after sending, then with the job table's back-off. */
const SMS_STATUS_AFTER_MS = 5 * 60_000;
const SMS_STATUS_ATTEMPTS = 6;
const BATCH = 200;

/** Where the channels come from (the composition root builds them: real gateways, or the tests' fakes by URL). */
export interface MessageChannels {
  mailer: Mailer | null;
  smsGateway(kind: 'smsru' | 'smsc', secrets: BuyerSecrets, sender: string | null): SmsGateway | null;
  telegramBot(token: string): TelegramBot;
}

/** Regions' time zones (GeoNames admin1 of Russia): a buyer's quiet hours are kept in theirs. */
let regionZones: Record<string, string> | null = null;
export function zoneOfRegion(regionCode: string): string | undefined {
  regionZones ??= readDataFile<Record<string, string>>('localities/ru-region-zones.json');
  return regionCode.startsWith('_') ? undefined : regionZones[regionCode];
}

/** The instant quiet hours end, for a message due at `now` in `zone` (now itself when not quiet). */
export function quietHoursEnd(quiet: { from: string; to: string } | null, zone: string, now: Date): Date {
  const wall = wallClockIn(zone, now);
  if (!inQuietHours(quiet, wall.slice(11, 16)) || !quiet) return now;
  // the zone's offset now: its wall clock read as UTC, less the instant
  const offsetMs = Date.parse(`${wall}Z`) - Math.floor(now.getTime() / 1000) * 1000;
  let date = wall.slice(0, 10);
  if (wall.slice(11, 16) >= quiet.to) {
    const next = new Date(`${date}T00:00:00Z`);
    next.setUTCDate(next.getUTCDate() + 1);
    date = next.toISOString().slice(0, 10);
  }
  return new Date(Date.parse(`${date}T${quiet.to}:00Z`) - offsetMs);
}

/** The buyer's address on a channel: an e-mail, phone digits, a Telegram chat started with the shop's bot. */
function addressOf(shopId: number, order: OrderDoc, channel: Channel, chats: Map<string, string>): string | null {
  if (channel === 'email') return order.recipient.email?.trim().toLowerCase() || null;
  const phone = normalisePhone(order.recipient.phone);
  if (!phone) return null;
  if (channel === 'sms') return phone;
  return chats.get(`${shopId}:${phone}`) ?? null;
}

export class BuyerMessageDispatcher {
  constructor(
    private readonly store: BuyerMessageStore,
    private readonly events: EventService,
    private readonly messages: BuyerMessageService,
    private readonly channels: MessageChannels,
    private readonly jobs: JobQueue,
    private readonly options: { dispatchSeconds: number },
  ) {}

  registerJobs(worker: JobWorker): void {
    worker.register(BUYER_DISPATCH_JOB, async () => {
      try {
        await this.dispatch();
      } finally {
        await this.scheduleDispatch(new Date(Date.now() + this.options.dispatchSeconds * 1000));
      }
    });
    worker.register<{ messageId: number }>(BUYER_SEND_JOB, (job, signal) => this.send(job, signal));
    worker.register<{ messageId: number }>(BUYER_SMS_STATUS_JOB, (job, signal) => this.smsStatus(job, signal));
  }

  async scheduleDispatch(at = new Date()): Promise<void> {
    if (this.options.dispatchSeconds <= 0) return;
    const slot = Math.floor(at.getTime() / (this.options.dispatchSeconds * 1000));
    await this.jobs.enqueue(
      null,
      BUYER_DISPATCH_JOB,
      {},
      { runAt: at, uniqueKey: `buyer-dispatch:${slot}`, maxAttempts: 1 },
    );
  }

  /** Makes the messages of every event not handled yet; the number of events read. */
  dispatch(now = new Date()): Promise<number> {
    return this.events.consume(
      BUYER_CONSUMER,
      BATCH,
      (events) => this.plan(events, now),
      async (planned, trx) => {
        const made = await this.store.insertNew(planned, trx);
        // each new message's id is new: no job of it can exist, so none is looked for
        await this.jobs.enqueueMany(
          BUYER_SEND_JOB,
          made
            .filter(({ message }) => message.status === 'pending' || message.status === 'held')
            .map(({ id, message }) => ({
              accountId: message.account_id,
              payload: { messageId: id },
              runAt: new Date(message.send_after),
            })),
          trx,
        );
      },
    );
  }

  private async plan(events: AccountEvent[], now: Date): Promise<NewMessage[]> {
    const planned: NewMessage[] = [];
    const byAccount = new Map<number, AccountEvent[]>();
    for (const event of events) {
      if (event.shopId === null || event.orderId === 0 || momentOf(event) === null) continue;
      const list = byAccount.get(event.accountId);
      if (list) list.push(event);
      else byAccount.set(event.accountId, [event]);
    }
    for (const [accountId, accountEvents] of byAccount) {
      const shops = await this.messages.messagingOf(
        accountId,
        accountEvents.map((event) => event.shopId as number),
      );
      const orders = await this.messages.ordersOf(
        accountId,
        accountEvents.map((event) => event.orderId),
      );
      // what a batch needs of the buyers (Telegram chats, unsubscribes) is read once for all of it
      const wanted: Array<{ shop: ShopMessaging; order: OrderDoc & { id: number }; moment: Moment; channel: Channel }> =
        [];
      for (const event of accountEvents) {
        const shop = shops.get(event.shopId as number);
        const order = orders.get(event.orderId);
        const moment = momentOf(event);
        if (!shop || !order || !moment) continue;
        for (const channel of ['email', 'sms', 'telegram'] as const) {
          const settings = shop.settings[channel];
          if (settings.enabled && settings.moments.includes(moment)) wanted.push({ shop, order, moment, channel });
        }
      }
      const telegramPhones = wanted.flatMap(({ order, channel }) =>
        channel === 'telegram' ? [normalisePhone(order.recipient.phone) ?? ''] : [],
      );
      const chats = await this.store.telegramChats(
        accountId,
        telegramPhones.filter((phone) => phone !== ''),
      );
      const addressed = wanted.flatMap((message) => {
        const address = addressOf(message.shop.shopId, message.order, message.channel, chats);
        return address === null ? [] : [{ ...message, address }];
      });
      const unsubscribed = await this.store.unsubscribedAmong(
        accountId,
        addressed.map((message) => message.address),
      );
      for (const message of addressed) {
        const isUnsubscribed = unsubscribed.has(unsubscribeKey(message.shop.shopId, message.channel, message.address));
        planned.push(await this.messageOf(accountId, message, isUnsubscribed, now));
      }
    }
    return planned;
  }

  private async messageOf(
    accountId: number,
    {
      shop,
      order,
      moment,
      channel,
      address,
    }: { shop: ShopMessaging; order: OrderDoc & { id: number }; moment: Moment; channel: Channel; address: string },
    isUnsubscribed: boolean,
    now: Date,
  ): Promise<NewMessage> {
    const language: Language = shop.settings.language;
    let rendered: { subject: string | null; text: string; link: string | null };
    let renderProblem: string | null = null;
    try {
      rendered = await this.messages.render(accountId, shop, order, moment, channel, language, address);
    } catch (error) {
      // one message that cannot be written is recorded as failed; it never holds up the batch's others
      rendered = { subject: null, text: '', link: null };
      renderProblem = `the message could not be written: ${error instanceof Error ? error.message : String(error)}`;
    }
    const base = {
      account_id: accountId,
      shop_id: shop.shopId,
      order_id: order.id,
      moment,
      channel,
      address,
      language,
      subject: rendered.subject,
      body: rendered.text,
      link: rendered.link,
    };
    const skip = (reason: string): NewMessage => ({
      ...base,
      status: 'skipped',
      reason,
      send_after: now.toISOString(),
    });
    if (renderProblem)
      return { ...base, status: 'failed', reason: renderProblem.slice(0, 500), send_after: now.toISOString() };
    if (!shop.settings.sandbox && this.messages.isSandboxOrder(order))
      return skip('a sandbox order (the shop sends for sandbox orders only when it asks: settings.sandbox)');
    if (isUnsubscribed) return skip('the buyer unsubscribed from this channel');
    if (channel === 'sms' && !shop.smsReady) return skip('no SMS gateway connected');
    let sendAfter = now;
    if (channel !== 'email')
      sendAfter = quietHoursEnd(shop.settings.quietHours, this.messages.buyerZone(order, shop.accountZone), now);
    return {
      ...base,
      status: sendAfter > now ? 'held' : 'pending',
      reason: sendAfter > now ? 'quiet hours in the buyer’s time zone' : null,
      send_after: sendAfter.toISOString(),
    };
  }

  /** Sends one message: its outcome on it; a temporary failure retried by the job table, the last one recorded. */
  private async send(job: Job<{ messageId: number }>, signal: AbortSignal): Promise<void> {
    const accountId = job.accountId as number;
    const row = await this.store.messageToSend(accountId, job.payload.messageId);
    if (!row || (row.status !== 'pending' && row.status !== 'held')) return;
    if (row.unsubscribed) {
      await this.store.updateMessage(accountId, Number(row.id), {
        status: 'skipped',
        reason: 'the buyer unsubscribed from this channel',
      });
      return;
    }
    const shop = (await this.messages.messagingOf(accountId, [Number(row.shop_id)])).get(Number(row.shop_id));
    if (!shop) return;
    try {
      const outcome = await this.deliver(accountId, shop, row, signal);
      const askStatus = row.channel === 'sms' && Boolean(outcome.gateway_id);
      await this.store.transaction(async (trx) => {
        // the status question is asked only by the call that recorded the sending
        if (!(await this.store.markSent(accountId, Number(row.id), outcome, trx)) || !askStatus) return;
        await this.jobs.enqueueMany(
          BUYER_SMS_STATUS_JOB,
          [
            {
              accountId,
              payload: { messageId: Number(row.id) },
              runAt: new Date(Date.now() + SMS_STATUS_AFTER_MS),
              maxAttempts: SMS_STATUS_ATTEMPTS,
            },
          ],
          trx,
        );
      });
    } catch (error) {
      const permanent = error instanceof MessagingError ? error.permanent : false;
      const reason = error instanceof Error ? error.message.slice(0, 500) : String(error);
      if (permanent || job.attempts >= job.maxAttempts) {
        await this.store.updateMessage(accountId, Number(row.id), { status: 'failed', reason });
        if (permanent) throw new PermanentJobError(reason);
      }
      throw error;
    }
  }

  /** Asks the gateway whether a sent SMS was delivered: delivered or failed on the message; still on its way, asked again later. */
  private async smsStatus(job: Job<{ messageId: number }>, signal: AbortSignal): Promise<void> {
    const accountId = job.accountId as number;
    const row = await this.store.message(accountId, job.payload.messageId);
    if (!row || row.status !== 'sent' || !row.gateway_id) return;
    const shop = (await this.messages.messagingOf(accountId, [Number(row.shop_id)])).get(Number(row.shop_id));
    const gateway = shop?.settings.sms.gateway
      ? this.channels.smsGateway(shop.settings.sms.gateway, shop.secrets, shop.settings.sms.sender)
      : null;
    if (!gateway || gateway.code !== row.gateway) return;
    const answer = await gateway.status(row.gateway_id, row.address, signal);
    // SMS.ru prices a message in its status, not in its send answer
    const cost =
      row.cost_kopecks === null && typeof answer.costRoubles === 'number'
        ? { cost_kopecks: Math.round(answer.costRoubles * 100) }
        : {};
    if (answer.status === 'delivered')
      await this.store.updateMessage(accountId, Number(row.id), { status: 'delivered', ...cost });
    else if (answer.status === 'failed')
      await this.store.updateMessage(accountId, Number(row.id), {
        status: 'failed',
        reason: answer.reason ?? 'the gateway could not deliver it',
        ...cost,
      });
    // on its way still: the job table asks again after its back-off, a few times
    else if (job.attempts < job.maxAttempts)
      throw new Error(`SMS ${row.gateway_id} is ${answer.status} at the gateway`);
  }

  private async deliver(
    accountId: number,
    shop: ShopMessaging,
    row: MessageRow,
    signal: AbortSignal,
  ): Promise<{ gateway?: string; gateway_id?: string; segments?: number; cost_kopecks?: number | null }> {
    if (row.channel === 'email') {
      if (!this.channels.mailer) throw new MessagingError('no SMTP server is configured (SMTP_URL)', false);
      const unsubscribe = this.messages.unsubscribeUrl(accountId, Number(row.shop_id), 'email', row.address);
      const language = row.language === 'en' ? 'en' : 'ru';
      const tracking = row.link ?? '';
      await this.channels.mailer.send({
        to: row.address,
        subject: row.subject ?? '',
        text: `${row.body}\n\n${language === 'ru' ? 'Отписаться' : 'Unsubscribe'}: ${unsubscribe}\n`,
        html: emailHtml(
          { brand: shop.brand, logoUrl: shop.settings.brand.logoUrl, color: shop.settings.brand.color, language },
          row.subject ?? '',
          row.body,
          { tracking, unsubscribe },
        ),
        headers: { 'List-Unsubscribe': `<${unsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
      });
      return { gateway: 'smtp' };
    }
    if (row.channel === 'sms') {
      const gateway = shop.settings.sms.gateway
        ? this.channels.smsGateway(shop.settings.sms.gateway, shop.secrets, shop.settings.sms.sender)
        : null;
      if (!gateway) throw new MessagingError('no SMS gateway connected', true, 'no_gateway');
      const sent = await gateway.send({ phone: row.address, text: row.body, sender: shop.settings.sms.sender }, signal);
      return {
        gateway: gateway.code,
        gateway_id: sent.gatewayId,
        segments: sent.segments,
        cost_kopecks: sent.costRoubles === null ? null : Math.round(sent.costRoubles * 100),
      };
    }
    if (!shop.secrets.botToken) throw new MessagingError('the shop has no Telegram bot', true, 'no_bot');
    const bot = this.channels.telegramBot(shop.secrets.botToken);
    const sent = await bot.sendMessage(row.address, row.body, signal);
    return { gateway: 'telegram', gateway_id: String(sent.messageId) };
  }
}

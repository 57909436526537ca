/**
 * Buyers' messages of a shop: its settings (credentials checked with the gateway or Telegram
 * when saved, then sealed), its templates (checked against a sample order when saved), a preview
 * with a real order, an order's message log, the messages' report, a buyer's unsubscribe and the
 * Telegram subscription started from the tracking page. Sending is dispatch.ts.
 */
import { processScope, requireAccountWide, type Scope } from '../../platform/auth.js';
import { declareChange, identifyAuditCaller } from '../../platform/audit.js';
import type { SecretBox } from '../../platform/crypto.js';
import { badRequest, notFound, unprocessable, type ErrorItem } from '../../platform/errors.js';
import { fromJson } from '../../platform/db/values.js';
import { BoundedMap } from '../../platform/cache.js';
import { MessagingError } from '../../messaging/types.js';
import { normalisePhone } from '../../messaging/phone.js';
import { smsSegments } from '../../messaging/sms-text.js';
import { randomBytes, createHmac } from 'node:crypto';
import type { ReferenceData } from '../companies/reference.js';
import type { OrderDoc } from '../orders/document.js';
import type { OrderService } from '../orders/service.js';
import type { ShopService } from '../shops/service.js';
import { contextOf, CONTEXT_VARIABLES, sampleContext, type MessageContext } from './context.js';
import type { MessageChannels } from './dispatch.js';
import { emailHtml } from './email-html.js';
import { readTelegramPayload, readUnsubscribeToken, telegramPayload, unsubscribeToken } from './links.js';
import { LANGUAGES, MOMENTS, type Channel, type Language, type Moment } from './moments.js';
import type {
  BuyerMessage,
  BuyerMessageSettings,
  BuyerMessageSettingsInput,
  MessagesReport,
  MessagesReportQuery,
  Preview,
  PreviewBody,
  TemplatesInput,
  TemplatesView,
} from './schemas.js';
import {
  mergeSettings,
  settingsOf,
  settingsView,
  smsConfigured,
  type BuyerSecrets,
  type StoredBuyerSettings,
} from './settings.js';
import type { BuyerMessageStore, MessageRow } from './store.js';
import {
  bodyPartOf,
  renderTemplate,
  SENDING_RENDER_LIMIT_MS,
  templateOf,
  templateProblem,
  type TemplateOverrides,
} from './templates.js';

/** What sending needs of a shop: its settings, credentials, templates and names. */
export interface ShopMessaging {
  shopId: number;
  name: string;
  brand: string;
  accountZone: string;
  settings: StoredBuyerSettings;
  secrets: BuyerSecrets;
  templates: TemplateOverrides;
  smsReady: boolean;
  webhookKey: string | null;
}

export interface AccountZones {
  timeZoneOf(accountId: number): Promise<string>;
}

const TEMPLATE_FILTERS = ['ru_date', 'en_date', 'numeric_date', 'plural', 'money'];
const CHECK_TIMEOUT_MS = 10_000;
/** A shop's settings are read again this long after (another process's change reaches this one in as long). */
const MESSAGING_REMEMBERED_MS = 5_000;
/** The longest period a messages' report covers (as the other reports). */
const REPORT_DAYS_AT_MOST = 366;

export class BuyerMessageService {
  private readonly linkKey: string;

  constructor(
    private readonly store: BuyerMessageStore,
    private readonly shops: ShopService,
    private readonly orders: OrderService,
    private readonly accounts: AccountZones,
    private readonly reference: ReferenceData,
    private readonly secretBox: SecretBox,
    private readonly channels: MessageChannels,
    private readonly options: {
      publicUrl: string;
      regionZone(regionCode: string): string | undefined;
      /** A delivered order's returns page (modules/returns); absent: no link. */
      returnsPage?: (accountId: number, shopId: number | null, orderId: number) => string | null;
    },
  ) {
    this.linkKey = secretBox.derive('buyer-links');
  }

  // ---------------------------------------------------------------- what sending reads

  /** Shops' messaging read lately: every message sent reads its shop's (settings, sealed credentials, zone). */
  private readonly recent = new BoundedMap<string, { until: number; shop: ShopMessaging }>(10_000);

  async messagingOf(accountId: number, shopIds: number[]): Promise<Map<number, ShopMessaging>> {
    const found = new Map<number, ShopMessaging>();
    const missing: number[] = [];
    const now = Date.now();
    for (const shopId of new Set(shopIds)) {
      const known = this.recent.get(`${accountId}:${shopId}`);
      if (known && known.until > now) found.set(shopId, known.shop);
      else missing.push(shopId);
    }
    if (missing.length === 0) return found;
    for (const [shopId, shop] of await this.readMessaging(accountId, missing)) {
      found.set(shopId, shop);
      this.recent.set(`${accountId}:${shopId}`, { until: now + MESSAGING_REMEMBERED_MS, shop });
    }
    return found;
  }

  private forget(accountId: number, shopId: number): void {
    this.recent.delete(`${accountId}:${shopId}`);
  }

  private async readMessaging(accountId: number, shopIds: number[]): Promise<Map<number, ShopMessaging>> {
    const unique = [...new Set(shopIds)];
    const shops = await this.shops.notificationSettingsOf(accountId, unique);
    const stored = await this.store.settingsOf(accountId, unique);
    const zone = await this.accounts.timeZoneOf(accountId);
    const found = new Map<number, ShopMessaging>();
    for (const [shopId, shop] of shops) {
      const row = stored.get(shopId);
      const settings = settingsOf(row?.settings, shop.emailNotifications);
      const secrets = row?.secrets ? fromJson<BuyerSecrets>(this.secretBox.open(row.secrets)) : {};
      found.set(shopId, {
        shopId,
        name: shop.name,
        brand: shop.brand || shop.name,
        accountZone: zone,
        settings,
        secrets,
        templates: (row?.templates as TemplateOverrides | undefined) ?? {},
        smsReady: smsConfigured(settings, secrets),
        webhookKey: row?.webhookKey ?? null,
      });
    }
    return found;
  }

  async ordersOf(accountId: number, orderIds: number[]): Promise<Map<number, OrderDoc & { id: number }>> {
    return this.orders.getMany(processScope(accountId), [...new Set(orderIds)]);
  }

  /** A built-in (simulated) company's order, or one of a contract in its test environment: no parcel travels. */
  isSandboxOrder(order: OrderDoc): boolean {
    if (order.delivery.testMode) return true;
    const companyId = order.delivery.company.id;
    return typeof companyId === 'number' && this.reference.registry.get(companyId)?.driver.code === 'tariff';
  }

  /** The buyer's time zone: their locality's region's; else the account's. */
  buyerZone(order: OrderDoc, fallback: string): string {
    const city = order.deliveryAddress.city;
    const locality = this.reference.localities.find({
      countryCode: city.countryCode,
      fias: city.fias,
      name: city.name,
      region: city.region,
    });
    return (locality && this.options.regionZone(locality.regionCode)) ?? fallback;
  }

  unsubscribeUrl(accountId: number, shopId: number, channel: Channel, address: string): string {
    const token = unsubscribeToken(this.linkKey, { accountId, shopId, channel, address });
    return `${this.options.publicUrl}/buyer/unsubscribe/${token}`;
  }

  /** A message's subject (e-mail), text and link as the shop's template makes them for this order. */
  async render(
    accountId: number,
    shop: ShopMessaging,
    order: OrderDoc & { id: number },
    moment: Moment,
    channel: Channel,
    language: Language,
    address: string,
  ): Promise<{ subject: string | null; text: string; link: string | null }> {
    const context = this.contextFor(
      order,
      shop,
      language,
      this.unsubscribeUrl(accountId, shop.shopId, channel, address),
      this.options.returnsPage?.(accountId, shop.shopId, order.id) ?? '',
    );
    try {
      return await this.renderWith(shop.templates, context, moment, channel, language, {}, SENDING_RENDER_LIMIT_MS);
    } catch {
      // a shop's template that fails now (it passed when saved) still leaves the buyer the default words
      return this.renderWith({}, context, moment, channel, language, {}, SENDING_RENDER_LIMIT_MS);
    }
  }

  private async renderWith(
    templates: TemplateOverrides,
    context: MessageContext,
    moment: Moment,
    channel: Channel,
    language: Language,
    tried: { subject?: string; body?: string } = {},
    limitMs?: number,
  ): Promise<{ subject: string | null; text: string; link: string | null }> {
    const subject =
      channel === 'email'
        ? await renderTemplate(
            tried.subject ?? templateOf(templates, moment, language, 'subject'),
            context,
            false,
            limitMs,
          )
        : null;
    // Telegram reads HTML: the buyer's and the shop's text escaped
    const text = await renderTemplate(
      tried.body ?? templateOf(templates, moment, language, bodyPartOf(channel)),
      context,
      channel === 'telegram',
      limitMs,
    );
    return { subject, text, link: context.order.tracking_url || null };
  }

  private contextFor(
    order: OrderDoc & { id: number },
    shop: ShopMessaging,
    language: Language,
    unsubscribe: string,
    returnsUrl = '',
  ) {
    return contextOf({
      order,
      returnsUrl,
      shop: { name: shop.name, brand: shop.brand },
      language,
      courierInterval: this.courierInterval(order),
      unsubscribeUrl: unsubscribe,
    });
  }

  /** The courier interval the order chose ("10:00–14:00"): ids are the company's number × 100 + its place. */
  private courierInterval(order: OrderDoc): string {
    const id = order.clientCourierTime;
    const companyId = order.delivery.company.id;
    if (!id || typeof companyId !== 'number') return '';
    const intervals = this.reference.registry.get(companyId)?.company.courierIntervals ?? [['09:00', '18:00']];
    const interval = Math.floor(id / 100) === companyId ? intervals[(id % 100) - 1] : undefined;
    return interval ? `${interval[0]}–${interval[1]}` : '';
  }

  // ---------------------------------------------------------------- the API

  async settings(scope: Scope, shopId: number): Promise<BuyerMessageSettings> {
    await this.shops.get(scope, shopId);
    const shop = (await this.messagingOf(scope.accountId, [shopId])).get(shopId);
    if (!shop) throw notFound('Shop', shopId);
    return settingsView(shop.settings, shop.secrets);
  }

  async saveSettings(scope: Scope, shopId: number, input: BuyerMessageSettingsInput): Promise<BuyerMessageSettings> {
    requireAccountWide(scope, "change how a shop's buyers are messaged (it holds gateway credentials)");
    await this.shops.get(scope, shopId);
    const shop = (await this.messagingOf(scope.accountId, [shopId])).get(shopId);
    if (!shop) throw notFound('Shop', shopId);
    const { settings, secrets } = mergeSettings(shop.settings, shop.secrets, input);
    const problems: ErrorItem[] = [];
    if (settings.sms.enabled && !smsConfigured(settings, secrets))
      problems.push({
        field: 'sms',
        message: 'an enabled SMS channel needs its gateway and credentials (smsru: apiId; smsc: login and password)',
      });
    if (settings.telegram.enabled && !secrets.botToken)
      problems.push({ field: 'telegram.botToken', message: 'an enabled Telegram channel needs its bot token' });
    if (problems.length) throw badRequest('The buyer-message settings are incomplete.', problems);
    const signal = AbortSignal.timeout(CHECK_TIMEOUT_MS);
    const smsChanged = input.sms && (input.sms.apiId || input.sms.login || input.sms.password || input.sms.gateway);
    if (smsChanged && settings.sms.gateway && smsConfigured(settings, secrets)) {
      const gateway = this.channels.smsGateway(settings.sms.gateway, secrets, settings.sms.sender);
      await checked('sms', () => gateway?.check(signal));
    }
    let webhookKey = shop.webhookKey;
    if (input.telegram?.botToken) {
      const bot = this.channels.telegramBot(secrets.botToken as string);
      const identity = await checked('telegram.botToken', () => bot.identity(signal));
      settings.telegram.botUsername = identity?.username ?? null;
      webhookKey = randomBytes(18).toString('base64url');
      await checked('telegram.botToken', () =>
        bot.setWebhook(
          `${this.options.publicUrl}/buyer/telegram/${webhookKey}`,
          this.webhookSecret(webhookKey as string),
          signal,
        ),
      );
    }
    if (input.telegram?.botToken === null) webhookKey = null;
    // the views hold no credential (a gateway is `configured` or not); the credentials given are named, never shown
    declareChange({
      type: 'buyer_message_settings',
      ids: [shopId],
      before: settingsView(shop.settings, shop.secrets),
      after: { ...settingsView(settings, secrets), credentialsGiven: givenCredentials(input) },
    });
    this.forget(scope.accountId, shopId);
    await this.store.saveSettings(scope.accountId, shopId, {
      settings,
      templates: shop.templates,
      secrets: Object.keys(secrets).length ? this.secretBox.seal(JSON.stringify(secrets)) : null,
      webhookKey,
    });
    return settingsView(settings, secrets);
  }

  async templates(scope: Scope, shopId: number): Promise<TemplatesView> {
    await this.shops.get(scope, shopId);
    const shop = (await this.messagingOf(scope.accountId, [shopId])).get(shopId) as ShopMessaging;
    return {
      variables: CONTEXT_VARIABLES,
      filters: TEMPLATE_FILTERS,
      templates: MOMENTS.flatMap((moment) =>
        LANGUAGES.map((language) => {
          const own = shop.templates[moment]?.[language] ?? {};
          return {
            moment,
            language,
            subject: templateOf(shop.templates, moment, language, 'subject'),
            text: templateOf(shop.templates, moment, language, 'text'),
            sms: templateOf(shop.templates, moment, language, 'sms'),
            telegram: templateOf(shop.templates, moment, language, 'telegram'),
            custom: Object.keys(own),
          };
        }),
      ),
    };
  }

  /** Replaces the shop's own templates; each is rendered with a sample order first (an unknown variable: 400 naming it). */
  async saveTemplates(scope: Scope, shopId: number, input: TemplatesInput): Promise<TemplatesView> {
    await this.shops.get(scope, shopId);
    const overrides = input.templates as TemplateOverrides;
    const problems: ErrorItem[] = [];
    for (const moment of MOMENTS)
      for (const language of LANGUAGES)
        for (const [part, text] of Object.entries(overrides[moment]?.[language] ?? {})) {
          if (typeof text !== 'string') continue;
          const problem = await templateProblem(text, sampleContext(language));
          if (problem) problems.push({ field: `templates.${moment}.${language}.${part}`, message: problem });
        }
    if (problems.length) throw badRequest('A template cannot be used: nothing was saved.', problems);
    const shop = (await this.messagingOf(scope.accountId, [shopId])).get(shopId) as ShopMessaging;
    declareChange({ type: 'buyer_message_templates', ids: [shopId], before: shop.templates, after: overrides });
    this.forget(scope.accountId, shopId);
    await this.store.saveSettings(scope.accountId, shopId, {
      settings: shop.settings,
      templates: overrides,
      secrets: Object.keys(shop.secrets).length ? this.secretBox.seal(JSON.stringify(shop.secrets)) : null,
      webhookKey: shop.webhookKey,
    });
    return this.templates(scope, shopId);
  }

  async preview(scope: Scope, shopId: number, body: PreviewBody): Promise<Preview> {
    await this.shops.get(scope, shopId);
    const shop = (await this.messagingOf(scope.accountId, [shopId])).get(shopId) as ShopMessaging;
    const language = body.language ?? shop.settings.language;
    let context = sampleContext(language);
    if (body.orderId !== undefined) {
      const order = await this.orders.get(scope, body.orderId);
      context = this.contextFor(
        order,
        shop,
        language,
        this.unsubscribeUrl(scope.accountId, shopId, body.channel, 'preview'),
      );
    }
    const tried = { subject: body.subject, body: body.body };
    for (const [field, text] of Object.entries(tried)) {
      if (text === undefined) continue;
      const problem = await templateProblem(text, context);
      if (problem) throw badRequest('The template cannot be used.', [{ field, message: problem }]);
    }
    const rendered = await this.renderWith(shop.templates, context, body.moment, body.channel, language, tried);
    return {
      subject: rendered.subject,
      text: rendered.text,
      html:
        body.channel === 'email'
          ? emailHtml(
              { brand: shop.brand, logoUrl: shop.settings.brand.logoUrl, color: shop.settings.brand.color, language },
              rendered.subject ?? '',
              rendered.text,
              { tracking: rendered.link ?? '', unsubscribe: context.unsubscribe_url },
            )
          : null,
      sms: body.channel === 'sms' ? smsSegments(rendered.text) : null,
    };
  }

  async orderMessages(scope: Scope, orderId: number): Promise<BuyerMessage[]> {
    await this.orders.get(scope, orderId);
    return (await this.store.ofOrder(scope.accountId, orderId)).map(presentMessage);
  }

  async report(scope: Scope, query: MessagesReportQuery): Promise<MessagesReport> {
    requireAccountWide(scope, "read the buyer messages' report");
    if (query.dateTo < query.dateFrom)
      throw badRequest('dateTo is before dateFrom.', [{ field: 'dateTo', message: 'must be on or after dateFrom' }]);
    if ((Date.parse(query.dateTo) - Date.parse(query.dateFrom)) / 86_400_000 > REPORT_DAYS_AT_MOST)
      throw badRequest(`A report covers at most ${REPORT_DAYS_AT_MOST} days.`, [
        { field: 'dateTo', message: `at most ${REPORT_DAYS_AT_MOST} days after dateFrom` },
      ]);
    const end = new Date(`${query.dateTo}T00:00:00Z`);
    end.setUTCDate(end.getUTCDate() + 1);
    const rows = await this.store.report(
      scope.accountId,
      { from: `${query.dateFrom}T00:00:00.000Z`, to: end.toISOString() },
      query.shopId,
    );
    const grouped = new Map<string, MessagesReport['rows'][number]>();
    for (const row of rows) {
      const key = `${row.shop_id}|${row.channel}`;
      const entry = grouped.get(key) ?? {
        shopId: Number(row.shop_id),
        channel: row.channel,
        messages: 0,
        sent: 0,
        failed: 0,
        skipped: 0,
        segments: 0,
        cost: 0,
      };
      const count = Number(row.messages);
      entry.messages += count;
      if (row.status === 'sent' || row.status === 'delivered') entry.sent += count;
      if (row.status === 'failed') entry.failed += count;
      if (row.status === 'skipped') entry.skipped += count;
      entry.segments += Number(row.segments ?? 0);
      entry.cost = Math.round((entry.cost + Number(row.cost ?? 0) / 100) * 100) / 100;
      grouped.set(key, entry);
    }
    return { rows: [...grouped.values()] };
  }

  /** A buyer's one click: that channel of that shop stops at once for that address. False for a link not ours. */
  async unsubscribe(token: string): Promise<boolean> {
    const target = readUnsubscribeToken(this.linkKey, token);
    if (!target) return false;
    identifyAuditCaller({ actor: { kind: 'buyer', id: null }, accountId: target.accountId });
    await this.store.unsubscribe(target.accountId, target.shopId, target.channel, target.address);
    return true;
  }

  /** The tracking page's link to the shop's bot for this order, or null (no bot). */
  async telegramLink(accountId: number, shopId: number | null, orderId: number): Promise<string | null> {
    if (shopId === null) return null;
    const shop = (await this.messagingOf(accountId, [shopId])).get(shopId);
    if (!shop?.settings.telegram.enabled || !shop.settings.telegram.botUsername) return null;
    return `https://t.me/${shop.settings.telegram.botUsername}?start=${telegramPayload(this.linkKey, accountId, orderId)}`;
  }

  /**
   * An update Telegram sent to a shop's bot's webhook: a buyer's "/start <payload>" from the
   * tracking page links their chat to the order's phone (their next orders in the shop too).
   * False when the webhook's key or secret is not one of ours.
   */
  async telegramUpdate(
    key: string,
    secretHeader: string | undefined,
    start: { chatId: string; payload: string; languageCode: string | null } | null,
  ): Promise<boolean> {
    const found = await this.store.byWebhookKey(key);
    if (!found || secretHeader !== this.webhookSecret(key)) return false;
    // a buyer's chat linked through the shop's bot: the shop's account's change, by its buyer
    identifyAuditCaller({ actor: { kind: 'buyer', id: null }, accountId: found.accountId });
    if (!start) return true;
    const target = readTelegramPayload(this.linkKey, start.payload);
    if (!target || target.accountId !== found.accountId) return true;
    const order = (await this.ordersOf(found.accountId, [target.orderId])).get(target.orderId);
    const phone = order && order.shopId === found.shopId ? normalisePhone(order.recipient.phone) : null;
    if (!phone) return true;
    await this.store.saveTelegramChat(found.accountId, found.shopId, phone, start.chatId, start.languageCode);
    const shop = (await this.messagingOf(found.accountId, [found.shopId])).get(found.shopId);
    if (shop?.secrets.botToken) {
      const english = start.languageCode?.startsWith('en') === true;
      const reply = english
        ? `You will get news of order ${order?.cmsId ?? target.orderId} here.`
        : `Здесь будут новости о заказе ${order?.cmsId ?? target.orderId}.`;
      await this.channels
        .telegramBot(shop.secrets.botToken)
        .sendMessage(start.chatId, reply, AbortSignal.timeout(CHECK_TIMEOUT_MS))
        .catch(() => undefined);
    }
    return true;
  }

  private webhookSecret(key: string): string {
    return createHmac('sha256', this.linkKey).update(`telegram-webhook:${key}`).digest('base64url').slice(0, 48);
  }
}

/** A refusal of the gateway or Telegram as the field's 422; their being down is a 422 too, saying so. */
async function checked<T>(field: string, call: () => Promise<T> | undefined): Promise<T | undefined> {
  try {
    return await call();
  } catch (error) {
    const message =
      error instanceof MessagingError
        ? error.permanent
          ? `refused: ${error.message}`
          : `could not be checked now (${error.message}); try again`
        : 'could not be checked now; try again';
    throw unprocessable('channel_refused', `The ${field.split('.')[0]} settings were not saved: ${message}.`, [
      { field, message },
    ]);
  }
}

function maskPhone(digits: string): string {
  return digits.length > 6 ? `+${digits.slice(0, 4)}***${digits.slice(-2)}` : '***';
}

function presentMessage(row: MessageRow): BuyerMessage {
  return {
    id: Number(row.id),
    moment: row.moment,
    channel: row.channel,
    address: row.channel === 'sms' ? maskPhone(row.address) : row.channel === 'telegram' ? 'Telegram' : row.address,
    status: row.status,
    reason: row.reason,
    segments: row.segments,
    cost: row.cost_kopecks === null ? null : Number(row.cost_kopecks) / 100,
    sendAfter: row.send_after,
    createdAt: row.created_at,
    sentAt: row.sent_at,
  };
}

/** Which credential fields a settings change gave (set or removed), by name: the trail says they changed, never what to. */
function givenCredentials(input: BuyerMessageSettingsInput): string[] {
  const given: string[] = [];
  for (const field of ['apiId', 'login', 'password'] as const)
    if (input.sms?.[field] !== undefined) given.push(`sms.${field}`);
  if (input.telegram?.botToken !== undefined) given.push('telegram.botToken');
  return given;
}

/**
 * The checkout widget's rules: publishable keys bound to origins, what a page may read
 * (localities, points, quotes at the shop's own prices) and the selection a shop's server
 * turns into an order. Prices always come from the calculator with the shop's widget
 * settings; a browser never sends one. The map's points, which quote nothing, are
 * point-answers.ts.
 */
import { randomBytes } from 'node:crypto';
import type { Scope } from '../../platform/auth.js';
import { requireAccountWide, requireShopAccess } from '../../platform/auth.js';
import { identifyAuditCaller } from '../../platform/audit.js';
import { BoundedMap } from '../../platform/cache.js';
import type { JsonBody } from '../../platform/compression.js';
import { hashToken } from '../../platform/crypto.js';
import { AppError, conflict, fieldError } from '../../platform/errors.js';
import type { CalculatorService } from '../calculator/service.js';
import type { AccountService } from '../accounts/service.js';
import type { CalculatorBody, CalculatorPoint, DeliveryCompanyResult } from '../calculator/schemas.js';
import type { WidgetSettingsService } from '../calculator/widget-settings.js';
import type { ReferenceData } from '../companies/reference.js';
import { courierIntervalsIn } from '../companies/courier-intervals.js';
import { LocalityDirectory } from '../localities/directory.js';
import { cleanName } from '../localities/names.js';
import type { Locality } from '../localities/source.js';
import type { OrderInput } from '../orders/schemas.js';
import type { OrderService } from '../orders/service.js';
import type { Shop } from '../shops/schemas.js';
import type { ShopService } from '../shops/service.js';
import { PreviewKeys } from './preview-keys.js';
import { PointAnswers, pointTakesParcel, presentPoint, type ParcelNeeds } from './point-answers.js';
import type {
  ConfirmInput,
  ConfirmOrderInput,
  UpdateOrderInput,
  LocalitySearchQuery,
  PointsQuery,
  QuoteAnswer,
  QuoteInput,
  SelectedQuote,
  SelectionAnswer,
  SelectionInput,
  WidgetKey,
  WidgetKeyInput,
  WidgetLocality,
  WidgetPreviewKey,
  WidgetOption,
} from './schemas.js';
import type { KeyRecord, WidgetStore } from './store.js';

export { CLUSTER_BELOW_ZOOM, MAX_POINTS } from './point-answers.js';

/** A page waits for quotes while the buyer looks at it: a company slower than this is left out. */
export const WIDGET_QUOTE_TIMEOUT_MS = 4000;
/** How long a buyer's choice can be confirmed by the shop's server: a checkout, with a coffee. */
export const SELECTION_TTL_MS = 60 * 60 * 1000;
/** A key's shop and origins are remembered this long: every page view asks several times. */
const KEY_CACHE_MS = 10_000;

/** A resolved publishable key: who it acts for. `preview`: the dashboard's preview key (nothing it chooses becomes an order). */
export interface WidgetCaller {
  key: KeyRecord;
  scope: Scope;
  preview?: true;
}

/** What a selection keeps: the cart as the page sent it, the locality found, and the quote shown. */
interface StoredSelection {
  input: SelectionInput;
  fias: string;
  quote: SelectedQuote;
  /** Made in the dashboard's preview: never confirmed into an order. */
  preview?: true;
}

export type ConfirmOutcome =
  | { kind: 'created'; id: number; quote: SelectedQuote }
  | { kind: 'price_changed'; quote: SelectedQuote; was: number };

export class WidgetService {
  private readonly keys = new BoundedMap<string, { caller: WidgetCaller | null; until: number }>(10_000);
  private names: Array<{ name: string; nameEn: string; presented: WidgetLocality }> | null = null;
  private readonly pointAnswers: PointAnswers;
  private readonly previews: PreviewKeys;

  constructor(
    private readonly store: WidgetStore,
    private readonly shops: ShopService,
    private readonly reference: ReferenceData,
    private readonly calculator: CalculatorService,
    widgetSettings: WidgetSettingsService,
    private readonly orders: OrderService,
    private readonly accounts: AccountService,
  ) {
    this.pointAnswers = new PointAnswers(reference, widgetSettings);
    this.previews = new PreviewKeys(store, accounts);
  }

  /** Forgets selections a day past their expiry that never became orders (the hourly maintenance of `serve`). */
  async purgeExpiredSelections(now = new Date()): Promise<number> {
    const dayAgo = new Date(now.getTime() - 86_400_000).toISOString();
    await this.store.deleteExpiredPreviewKeys(dayAgo);
    return this.store.deleteExpired(dayAgo);
  }

  // ---------------------------------------------------------------- keys (the shop's owner)

  /** Issues the shop's publishable key (a new one each time: the old one stops at once). */
  async issueKey(scope: Scope, shopId: number, input: WidgetKeyInput): Promise<WidgetKey> {
    await this.shops.get(scope, shopId);
    requireAccountWide(scope, 'issue widget keys');
    const origins = [...new Set(input.allowedOrigins.map((origin) => origin.toLowerCase()))];
    const record = await this.store.putKey(
      scope.accountId,
      shopId,
      `pk_${randomBytes(24).toString('base64url')}`,
      origins,
    );
    this.keys.clear();
    return present(record);
  }

  /** Changes the origins of the shop's key and keeps the key (the pages that carry it go on working). */
  async setOrigins(scope: Scope, shopId: number, input: WidgetKeyInput): Promise<WidgetKey> {
    await this.shops.get(scope, shopId);
    requireAccountWide(scope, 'change widget keys');
    const record = await this.store.keyOfShop(scope.accountId, shopId);
    if (!record)
      throw new AppError(
        404,
        'not_found',
        `Shop ${shopId} has no widget key yet: POST /v2/shops/${shopId}/widget-key issues one.`,
      );
    const origins = [...new Set(input.allowedOrigins.map((origin) => origin.toLowerCase()))];
    const updated = await this.store.putKey(scope.accountId, shopId, record.publicKey, origins);
    this.keys.clear();
    return present(updated);
  }

  /** The shop's preview key for the dashboard (preview-keys.ts says what it may do). */
  async previewKey(scope: Scope, shopId: number): Promise<WidgetPreviewKey> {
    await this.shops.get(scope, shopId);
    requireAccountWide(scope, 'preview the widget');
    return this.previews.keyOf(scope.accountId, shopId);
  }

  /** What the first-run checklist reads: shops with a key some origin may use, and orders made of selections (latest first). */
  async setUpFacts(accountId: number): Promise<{ keyedShops: number[]; orderIds: number[] }> {
    const [keys, orderIds] = await Promise.all([
      this.store.shopsWithKeys(accountId),
      this.store.ordersOfSelections(accountId, 20),
    ]);
    return { keyedShops: keys.filter((key) => key.allowedOrigins.length > 0).map((key) => key.shopId), orderIds };
  }

  async getKey(scope: Scope, shopId: number): Promise<WidgetKey> {
    await this.shops.get(scope, shopId);
    const record = await this.store.keyOfShop(scope.accountId, shopId);
    if (!record)
      throw new AppError(
        404,
        'not_found',
        `Shop ${shopId} has no widget key yet: POST /v2/shops/${shopId}/widget-key issues one.`,
      );
    return present(record);
  }

  // ---------------------------------------------------------------- the page's calls

  /**
   * The key's shop and account, or a 401 the page can show; a page of another origin is refused
   * (403). A preview key (pv_…) answers only a page of the service's own origin (preview-keys.ts).
   */
  async caller(
    publicKey: string,
    origin: string | undefined,
    page: { ownHost?: string; fetchSite?: string } = {},
  ): Promise<WidgetCaller> {
    if (publicKey.startsWith('pv_'))
      return this.previews.caller(publicKey, { origin, ownHost: page.ownHost, fetchSite: page.fetchSite });
    if (!publicKey)
      throw new AppError(
        401,
        'unauthorized',
        "The widget key is missing: pass key=pk_… (the shop's publishable widget key).",
      );
    const now = Date.now();
    let hit = this.keys.get(publicKey);
    if (!hit || hit.until <= now) {
      const key = await this.store.keyByPublicKey(publicKey);
      const timeZone = key ? await this.accounts.timeZoneOf(key.accountId) : 'UTC';
      hit = {
        caller: key
          ? {
              key,
              scope: { accountId: key.accountId, timeZone, kind: 'shop', shopKeyShopId: key.shopId, employeeId: null },
            }
          : null,
        until: now + KEY_CACHE_MS,
      };
      this.keys.set(publicKey, hit);
    }
    if (!hit.caller)
      throw new AppError(
        401,
        'invalid_widget_key',
        'The widget key is unknown or was replaced: take the current one from the shop settings.',
      );
    // No Origin: not a browser page (a server, curl); the key is public anyway, the origin check guards pages.
    if (origin !== undefined && !hit.caller.key.allowedOrigins.includes(origin.toLowerCase())) {
      throw new AppError(
        403,
        'origin_not_allowed',
        `Pages of ${origin} may not use this widget key; the shop's owner can allow the origin.`,
      );
    }
    return hit.caller;
  }

  /** Localities whose name starts with what the buyer typed, the largest first. */
  localities(query: LocalitySearchQuery): WidgetLocality[] {
    const typed = cleanName(query.q);
    if (typed.length === 0) return [];
    const limit = query.limit ?? 10;
    const found: WidgetLocality[] = [];
    // most populous first: the first matches are the answer
    for (const entry of this.localityNames()) {
      if (!entry.name.startsWith(typed) && !entry.nameEn.startsWith(typed)) continue;
      found.push(entry.presented);
      if (found.length === limit) break;
    }
    return found;
  }

  /**
   * Points in a viewport that take the parcel, of the companies the shop shows; clusters when
   * zoomed out. `tag` names the answer (data, the shop's settings, the query): equal tags, equal
   * answers, so it is the ETag and the key of the answers remembered.
   */
  points(caller: WidgetCaller, query: PointsQuery, url: string): Promise<{ tag: string; answer: () => JsonBody }> {
    return this.pointAnswers.points(caller.scope, caller.key.shopId, query, url);
  }

  /** The cart's options at the shop's prices; companies that do not answer in time are left out. */
  async quotes(
    caller: WidgetCaller,
    input: QuoteInput,
    onCompanyFailed?: (companyId: number, reason: string) => void,
  ): Promise<QuoteAnswer> {
    const locality = this.locality(input.city);
    const shop = await this.shops.get(caller.scope, caller.key.shopId);
    const result = await this.calculator.calculate(caller.scope, shop, this.calculatorBody(locality, input), {
      onCompanyFailed,
    });
    const modes = new Set<number>(input.modes ?? [1, 2, 3]);
    const options: WidgetOption[] = [];
    for (const mode of [1, 2, 3] as const) {
      if (!modes.has(mode)) continue;
      for (const company of result[String(mode) as '1' | '2' | '3']) {
        const option = this.option(mode, company, locality);
        if (option) options.push(option);
      }
    }
    options.sort((a, b) => a.mode - b.mode || a.totalPrice - b.totalPrice);
    return { city: presentLocality(locality), options };
  }

  /** Prices the buyer's choice on the server and keeps it under an opaque, expiring token. */
  async select(caller: WidgetCaller, input: SelectionInput): Promise<SelectionAnswer> {
    // the publishable key is the page's credential: what the page writes is the key's shop's, by its widget
    identifyAuditCaller({
      actor: { kind: 'widget', id: String(caller.key.shopId) },
      accountId: caller.scope.accountId,
    });
    if (input.mode === 1 && !input.pointId) throw fieldError('pointId', 'is required for a pickup point (mode 1)');
    if (input.mode === 2 && !input.address?.street)
      throw fieldError('address.street', 'is required for courier delivery (mode 2)');
    const locality = this.locality(input.city);
    const shop = await this.shops.get(caller.scope, caller.key.shopId);
    const quote = await this.quoteSelection(caller.scope, shop, locality, input);
    if (!quote)
      throw new AppError(
        422,
        'option_unavailable',
        'This company cannot deliver the cart there (or that point cannot take it); choose another option.',
      );
    const token = `sel_${randomBytes(24).toString('base64url')}`;
    const expiresAt = new Date(Date.now() + SELECTION_TTL_MS).toISOString();
    const stored: StoredSelection = {
      input,
      fias: LocalityDirectory.fiasOf(locality),
      quote,
      ...(caller.preview ? { preview: true as const } : {}),
    };
    await this.store.insertSelection(caller.scope.accountId, caller.key.shopId, hashToken(token), stored, expiresAt);
    return { token, expiresAt, quote };
  }

  // ---------------------------------------------------------------- the shop's server

  /**
   * Makes the order of a selection: unused and unexpired, the option still there, the price
   * the buyer saw. The order goes through the orders area like any other (its drop-off rule too).
   */
  async confirm(scope: Scope, input: ConfirmInput): Promise<ConfirmOutcome> {
    const record = await this.store.selectionByToken<StoredSelection>(scope.accountId, hashToken(input.selectionToken));
    if (!record) throw new AppError(404, 'selection_not_found', 'No selection has this token in this account.');
    requireShopAccess(scope, record.shopId);
    if (record.selection.preview)
      throw new AppError(
        422,
        'preview_selection',
        "This choice was made in the dashboard's preview: a preview never becomes an order. Choose in the widget on the shop's page.",
      );
    if (record.usedAt !== null)
      throw conflict(
        'selection_used',
        `This selection was already confirmed${record.orderId ? ` as order ${record.orderId}` : ''}.`,
      );
    if (record.expiresAt <= new Date().toISOString())
      throw conflict('selection_expired', 'This selection has expired: the buyer chooses again.');
    const { input: chosen, quote: seen } = record.selection;
    const locality = this.locality({ fias: record.selection.fias });
    const shop = await this.shops.get(scope, record.shopId);
    const now = await this.quoteSelection(scope, shop, locality, chosen);
    if (!now)
      throw conflict(
        'selection_unavailable',
        'The chosen option is no longer available (the point closed or cannot take the parcel): the buyer chooses again.',
      );
    if (now.totalPrice !== seen.totalPrice) return { kind: 'price_changed', quote: now, was: seen.totalPrice };
    if (!(await this.store.claim(scope.accountId, record.id)))
      throw conflict('selection_used', 'This selection was already confirmed.');
    try {
      const id = await this.orders.create(
        scope,
        this.orderInput(record.shopId, locality, chosen, now, input),
        String(record.shopId),
      );
      await this.store.markOrdered(scope.accountId, record.id, id);
      return { kind: 'created', id, quote: now };
    } catch (error) {
      await this.store.release(scope.accountId, record.id);
      throw error;
    }
  }

  // ---------------------------------------------------------------- the widget era's plugins

  /**
   * `POST /v2/widgets/update-order`: the order of the selection the widget's `done` named, made
   * now with the buyer's contacts the widget took (once; later calls, on every CMS status change,
   * answer the same order). A number is an order id already made (plugins send `cabinetId` back).
   */
  async updateWidgetEraOrder(scope: Scope, input: UpdateOrderInput): Promise<{ cabinetId: number }> {
    if (typeof input.id === 'number' || /^\d+$/.test(input.id))
      return { cabinetId: (await this.orders.get(scope, Number(input.id))).id };
    const record = await this.store.selectionByToken<StoredSelection>(scope.accountId, hashToken(input.id));
    if (!record) throw new AppError(404, 'selection_not_found', 'No selection or order has this id in this account.');
    requireShopAccess(scope, record.shopId);
    if (record.orderId !== null) return { cabinetId: record.orderId };
    const contacts = record.selection.input.contacts;
    if (!contacts)
      throw new AppError(
        422,
        'contacts_missing',
        'The widget took no contacts for this selection: confirm it with POST /v2/widget/orders and the recipient.',
      );
    const outcome = await this.confirm(scope, {
      selectionToken: input.id,
      ...(input.cmsId !== undefined ? { cmsId: String(input.cmsId) } : {}),
      recipient: contacts,
    });
    if (outcome.kind === 'price_changed')
      throw conflict(
        'price_changed',
        `The delivery price changed from ${outcome.was} to ${outcome.quote.totalPrice}: nothing was made; the buyer chooses again.`,
      );
    return { cabinetId: outcome.id };
  }

  /** `POST /v2/widgets/confirm-order`: the order a selection became (the widget takes no payment, so there is nothing more to confirm). */
  async confirmWidgetEraOrder(scope: Scope, input: ConfirmOrderInput): Promise<{ cabinetId: number }> {
    const record = await this.store.selectionByToken<StoredSelection>(
      scope.accountId,
      hashToken(String(input.checkoutSessId)),
    );
    if (!record)
      throw new AppError(404, 'selection_not_found', 'No selection has this checkoutSessId in this account.');
    requireShopAccess(scope, record.shopId);
    if (record.orderId === null)
      throw conflict('order_not_made', 'No order was made of this selection yet: POST /v2/widgets/update-order first.');
    return { cabinetId: record.orderId };
  }

  // ---------------------------------------------------------------- helpers

  /** Localities with their names made comparable once, the most populous first. */
  private localityNames(): Array<{ name: string; nameEn: string; presented: WidgetLocality }> {
    if (!this.names) {
      this.names = [...this.reference.localities.all]
        .sort((a, b) => b.population - a.population)
        .map((locality) => ({
          name: cleanName(locality.name),
          nameEn: locality.nameEn.toLowerCase(),
          presented: presentLocality(locality),
        }));
    }
    return this.names;
  }

  private locality(city: { fias?: string; name?: string; region?: string }): Locality {
    const found = this.reference.localities.find({
      fias: city.fias ?? null,
      name: city.name ?? null,
      region: city.region ?? null,
    });
    if (!found)
      throw new AppError(400, 'unknown_locality', 'The locality was not found: pick one from the search.', [
        { field: 'city', message: 'is not a known locality' },
      ]);
    return found;
  }

  private calculatorBody(locality: Locality, input: QuoteInput | SelectionInput): CalculatorBody {
    const cod = input.cod ?? false;
    return {
      reception: {
        countryCode: 'RU',
        cityFias: LocalityDirectory.fiasOf(locality),
        cityName: locality.name,
        region: locality.region,
      },
      products: input.products.map((product) => ({
        priceDeclared: product.price,
        priceCod: cod ? product.price : 0,
        count: product.count ?? 1,
        ...(product.weight !== undefined ? { weight: product.weight } : {}),
        ...(product.width !== undefined || product.height !== undefined || product.length !== undefined
          ? { dimensions: { width: product.width, height: product.height, length: product.length } }
          : {}),
      })),
      ...(input.declaredValue !== undefined ? { priceDeclared: input.declaredValue } : {}),
      calcCod: cod,
      ...(input.segment ? { segment: input.segment } : {}),
      ...(input.paymentOnDelivery ? { paymentOnDelivery: input.paymentOnDelivery } : {}),
      applyWidgetSettings: true,
      applyDefaultDimensions: true,
      timeout: WIDGET_QUOTE_TIMEOUT_MS,
    };
  }

  private option(mode: 1 | 2 | 3, company: DeliveryCompanyResult, locality: Locality): WidgetOption | null {
    const points = (company.points ?? []).filter((point): point is CalculatorPoint => typeof point !== 'number');
    const price = company.totalPrice ?? (points.length ? Math.min(...points.map((point) => point.totalPrice)) : null);
    if (price === null) return null;
    const card =
      typeof company.deliveryCompanyId === 'number'
        ? this.reference.registry.get(company.deliveryCompanyId)?.company
        : undefined;
    return {
      mode,
      companyId: company.deliveryCompanyId,
      companyName: company.deliveryCompanyName,
      tariffName: company.tariffName,
      totalPrice: price,
      deliveryDays: company.deliveryDays,
      deliveryDate: company.deliveryDate,
      cashPaymentAvailable: company.cashPaymentAvailable ?? points.some((point) => point.cashPaymentAvailable),
      cardPaymentAvailable: company.cardPaymentAvailable ?? points.some((point) => point.cardPaymentAvailable),
      ...(mode === 2 && card ? { courierIntervals: courierIntervalsIn(card, locality) } : {}),
      ...(company.promise ? { promise: company.promise } : {}),
    };
  }

  private async quoteSelection(
    scope: Scope,
    shop: Shop,
    locality: Locality,
    input: SelectionInput,
  ): Promise<SelectedQuote | null> {
    const body = this.calculatorBody(locality, input);
    const pointId = input.mode === 2 ? undefined : input.pointId;
    const point = pointId ? this.reference.registry.point(pointId) : undefined;
    // a post office (mode 3) is priced to its index by the calculator; here it must still be the company's, open and able to take the cart
    if (
      input.mode === 3 &&
      pointId &&
      !(
        point &&
        point.type === 3 &&
        point.companyId === input.companyId &&
        pointTakesParcel(point, parcelOfCart(input))
      )
    )
      return null;
    const quote = await this.calculator.quoteOne(scope, shop, {
      ...body,
      companyId: input.companyId,
      deliveryType: input.mode,
      pointId: pointId ?? null,
    });
    if (!quote) return null;
    const option = this.option(input.mode, quote, locality);
    if (!option) return null;
    return { ...option, point: point ? presentPoint(point) : null };
  }

  private orderInput(
    shopId: number,
    locality: Locality,
    chosen: SelectionInput,
    quote: SelectedQuote,
    input: ConfirmInput,
  ): OrderInput {
    const cod = chosen.cod ?? false;
    return {
      shopId,
      ...(input.cmsId !== undefined ? { cmsId: input.cmsId } : {}),
      products: chosen.products.map((product) => ({
        name: product.name ?? null,
        vendorCode: product.vendorCode ?? null,
        priceDeclared: product.price,
        priceCod: cod ? product.price : 0,
        count: product.count ?? 1,
        weight: product.weight ?? null,
        dimensions: { width: product.width ?? null, height: product.height ?? null, length: product.length ?? null },
      })),
      ...(chosen.declaredValue !== undefined ? { priceDeclared: chosen.declaredValue } : {}),
      deliveryAddress: {
        city: {
          countryCode: 'RU',
          name: locality.name,
          fias: LocalityDirectory.fiasOf(locality),
          type: locality.type,
          region: locality.region,
        },
        street: chosen.address?.street ?? null,
        house: chosen.address?.house ?? null,
        bulk: chosen.address?.bulk ?? null,
        flat: chosen.address?.flat ?? null,
        ...(chosen.address?.fiasId ? { fiasId: chosen.address.fiasId } : {}),
        // the post office's index is where a post parcel waits, unless the buyer gave one
        zipCode: chosen.address?.zipCode ?? (chosen.mode === 3 ? (quote.point?.zipCode ?? null) : null),
      },
      recipient: {
        fullName: input.recipient.fullName,
        phone: input.recipient.phone,
        email: input.recipient.email ?? null,
      },
      applyWidgetSettings: true,
      applyDefaultDimensions: true,
      // priced as the buyer's quote was: the shop's rules read the same segment and payment
      ...(chosen.segment ? { segment: chosen.segment } : {}),
      ...(chosen.paymentOnDelivery ? { paymentOnDelivery: chosen.paymentOnDelivery } : {}),
      delivery: {
        company: { id: chosen.companyId },
        type: chosen.mode,
        point: chosen.mode !== 2 && chosen.pointId ? { id: chosen.pointId } : null,
      },
      ...(cod ? { clientPrice: quote.totalPrice } : {}),
      clientDeliveryDate: chosen.courier?.date ?? null,
      clientCourierTime: chosen.courier?.intervalId ?? null,
      comment: input.comment ?? null,
    };
  }
}

/** What a selection's cart needs of a point: its weight (kg), the largest product's sides, payment on delivery. */
function parcelOfCart(input: SelectionInput): ParcelNeeds {
  const weights = input.products.map((product) => (product.weight ?? 0) * (product.count ?? 1));
  const weightKg = weights.reduce((sum, weight) => sum + weight, 0);
  const sized = input.products.find(
    (product) => product.length !== undefined && product.width !== undefined && product.height !== undefined,
  );
  const cod = input.cod ?? false;
  return {
    weightKg: weightKg > 0 ? weightKg : null,
    sidesCm: sized ? [sized.length as number, sized.width as number, sized.height as number] : null,
    cod,
    card: false,
    fitting: false,
  };
}
function present(record: KeyRecord): WidgetKey {
  return { publicKey: record.publicKey, allowedOrigins: record.allowedOrigins, createdAt: record.createdAt };
}

function presentLocality(locality: Locality): WidgetLocality {
  return {
    fias: LocalityDirectory.fiasOf(locality),
    name: locality.name,
    type: locality.type,
    region: locality.region,
    countryCode: locality.countryCode,
    latitude: locality.latitude,
    longitude: locality.longitude,
  };
}

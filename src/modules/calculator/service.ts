/**
 * The calculator: one call prices a parcel across every eligible delivery company,
 * concurrently under one deadline. Other modules (orders) call `quoteOne`.
 */
import type { Scope } from '../../platform/auth.js';
import { todayIn } from '../../platform/clock.js';
import { AppError, FieldErrorCollector } from '../../platform/errors.js';
import { toKopecks, toRoubles } from '../../platform/money.js';
import { markDeadline } from '../../platform/remote-http.js';
import { distanceKm } from '../../carriers/geo.js';
import type { DeliveryPoint } from '../../carriers/points.js';
import type { RegisteredCompany } from '../../carriers/registry.js';
import { scaled } from '../../carriers/tariff/pricing.js';
import type { CarrierQuote, DeliveryType, PriceMode, QuoteRequest } from '../../carriers/types.js';
import type { ReferenceData } from '../companies/reference.js';
import type { Locality } from '../localities/source.js';
import type { Shop } from '../shops/schemas.js';
import { AnswerCache, type Answer } from './answer-cache.js';
import { buildCargo } from './cargo.js';
import {
  addWorkingDays,
  applyPriceRules,
  calendarDaysBetween,
  commissionsOf,
  deliveryCostKopecks,
  totalKopecks,
} from './rules.js';
import type {
  CalculatorBody,
  CalculatorPoint,
  CalculatorResult,
  CompanyBody,
  DeliveryCompanyResult,
  WidgetSettingsFull,
} from './schemas.js';
import type { WidgetSettingsService } from './widget-settings.js';
import { JsonAnswers } from './json-answer.js';
import { ownOptions } from './own-options.js';
import {
  cheapest,
  place,
  placeOf,
  pointTakes,
  priceRulesOf,
  toModel,
  type CompanyOption,
  type Context,
  type PointOption,
  type PointPrice,
} from './present.js';

/** The widget area filters its map's points as the calculator does. */
export { pointTakes } from './present.js';
import { ownMethodId, pointsNear, serves, type OwnMethod } from '../delivery-methods/rules.js';

export const DEFAULT_TIMEOUT_MS = 20000;
/** isFar: how many of a company's nearest points to offer, and how far to look. */
const FAR_POINTS = 5;
const FAR_WITHIN_KM = 150;
/** A far point is reached through the network's nearest hub: a working day more. */
const FAR_EXTRA_DAYS = 1;
const MARKETPLACE_SUPPLY_SERVICE = 19;

export interface CalculationOptions {
  /** Only this delivery type (calculator/one's Type header; else body.type). */
  type?: DeliveryType;
  /** Only these companies (calculator/one's Company-Id header; else body.companyIds); own methods as '{accountId}_{methodId}'. */
  companyIds?: Array<number | string>;
  /** Told about every company left out for failing or missing the deadline. */
  onCompanyFailed?: (companyId: number, reason: string) => void;
  /** Pickup points: present only this one (an order's chosen point; a city has hundreds). */
  pointId?: number;
  /** An order's company whose drop-off point the order or its warehouse chose: offered even where it has no point near the sender. */
  dropOffChosenFor?: number;
  /** The shop's widget settings when the caller has read them already (an order's quote reads them once). */
  widget?: WidgetSettingsFull;
}

/** How one company's answer to a quote went: answered, failed, or missed the deadline. */
export type CompanyQuoteOutcome = 'ok' | 'error' | 'timeout';

/** Told how long each company took to quote (metrics); keeps the calculator free of any metrics library. */
export interface CompanyQuoteObserver {
  companyQuoted(companyId: number, seconds: number, outcome: CompanyQuoteOutcome): void;
}

/** A priced delivery for an order: the calculator's option, and what the shop's free-delivery threshold means for it. */
export type OrderQuote = DeliveryCompanyResult & {
  deliveryCostThresholds: { deliveryCost: number | null; threshold: number | null };
};

/** What orders need to price a delivery: a calculator body plus the chosen company, type and point. */
export interface DeliveryQuoteRequest extends CalculatorBody {
  /** A company's number, or an own method's '{accountId}_{methodId}'. */
  companyId: number | string;
  deliveryType: DeliveryType;
  pointId?: number | null;
  /** The drop-off point the order leaves from (pickup.pointId), when it names or was given one. */
  dropOffPointId?: number | null;
}

/** What the calculator needs of the kits area. */
export interface KitLookup {
  get(
    scope: Scope,
    id: number,
  ): Promise<{
    discount: number;
    products: Array<{
      count: number;
      weight: number | null;
      priceDeclared: number | null;
      priceCod: number | null;
      dimensions: { width: number | null; height: number | null; length: number | null };
    }>;
  }>;
}

interface GoodsItem {
  weight?: number;
  dimensions?: { width?: number; height?: number; length?: number };
  priceDeclared?: number;
  priceCod?: number;
  discount?: number;
  count?: number;
}

/** What the calculator needs of the account's own delivery methods (delivery-methods area). */
export interface OwnMethodSource {
  methodsOf(accountId: number): Promise<OwnMethod[]>;
}

export class CalculatorService {
  /** The fast JSON path's point pieces, made once per process. */
  private readonly json = new JsonAnswers();
  private readonly workingDays = new Map<string, Array<{ date: string; calendarDays: number }>>();
  private readonly answers: AnswerCache;
  private readonly warehouseKeys = new WeakMap<Shop, string>();

  constructor(
    private readonly reference: ReferenceData,
    private readonly widgetSettings: WidgetSettingsService,
    options: {
      cacheSeconds?: number;
      kits?: KitLookup;
      observer?: CompanyQuoteObserver;
      ownMethods?: OwnMethodSource;
    } = {},
  ) {
    this.answers = new AnswerCache((options.cacheSeconds ?? 0) * 1000);
    this.kits = options.kits ?? null;
    this.observer = options.observer ?? null;
    this.ownMethods = options.ownMethods ?? null;
  }

  private readonly ownMethods: OwnMethodSource | null;

  private async ownMethodsOf(scope: Scope): Promise<OwnMethod[]> {
    return this.ownMethods ? this.ownMethods.methodsOf(scope.accountId) : [];
  }

  private readonly kits: KitLookup | null;
  private readonly observer: CompanyQuoteObserver | null;

  /** Kits sent by id only: their goods from the catalogue (kit count times each product's count, the kit's discount on COD). */
  private async expandKits(scope: Scope, kits: NonNullable<CalculatorBody['kits']>): Promise<GoodsItem[]> {
    const goods: GoodsItem[] = [];
    for (const [index, kit] of kits.entries()) {
      if (kit.id === undefined || kit.weight !== undefined || kit.dimensions !== undefined || !this.kits) {
        goods.push(kit);
        continue;
      }
      let found: Awaited<ReturnType<KitLookup['get']>>;
      try {
        found = await this.kits.get(scope, kit.id);
      } catch (error) {
        if (error instanceof AppError && error.statusCode === 404) {
          throw new AppError(
            400,
            'validation_failed',
            `kits[${index}].id: kit ${kit.id} is not a kit of this account.`,
            [{ field: `kits[${index}].id`, message: 'is not a kit of this account' }],
          );
        }
        throw error;
      }
      const kitCount = kit.count ?? 1;
      const keep = 1 - (found.discount ?? 0) / 100;
      for (const product of found.products) {
        const { width, height, length } = product.dimensions;
        goods.push({
          weight: product.weight ?? undefined,
          dimensions: width && height && length ? { width, height, length } : undefined,
          priceDeclared: product.priceDeclared ?? undefined,
          priceCod: product.priceCod === null ? undefined : Math.round(product.priceCod * keep * 100) / 100,
          count: product.count * kitCount,
        });
      }
    }
    return goods;
  }

  async calculate(
    scope: Scope,
    shop: Shop | null,
    body: CalculatorBody,
    options: CalculationOptions = {},
  ): Promise<CalculatorResult> {
    const found = await this.options(scope, shop, body, options);
    return { '1': found['1'].map(toModel), '2': found['2'].map(toModel), '3': found['3'].map(toModel) };
  }

  /**
   * The same answer as `calculate`, as JSON text: the unchanging part of every pickup point is
   * serialised once per process, so a big city's hundreds of points cost a string join.
   */
  async calculateJson(
    scope: Scope,
    shop: Shop | null,
    body: CalculatorBody,
    options: CalculationOptions = {},
  ): Promise<Answer> {
    const key = this.answers.enabled ? await this.answerKey(scope, shop, body, options) : null;
    const known = key === null ? undefined : this.answers.get(key);
    if (known) return known;
    let complete = true;
    const found = await this.options(scope, shop, body, {
      ...options,
      onCompanyFailed: (companyId, reason) => {
        complete = false;
        options.onCompanyFailed?.(companyId, reason);
      },
    });
    const answer = this.json.answer(found);
    if (key !== null && complete) this.answers.set(key, answer);
    return answer;
  }

  /** Everything an answer depends on, or null when it must not be reused (a company over HTTP may answer differently). */
  private async answerKey(
    scope: Scope,
    shop: Shop | null,
    body: CalculatorBody,
    options: CalculationOptions,
  ): Promise<string | null> {
    if ((await this.reference.registry.companiesOf(scope.accountId)).some(({ driver }) => driver.code !== 'tariff'))
      return null;
    // kits named by id change with the catalogue
    if (body.kits?.some((kit) => kit.id !== undefined)) return null;
    const widget =
      shop && (body.applyWidgetSettings || body.applyDefaultDimensions)
        ? await this.widgetSettings.forShop(scope, shop.id)
        : null;
    const warehouse = shop ? this.warehouseKey(shop) : null;
    // a change to an own method bumps its version (every process hears of it through the read cache)
    const own = (await this.ownMethodsOf(scope)).map((method) => `${method.id}:${method.version}`).join(',');
    return JSON.stringify([
      this.reference.registry.generation,
      own,
      scope.accountId,
      todayIn(scope.timeZone),
      warehouse,
      widget,
      options.type ?? null,
      options.companyIds ?? null,
      options.pointId ?? null,
      options.dropOffChosenFor ?? null,
      body,
    ]);
  }

  /** What of the shop's warehouse an answer depends on, as text: written once per shop object (the read cache hands the same one until the shop changes). */
  private warehouseKey(shop: Shop): string {
    let key = this.warehouseKeys.get(shop);
    if (key === undefined) {
      const { address, holidays, pickupType, dropOffPoints } = shop.warehouse;
      key = JSON.stringify({ city: address.city, holidays, pickupType, dropOffPoints });
      this.warehouseKeys.set(shop, key);
    }
    return key;
  }

  /** One option as JSON text (calculator/one), or `[]`. */
  async calculateOneJson(
    scope: Scope,
    shop: Shop | null,
    body: CalculatorBody,
    type: DeliveryType,
    companyId: number | string,
    onCompanyFailed?: CalculationOptions['onCompanyFailed'],
  ): Promise<string> {
    const found = await this.options(scope, shop, body, { type, companyIds: [companyId], onCompanyFailed });
    const option = found[String(type) as '1' | '2' | '3'][0];
    return option ? this.json.optionJson(option) : '[]';
  }

  private async options(
    scope: Scope,
    shop: Shop | null,
    body: CalculatorBody,
    options: CalculationOptions,
  ): Promise<Record<'1' | '2' | '3', CompanyOption[]>> {
    const result: Record<'1' | '2' | '3', CompanyOption[]> = { '1': [], '2': [], '3': [] };
    const context = await this.context(scope, shop, body, options.widget);
    if (!context) return result;

    const type = options.type ?? (body.type as DeliveryType | undefined);
    const wantedIds = options.companyIds ?? body.companyIds;
    const hidden = new Set(context.widget?.hiddenCompanyIds ?? []);
    const ownMethodOptions = ownOptions(await this.ownMethodsOf(scope), context, type, wantedIds, (days) =>
      this.dates(context, days),
    );
    const eligible = (await this.reference.registry.companiesOf(scope.accountId)).filter(({ company }) => {
      if (wantedIds && !wantedIds.includes(company.id)) return false;
      if (hidden.has(company.id)) return false;
      if (type !== undefined && !company.deliveryTypes.includes(type)) return false;
      if (context.pickupType === 1 && company.pickup && !company.pickup.dropOff) return false;
      if (context.pickupType === 4 && company.pickup && !company.pickup.direct) return false;
      // its orders would wait for a drop-off point that does not exist (orders/drop-off.ts): offer only what can be shipped
      if (
        context.pickupType === 1 &&
        company.pickup?.pickupPointRequired &&
        !context.dropOffChosen.has(company.id) &&
        options.dropOffChosenFor !== company.id &&
        this.reference.registry.pointsIn(company.id, context.sender.id).length === 0
      )
        return false;
      return true;
    });

    const request: QuoteRequest = {
      types: type ? [type] : [1, 2, 3],
      sender: place(context.sender),
      recipient: place(context.recipient),
      distanceKm: distanceKm(
        context.sender.latitude,
        context.sender.longitude,
        context.recipient.latitude,
        context.recipient.longitude,
      ),
      cargo: context.cargo,
      priceMode: context.priceMode,
      declaredKopecks: context.money.declaredKopecks,
      codKopecks: context.money.codKopecks + context.money.clientPriceKopecks,
    };
    const requestOf = (entry: RegisteredCompany): QuoteRequest => {
      const pointCode =
        request.types.includes(1) || options.pointId !== undefined
          ? this.pointCodeFor(entry, context, options.pointId)
          : undefined;
      if (pointCode === undefined) return request;
      // the chosen point's kind: companies with a tariff per kind (CDEK office or locker) price that one
      const chosen = options.pointId === undefined ? undefined : this.reference.registry.point(options.pointId);
      return chosen?.companyId === entry.company.id
        ? { ...request, pointCode, pointType: chosen.type }
        : { ...request, pointCode };
    };
    const quotes = await quoteAll(
      eligible,
      requestOf,
      body.timeout ?? DEFAULT_TIMEOUT_MS,
      options.onCompanyFailed,
      this.observer,
    );

    for (const { entry, quotes: companyQuotes } of quotes) {
      for (const quote of companyQuotes) {
        if (type !== undefined && quote.type !== type) continue;
        if (!entry.company.deliveryTypes.includes(quote.type)) continue;
        const item = this.present(entry, quote, context, options.pointId);
        if (item) result[String(quote.type) as '1' | '2' | '3'].push(item);
      }
    }
    for (const option of ownMethodOptions)
      result[String(option.company.points ? 1 : option.company.isPost ? 3 : 2) as '1' | '2' | '3'].push(option);
    if (body.onlyCheap) for (const key of ['1', '2', '3'] as const) result[key] = cheapest(result[key]);
    return result;
  }

  /** One company, one type (and one point for pickup points): what orders charge. Null when it cannot deliver. */
  async quoteOne(
    scope: Scope,
    shop: Shop | null,
    request: DeliveryQuoteRequest,
    onCompanyFailed?: CalculationOptions['onCompanyFailed'],
  ): Promise<OrderQuote | null> {
    // a pickup point, or the post office a post order names (companies price to it: Russian Post's index-to)
    const pointId =
      (request.deliveryType === 1 || request.deliveryType === 3) && request.pointId ? request.pointId : undefined;
    const dropOffChosenFor =
      request.dropOffPointId && typeof request.companyId === 'number' ? request.companyId : undefined;
    // read once for the quote's context and for the free-delivery threshold
    const widget =
      shop && (request.applyWidgetSettings || request.applyDefaultDimensions)
        ? await this.widgetSettings.forShop(scope, shop.id)
        : undefined;
    const result = await this.calculate(
      scope,
      shop,
      { ...request, onlyCheap: false },
      {
        type: request.deliveryType,
        companyIds: [request.companyId],
        onCompanyFailed,
        pointId,
        dropOffChosenFor,
        widget,
      },
    );
    const company = result[String(request.deliveryType) as '1' | '2' | '3'][0];
    if (!company) return null;
    let chosen: DeliveryCompanyResult = company;
    if (request.deliveryType === 1 && request.pointId) {
      const points = (company.points ?? []).filter(
        (point) => (typeof point === 'number' ? point : point.id) === request.pointId,
      );
      if (!points.length) return null;
      chosen = { ...company, points };
    }
    return { ...chosen, deliveryCostThresholds: await this.thresholds(scope, shop, request, chosen, widget) };
  }

  /**
   * The shop's free-delivery threshold as the order shows it: `threshold` the widget's
   * free-delivery-from sum, `deliveryCost` what the customer is charged below it (the widget
   * rules without the free-delivery step). Both null unless the order applies widget settings
   * and the shop has such a threshold.
   */
  private async thresholds(
    scope: Scope,
    shop: Shop | null,
    request: DeliveryQuoteRequest,
    option: DeliveryCompanyResult,
    known?: WidgetSettingsFull,
  ): Promise<OrderQuote['deliveryCostThresholds']> {
    const none = { deliveryCost: null, threshold: null };
    if (!shop || !request.applyWidgetSettings) return none;
    const widget = known ?? (await this.widgetSettings.forShop(scope, shop.id));
    if (widget.freeDeliveryFrom === null) return none;
    const point = option.points?.find((item): item is CalculatorPoint => typeof item !== 'number');
    // the same commission the option's totalPrice assumed: cash where taken, else card
    const cash = point ? point.cashPaymentAvailable : (option.cashPaymentAvailable ?? true);
    const cost = deliveryCostKopecks(
      {
        priceDelivery: point ? point.priceDelivery : (option.priceDelivery ?? 0),
        requiredServices: Object.values(option.services).filter((service) => service.required),
        priceCommissionDeclared: option.priceCommissionDeclared,
        priceCommissionCod: point ? point.priceCommissionCod : option.priceCommissionCod,
        priceCommissionCodCard: option.priceCommissionCodCard,
        priceCommissionAcquiring: option.priceCommissionAcquiring,
      },
      cash ? 'cash' : 'card',
    );
    const belowThreshold = applyPriceRules(
      cost,
      { ...priceRulesOf(widget), freeDeliveryFromKopecks: null },
      {
        type: request.deliveryType,
        companyId: typeof request.companyId === 'number' ? request.companyId : 0,
        orderKopecks: 0,
      },
    );
    return { deliveryCost: toRoubles(belowThreshold), threshold: widget.freeDeliveryFrom };
  }

  /** Which companies can deliver to a place at all (calculator/company). */
  async companiesFor(
    scope: Scope,
    shop: Shop,
    body: CompanyBody,
  ): Promise<Record<'1' | '2' | '3', Array<number | string>>> {
    const answer: Record<'1' | '2' | '3', Array<number | string>> = { '1': [], '2': [], '3': [] };
    const reception = body.reception ?? {};
    const recipient = this.reference.localities.find({
      countryCode: reception.countryCode,
      fias: reception.cityFias,
      name: reception.cityName ?? (reception.addressString ? localityOfAddress(reception.addressString) : undefined),
      region: reception.region,
      zipCode: reception.zipCode,
    });
    if (!recipient) return answer;
    const sender = this.reference.localities.find({
      countryCode: shop.warehouse.address.city.countryCode,
      fias: shop.warehouse.address.city.fias ?? undefined,
      name: shop.warehouse.address.city.name,
      region: shop.warehouse.address.city.region ?? undefined,
    });
    const hidden = new Set(
      body.applyWidgetSettings ? (await this.widgetSettings.forShop(scope, shop.id)).hiddenCompanyIds : [],
    );
    for (const { company } of this.reference.registry.all()) {
      if (hidden.has(company.id)) continue;
      if (company.coverage.minPopulation > recipient.population) continue;
      if (company.coverage.regions && !company.coverage.regions.includes(recipient.regionCode)) continue;
      for (const type of company.deliveryTypes) {
        if (body.type !== undefined && body.type !== type) continue;
        if (type === 1 && company.points && this.reference.registry.pointsIn(company.id, recipient.id).length === 0)
          continue;
        answer[String(type) as '1' | '2' | '3'].push(company.id);
      }
    }
    for (const method of await this.ownMethodsOf(scope)) {
      if (body.type !== undefined && body.type !== method.type) continue;
      if (!sender || !serves(method, placeOf(recipient), placeOf(sender))) continue;
      if (method.type === 1 && pointsNear(method, recipient).length === 0) continue;
      answer[String(method.type) as '1' | '2' | '3'].push(ownMethodId(method.accountId, method.id));
    }
    return answer;
  }

  private async context(
    scope: Scope,
    shop: Shop | null,
    body: CalculatorBody,
    known?: WidgetSettingsFull,
  ): Promise<Context | null> {
    const problems = new FieldErrorCollector();
    const localities = this.reference.localities;
    let sender: Locality | undefined;
    let pickupType: number;
    let holidays: string[] = [];
    const dropOffChosen = new Set<number>();
    if (shop) {
      for (const { companyId, pointId } of shop.warehouse.dropOffPoints)
        if (this.reference.registry.point(pointId)?.companyId === companyId) dropOffChosen.add(companyId);
      const city = shop.warehouse.address.city;
      sender = localities.find({
        countryCode: city.countryCode,
        fias: city.fias,
        name: city.name,
        region: city.region,
      });
      pickupType = body.pickupType ?? shop.warehouse.pickupType;
      holidays = shop.warehouse.holidays;
      if (!sender) {
        throw new AppError(
          422,
          'unknown_sender_locality',
          `The locality of the shop's warehouse (${city.name}) is not one we deliver from.`,
          [{ field: 'Shop-Id', message: 'its warehouse is in a locality we do not know' }],
        );
      }
    } else {
      const from = body.sender ?? {};
      if (!from.cityFias && !from.cityName && !from.zipCode)
        problems.add('sender.cityName', 'is required when no Shop-Id is sent (or sender.cityFias, or sender.zipCode)');
      if (body.pickupType === undefined) problems.add('pickupType', 'is required when no Shop-Id is sent');
      problems.throwIfAny();
      sender = localities.find({
        countryCode: from.countryCode,
        fias: from.cityFias,
        name: from.cityName,
        region: from.region,
        zipCode: from.zipCode,
      });
      if (!sender)
        throw new AppError(400, 'unknown_locality', 'The sender locality was not found.', [
          { field: 'sender.cityName', message: 'is not a known locality' },
        ]);
      pickupType = body.pickupType as number;
    }
    const to = body.reception ?? {};
    if (!to.cityFias && !to.cityName && !to.zipCode) {
      throw new AppError(
        400,
        'validation_failed',
        'reception: give the recipient locality (cityFias, cityName or zipCode).',
        [{ field: 'reception.cityName', message: 'is required (or reception.cityFias, or reception.zipCode)' }],
      );
    }
    const recipient = localities.find({
      countryCode: to.countryCode,
      fias: to.cityFias,
      name: to.cityName,
      region: to.region,
      zipCode: to.zipCode,
    });
    if (!recipient) return null;

    const widget =
      shop && (body.applyWidgetSettings || body.applyDefaultDimensions)
        ? (known ?? (await this.widgetSettings.forShop(scope, shop.id)))
        : null;
    const defaults =
      widget && body.applyDefaultDimensions
        ? {
            weightGrams: widget.defaultWeight === null ? null : Math.round(widget.defaultWeight * 1000),
            sides: widget.defaultDimensions
              ? ([
                  widget.defaultDimensions.width,
                  widget.defaultDimensions.height,
                  widget.defaultDimensions.length,
                ].sort((a, b) => b - a) as [number, number, number])
              : null,
          }
        : null;
    const kits = body.kits?.length ? await this.expandKits(scope, body.kits) : [];
    const cargo = buildCargo({ ...body, kits }, defaults);

    const goods: GoodsItem[] = [...(body.products ?? []), ...kits];
    const goodsDeclared = goods.reduce((sum, item) => sum + toKopecks(item.priceDeclared ?? 0) * (item.count ?? 1), 0);
    const goodsCod = goods.reduce(
      (sum, item) =>
        sum + Math.max(0, toKopecks(item.priceCod ?? 0) - toKopecks(item.discount ?? 0)) * (item.count ?? 1),
      0,
    );
    const marketplace =
      body.marketplace && (body.marketplace.id || body.marketplace.fbo || body.marketplace.fbs)
        ? body.marketplace
        : null;
    const declaredKopecks =
      body.calcDeclared === false
        ? 0
        : body.priceDeclared !== undefined
          ? toKopecks(body.priceDeclared)
          : goodsDeclared;
    const codBase = body.priceCod !== undefined ? toKopecks(body.priceCod) : goodsCod;
    const codKopecks = body.calcCod === false || marketplace ? 0 : Math.max(0, codBase - toKopecks(body.discount ?? 0));
    const required = new Set(body.servicesRequired ?? []);
    if (marketplace?.fbo) required.add(MARKETPLACE_SUPPLY_SERVICE);
    const shown = new Set([
      ...(body.services ?? []),
      ...(body.applyWidgetSettings && widget ? widget.defaultServices : []),
    ]);

    return {
      sender,
      recipient,
      holidays: new Set(holidays),
      today: todayIn(scope.timeZone),
      pickupType,
      dropOffChosen,
      cargo,
      priceMode: (body.priceMode ?? 1) as PriceMode,
      money: {
        declaredKopecks,
        codKopecks,
        clientPriceKopecks: marketplace ? 0 : toKopecks(body.priceClient ?? 0),
        prePayKopecks: toKopecks(body.pricePrePayClient ?? 0),
      },
      orderKopecks: Math.max(
        0,
        (body.priceDeclared !== undefined ? toKopecks(body.priceDeclared) : goodsDeclared) -
          toKopecks(body.discount ?? 0),
      ),
      shown,
      required,
      widget: body.applyWidgetSettings ? widget : null,
      hidePointFullInfo: body.hidePointFullInfo === true,
    };
  }

  private present(
    entry: RegisteredCompany,
    quote: CarrierQuote,
    context: Context,
    onlyPointId?: number,
  ): CompanyOption | null {
    const { company, driver } = entry;
    const offered = new Map(quote.services.map((service) => [service.id, service.priceKopecks]));
    for (const id of context.required) if (!offered.has(id)) return null;

    const services: DeliveryCompanyResult['services'] = {};
    let requiredKopecks = 0;
    for (const id of new Set([...context.shown, ...context.required])) {
      const price = offered.get(id);
      if (price === undefined) continue;
      const required = context.required.has(id);
      if (required) requiredKopecks += price;
      services[String(id)] = { id, name: this.serviceName(id), price: toRoubles(price), checked: true, required };
    }

    const cashAvailable = company.cashPaymentAvailable ?? true;
    const cardAvailable = company.cardPaymentAvailable ?? true;
    if (context.money.codKopecks > 0 && !cashAvailable && !cardAvailable) return null;
    const commissions = commissionsOf(quote, context.money);
    const dates = this.dates(context, quote.days);
    const customerPrice = (kopecks: number) =>
      context.widget
        ? applyPriceRules(kopecks, priceRulesOf(context.widget), {
            type: quote.type,
            companyId: company.id,
            orderKopecks: context.orderKopecks,
          })
        : kopecks;

    const base: DeliveryCompanyResult = {
      deliveryCompanyId: company.id,
      deliveryCompanyName: company.name,
      deliveryCompanyLogo: company.logo,
      tariffName: quote.tariffName,
      pickupCompanyId: company.id,
      deliveryDriver: driver.code,
      deliveryDays: dates.deliveryDays,
      deliveryPlanDays: quote.days,
      deliveryDate: dates.deliveryDate,
      services,
      priceCommissionDeclared: toRoubles(commissions.declared),
      percentCommissionDeclared: quote.commissions.declared.percent,
      priceCommissionCod: toRoubles(commissions.codCash),
      percentCommissionCod: quote.commissions.codCash.percent,
      priceCommissionCodCard: toRoubles(commissions.codCard),
      percentCommissionCodCard: quote.commissions.codCard.percent,
      priceCommissionAcquiring: toRoubles(commissions.acquiring),
      percentCommissionAcquiring: quote.commissions.acquiring.percent,
      isPost: company.isPost === true,
      specificity: [],
    };

    if (quote.type !== 1) {
      base.cashPaymentAvailable = cashAvailable;
      base.cardPaymentAvailable = cardAvailable;
      base.priceDelivery = toRoubles(quote.priceDeliveryKopecks);
      base.totalPrice = toRoubles(
        customerPrice(totalKopecks(quote.priceDeliveryKopecks, requiredKopecks, commissions, cashAvailable)),
      );
      if (quote.type === 2) {
        base.isExpress = company.isExpress === true;
        base.timeSelectAvailable = company.timeSelectAvailable === true;
      }
      return { company: base, points: null, holdDays: 0, idsOnly: false };
    }

    const points =
      onlyPointId === undefined ? this.pointsFor(entry, context) : this.chosenPoint(entry, context, onlyPointId);
    if (points.length === 0) return null;
    const farDates = this.dates(context, {
      min: quote.days.min + FAR_EXTRA_DAYS,
      max: quote.days.max + FAR_EXTRA_DAYS,
    });
    // one price per kind of point, way of payment and distance, not one per point
    const prices = new Map<number, PointPrice>();
    const presented: PointOption[] = points.map(({ point, isFar }) => {
      const cash = point.cashPaymentAvailable;
      const key = point.type * 4 + (cash ? 2 : 0) + (isFar ? 1 : 0);
      let price = prices.get(key);
      if (!price) {
        const delivery = scaled(quote.priceDeliveryKopecks, quote.pointPriceFactors?.[point.type] ?? 1);
        price = {
          isFar,
          dates: isFar ? farDates : dates,
          deliveryKopecks: delivery,
          totalKopecks: customerPrice(totalKopecks(delivery, requiredKopecks, commissions, cash)),
          codKopecks: cash ? commissions.codCash : commissions.codCard,
        };
        prices.set(key, price);
      }
      return { point, price };
    });
    return { company: base, points: presented, holdDays: company.holdDays ?? 7, idsOnly: context.hidePointFullInfo };
  }

  /**
   * The imported point a per-point price is asked for: an order's chosen point itself;
   * otherwise, of the company's points in the recipient's locality that take this parcel,
   * the one nearest the locality's centre stands for them all (one call per company and
   * calculation, not one per point; a city has hundreds). None in the locality: undefined,
   * so such a company offers no type 1 there rather than a price for a far point. Post
   * offices (type 3) stand for no pickup point; one is named only when the order chose it.
   */
  private pointCodeFor(
    entry: RegisteredCompany,
    context: Context,
    chosenPointId: number | undefined,
  ): string | undefined {
    if (chosenPointId !== undefined) {
      const chosen = this.reference.registry.point(chosenPointId);
      return chosen?.companyId === entry.company.id ? chosen.code : undefined;
    }
    const { latitude, longitude } = context.recipient;
    let nearest: { code: string; km: number } | undefined;
    for (const point of this.reference.registry.pointsIn(entry.company.id, context.recipient.id)) {
      if (point.code === undefined || point.type === 3 || !pointTakes(point, context)) continue;
      const km = distanceKm(latitude, longitude, point.latitude, point.longitude);
      if (!nearest || km < nearest.km) nearest = { code: point.code, km };
    }
    return nearest?.code;
  }

  /**
   * What `pointsFor` gives of one chosen point (an order's), without testing every other point of the
   * locality: a local point that takes the parcel is offered as local whatever the others are.
   */
  private chosenPoint(
    entry: RegisteredCompany,
    context: Context,
    pointId: number,
  ): Array<{ point: DeliveryPoint; isFar: boolean }> {
    const local = this.reference.registry
      .pointsIn(entry.company.id, context.recipient.id)
      .find((point) => point.id === pointId);
    if (local) return pointTakes(local, context) ? [{ point: local, isFar: false }] : [];
    return this.pointsFor(entry, context).filter(({ point }) => point.id === pointId);
  }

  /** The company's points in the locality that take this parcel; else its nearest ones (isFar). */
  private pointsFor(entry: RegisteredCompany, context: Context): Array<{ point: DeliveryPoint; isFar: boolean }> {
    const accept = (point: DeliveryPoint) => pointTakes(point, context);
    const local = this.reference.registry.pointsIn(entry.company.id, context.recipient.id).filter(accept);
    if (local.length > 0) return local.map((point) => ({ point, isFar: false }));
    return this.reference.registry
      .nearestPoints(
        entry.company.id,
        context.recipient.latitude,
        context.recipient.longitude,
        FAR_POINTS,
        FAR_WITHIN_KM,
        accept,
      )
      .map((point) => ({ point, isFar: true }));
  }

  private dates(context: Context, days: { min: number; max: number }) {
    const calendar = this.calendar(context);
    const from = calendar(days.min);
    const to = calendar(days.max);
    return {
      deliveryDate: { from: from.date, to: to.date },
      deliveryDays: { min: from.calendarDays, max: to.calendarDays },
    };
  }

  /** The n-th working day from today for a calculation, remembered per day and set of holidays (every company asks). */
  private calendar(context: Context): (workingDays: number) => { date: string; calendarDays: number } {
    const key = `${context.today}|${[...context.holidays].sort().join(',')}`;
    let days = this.workingDays.get(key);
    if (!days) {
      days = [];
      if (this.workingDays.size >= 1000) this.workingDays.clear();
      this.workingDays.set(key, days);
    }
    const known = days;
    return (workingDays: number) => {
      while (known.length <= workingDays) {
        const date =
          known.length === 0
            ? addWorkingDays(context.today, 0, context.holidays)
            : addWorkingDays(known[known.length - 1].date, 1, context.holidays);
        known.push({ date, calendarDays: calendarDaysBetween(context.today, date) });
      }
      return known[workingDays];
    };
  }

  private serviceName(id: number): string {
    return this.reference.services.find((service) => service.id === id)?.name ?? `Service ${id}`;
  }
}

/** "Россия, г Москва" / "Москва, ул. ..." -> the locality part of a one-line address. */
function localityOfAddress(address: string): string {
  const parts = address
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  const withType = parts.find((part) => /^(г|город|пгт|с|пос|д|рп)\.?\s/iu.test(part));
  if (withType) return withType;
  const noCountry = parts.filter((part) => !/^(россия|russia|рф|ru)$/iu.test(part) && !/^\d{6}$/.test(part));
  return noCountry[0] ?? address;
}

/** Every company asked at once; those failing or missing the deadline are left out, never failing the call. */
async function quoteAll(
  entries: RegisteredCompany[],
  requestOf: (entry: RegisteredCompany) => QuoteRequest,
  timeoutMs: number,
  onFailed: CalculationOptions['onCompanyFailed'],
  observer: CompanyQuoteObserver | null,
): Promise<Array<{ entry: RegisteredCompany; quotes: CarrierQuote[] }>> {
  const controller = new AbortController();
  // a company's "retry after" that would outlast this is not waited for (remote-call.ts)
  markDeadline(controller.signal, Date.now() + timeoutMs);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => {
      controller.abort(new Error(`no answer within ${timeoutMs} ms`));
      resolve('timeout');
    }, timeoutMs);
  });
  try {
    const answers = await Promise.all(
      entries.map(async (entry) => {
        const started = performance.now();
        const observed = (outcome: CompanyQuoteOutcome) =>
          observer?.companyQuoted(entry.company.id, (performance.now() - started) / 1000, outcome);
        try {
          const outcome = await Promise.race([entry.driver.quote(requestOf(entry), controller.signal), deadline]);
          if (outcome === 'timeout') {
            observed('timeout');
            onFailed?.(entry.company.id, `no answer within ${timeoutMs} ms`);
            return { entry, quotes: [] };
          }
          observed('ok');
          return { entry, quotes: outcome };
        } catch (error) {
          observed(controller.signal.aborted ? 'timeout' : 'error');
          onFailed?.(
            entry.company.id,
            controller.signal.aborted ? `no answer within ${timeoutMs} ms` : (error as Error).message,
          );
          return { entry, quotes: [] };
        }
      }),
    );
    return answers;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The calculator: one call prices a parcel across every eligible delivery company,
 * concurrently under one deadline. Other modules (orders) call `quoteOne`. This file chooses
 * the companies, builds their request and shapes the answers (the model, JSON text, an
 * order's quote, which companies deliver); what a call is about is read by
 * calculation-context.ts, the companies are asked by company-quotes.ts, and each quote
 * becomes the buyer's option in option-pricing.ts.
 */
import type { Scope } from '../../platform/auth.js';
import { todayIn } from '../../platform/clock.js';
import { toRoubles } from '../../platform/money.js';
import { distanceKm } from '../../carriers/geo.js';
import type { RegisteredCompany } from '../../carriers/registry.js';
import type { DeliveryType, QuoteRequest } from '../../carriers/types.js';
import type { DeliveryPromiseService } from '../delivery-promises/service.js';
import type { ReferenceData } from '../companies/reference.js';
import type { Shop } from '../shops/schemas.js';
import { AnswerCache, type Answer } from './answer-cache.js';
import {
  CalculationContexts,
  type ExplainRequest,
  type KitLookup,
  type ShippingRulesSource,
} from './calculation-context.js';
import { applyMarks } from './option-rules.js';
import type { CompiledRules } from './shipping-rules.js';
import type { ExplainAnswer } from './shipping-rules-schemas.js';
import { wallClockNow } from '../../platform/clock.js';
import { quoteAll, type CompanyQuoteObserver } from './company-quotes.js';
import { applyPriceRules, deliveryCostKopecks } from './rules.js';
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
import { OptionPricing } from './option-pricing.js';
import { ownOptions } from './own-options.js';
import { exactPosition, type Position } from '../addresses/register-check.js';
import { cheapest, place, placeOf, priceRulesOf, toModel, type CompanyOption } from './present.js';

/** The widget area filters its map's points as the calculator does. */
export { pointTakes } from './present.js';
export type { KitLookup, ShippingRulesSource } from './calculation-context.js';
export type { CompanyQuoteObserver, CompanyQuoteOutcome } from './company-quotes.js';
import { ownMethodId, pointsNear, serves, type OwnMethod } from '../delivery-methods/rules.js';

export const DEFAULT_TIMEOUT_MS = 20000;

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
  /** Explain: record every offer the rules see (and try these rules instead of the saved ones). */
  explain?: ExplainRequest;
  /**
   * Where the register placed the recipient's house (an order's courier address): own methods'
   * radius is then measured from the shop's warehouse's house to it, where the warehouse's is known too.
   */
  recipientPosition?: Position;
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
  /** Where the register placed the recipient's house (a courier order's `deliveryAddress.register`), when it did. */
  recipientPosition?: Position | null;
}

/** What the calculator needs of the account's own delivery methods (delivery-methods area). */
export interface OwnMethodSource {
  methodsOf(accountId: number): Promise<OwnMethod[]>;
}

export class CalculatorService {
  /** The fast JSON path's point pieces, made once per process. */
  private readonly json = new JsonAnswers();
  private readonly answers: AnswerCache;
  private readonly contexts: CalculationContexts;
  private readonly pricing: OptionPricing;
  private readonly warehouseKeys = new WeakMap<Shop, string>();
  private readonly observer: CompanyQuoteObserver | null;
  private readonly ownMethods: OwnMethodSource | null;
  private readonly shippingRules: ShippingRulesSource | null;

  constructor(
    private readonly reference: ReferenceData,
    private readonly widgetSettings: WidgetSettingsService,
    options: {
      cacheSeconds?: number;
      /** At most this many bytes of remembered answers (CACHE_MB's quarter). */
      cacheBytes?: number;
      kits?: KitLookup;
      observer?: CompanyQuoteObserver;
      ownMethods?: OwnMethodSource;
      shippingRules?: ShippingRulesSource;
      /** Delivery promises on every option (modules/delivery-promises). */
      promises?: Pick<DeliveryPromiseService, 'promiseFor'>;
    } = {},
  ) {
    this.answers = new AnswerCache((options.cacheSeconds ?? 0) * 1000, options.cacheBytes);
    this.shippingRules = options.shippingRules ?? null;
    this.contexts = new CalculationContexts(reference, widgetSettings, options.kits ?? null, this.shippingRules);
    this.pricing = new OptionPricing(reference, options.promises);
    this.observer = options.observer ?? null;
    this.ownMethods = options.ownMethods ?? null;
  }

  private async ownMethodsOf(scope: Scope): Promise<OwnMethod[]> {
    return this.ownMethods ? this.ownMethods.methodsOf(scope.accountId) : [];
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

  /** Why the recipient's locality cannot be placed (a sentence), or null when the directory knows it. */
  unknownRecipient(body: Pick<CalculatorBody, 'reception'>): string | null {
    return this.contexts.unknownRecipient(body);
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
    // a change of the shop's rules makes a new version: an answer of the old one is never served again
    const rules =
      shop && body.applyWidgetSettings && this.shippingRules
        ? await this.shippingRules.forShop(scope.accountId, shop.id)
        : null;
    const rulesKey = rules
      ? rules.usesHour
        ? `${rules.version}@${wallClockNow(scope.timeZone).slice(11, 13)}`
        : rules.version
      : 0;
    // a change to an own method bumps its version (every process hears of it through the read cache)
    const own = (await this.ownMethodsOf(scope)).map((method) => `${method.id}:${method.version}`).join(',');
    return JSON.stringify([
      this.reference.registry.generation,
      own,
      scope.accountId,
      todayIn(scope.timeZone),
      warehouse,
      widget,
      rulesKey,
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
    const context = await this.contexts.of(scope, shop, body, options.widget, options.explain);
    if (!context) return result;

    const type = options.type ?? (body.type as DeliveryType | undefined);
    const wantedIds = options.companyIds ?? body.companyIds;
    const hidden = new Set(context.widget?.hiddenCompanyIds ?? []);
    // the warehouse's house is in the shop already read: no query of its own
    const exact =
      options.recipientPosition && shop
        ? { sender: exactPosition(shop.warehouse.address.register), recipient: options.recipientPosition }
        : null;
    const ownMethodOptions = ownOptions(
      await this.ownMethodsOf(scope),
      context,
      type,
      wantedIds,
      (days) => this.pricing.dates(context, days),
      exact,
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
          ? this.pricing.pointCodeFor(entry, context, options.pointId)
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
        const item = this.pricing.present(entry, quote, context, options.pointId);
        if (item) result[String(quote.type) as '1' | '2' | '3'].push(item);
      }
    }
    for (const option of ownMethodOptions)
      result[String(option.company.points ? 1 : option.company.isPost ? 3 : 2) as '1' | '2' | '3'].push(option);
    if (context.rules) for (const key of ['1', '2', '3'] as const) result[key] = applyMarks(result[key]);
    if (body.onlyCheap) for (const key of ['1', '2', '3'] as const) result[key] = cheapest(result[key]);
    return result;
  }

  /**
   * A dry run of the shop's rules (or of `rules`, unsaved, as the dashboard edits them): every
   * offer the calculation priced, hidden ones too, with the rules that matched and each price
   * step. Widget settings apply (the rules come with them): the prices are those the calculator
   * answers with applyWidgetSettings.
   */
  async explain(
    scope: Scope,
    shop: Shop,
    body: CalculatorBody,
    rules: CompiledRules | undefined,
  ): Promise<ExplainAnswer> {
    const trace: ExplainRequest['trace'] = [];
    await this.options(scope, shop, { ...body, applyWidgetSettings: true }, { explain: { rules, trace } });
    const version = rules ? 0 : ((await this.shippingRules?.forShop(scope.accountId, shop.id))?.version ?? 0);
    return {
      version,
      offers: trace.map((offer) => ({
        deliveryType: offer.type,
        companyId: offer.companyId,
        companyName: offer.companyName,
        tariffName: offer.tariffName,
        pointKind: offer.pointKind,
        isFar: offer.isFar,
        basePrice: toRoubles(offer.baseKopecks),
        price: toRoubles(offer.outcome.priceKopecks),
        hidden: offer.outcome.hiddenBy !== null || offer.keptOutBy !== null,
        hiddenBy: offer.outcome.hiddenBy ?? offer.keptOutBy,
        deliveryDays: offer.deliveryDays,
        matched: offer.outcome.matched,
        steps: (offer.outcome.steps ?? []).map((step) => ({
          rule: step.rule,
          ruleName: step.ruleName,
          action: step.action,
          before: toRoubles(step.beforeKopecks),
          after: toRoubles(step.afterKopecks),
        })),
      })),
    };
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
        ...(request.recipientPosition ? { recipientPosition: request.recipientPosition } : {}),
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

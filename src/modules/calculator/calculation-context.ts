/**
 * What a calculation is about, read once from the call before any company is asked: the
 * sender's and the recipient's localities (from the shop's warehouse or the body), the cargo
 * (kits named by id taken from the catalogue, the shop's default sizes), the money on delivery
 * and the services shown or required. Apart from service.ts because it is the one part that
 * checks the caller's input and reads the shop's settings and catalogue; quoting then works
 * on the Context it makes and never looks at the body again.
 */
import type { Scope } from '../../platform/auth.js';
import { todayIn, wallClockNow } from '../../platform/clock.js';
import { distanceKm } from '../../carriers/geo.js';
import { AppError, FieldErrorCollector } from '../../platform/errors.js';
import { toKopecks } from '../../platform/money.js';
import type { PriceMode } from '../../carriers/types.js';
import type { ReferenceData } from '../companies/reference.js';
import type { Locality } from '../localities/source.js';
import type { Shop } from '../shops/schemas.js';
import { buildCargo } from './cargo.js';
import type { Context, TracedOffer } from './present.js';
import { bindRules, type CompiledRules, type RequestFacts } from './shipping-rules.js';
import type { CalculatorBody, WidgetSettingsFull } from './schemas.js';
import type { WidgetSettingsService } from './widget-settings.js';

const MARKETPLACE_SUPPLY_SERVICE = 19;

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

/** What the calculator needs of a shop's shipping rules (shipping-rule-sets.ts). */
export interface ShippingRulesSource {
  forShop(accountId: number, shopId: number): Promise<CompiledRules | null>;
}

/** Explain: rules to try instead of the saved ones (undefined: the saved ones), and where each offer is recorded. */
export interface ExplainRequest {
  rules?: CompiledRules;
  trace: TracedOffer[];
}

interface GoodsItem {
  vendorCode?: string;
  weight?: number;
  dimensions?: { width?: number; height?: number; length?: number };
  priceDeclared?: number;
  priceCod?: number;
  discount?: number;
  count?: number;
}

export class CalculationContexts {
  constructor(
    private readonly reference: ReferenceData,
    private readonly widgetSettings: WidgetSettingsService,
    private readonly kits: KitLookup | null,
    private readonly shippingRules: ShippingRulesSource | null = null,
  ) {}

  /**
   * Why the recipient cannot be placed, in a sentence, or null when the directory knows its
   * locality (or the request names none, which is refused on its own).
   */
  unknownRecipient(body: Pick<CalculatorBody, 'reception'>): string | null {
    const to = body.reception;
    if (!to || (!to.cityFias && !to.cityName && !to.zipCode)) return null;
    const found = this.reference.localities.find({
      countryCode: to.countryCode,
      fias: to.cityFias,
      name: to.cityName,
      region: to.region,
      zipCode: to.zipCode,
    });
    if (found) return null;
    const named = [to.cityName, to.region, to.zipCode, to.cityFias].filter(Boolean).join(', ');
    return `The recipient's locality (${named}) is not in the directory: no company delivers there, or it is spelt otherwise; look it up with GET /v2/lists/localities.`;
  }

  /** The context of a calculation; null when the recipient's locality is not one we know (no options, not an error). */
  async of(
    scope: Scope,
    shop: Shop | null,
    body: CalculatorBody,
    known?: WidgetSettingsFull,
    explain?: ExplainRequest,
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

    const money = {
      declaredKopecks,
      codKopecks,
      clientPriceKopecks: marketplace ? 0 : toKopecks(body.priceClient ?? 0),
      prePayKopecks: toKopecks(body.pricePrePayClient ?? 0),
    };
    const orderKopecks = Math.max(
      0,
      (body.priceDeclared !== undefined ? toKopecks(body.priceDeclared) : goodsDeclared) -
        toKopecks(body.discount ?? 0),
    );
    // the shop's rules come with its widget settings: a call that does not apply those sees neither
    const appliesRules = shop !== null && body.applyWidgetSettings === true && widget !== null;
    const compiled = !appliesRules
      ? null
      : explain
        ? (explain.rules ?? (await this.shippingRules?.forShop(scope.accountId, shop.id)) ?? null)
        : ((await this.shippingRules?.forShop(scope.accountId, shop.id)) ?? null);
    const rules =
      appliesRules && (compiled || explain)
        ? bindRules(
            widget,
            compiled,
            requestFacts(scope, body, { sender, recipient, cargo, goods, money, orderKopecks }),
          )
        : null;

    return {
      sender,
      recipient,
      holidays: new Set(holidays),
      today: todayIn(scope.timeZone),
      pickupType,
      dropOffChosen,
      cargo,
      priceMode: (body.priceMode ?? 1) as PriceMode,
      money,
      orderKopecks,
      shown,
      required,
      widget: body.applyWidgetSettings ? widget : null,
      hidePointFullInfo: body.hidePointFullInfo === true,
      rules,
      trace: rules && explain ? explain.trace : null,
    };
  }

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
}

/** What the rules' request conditions read, once per calculation. */
function requestFacts(
  scope: Scope,
  body: CalculatorBody,
  known: {
    sender: Locality;
    recipient: Locality;
    cargo: Context['cargo'];
    goods: GoodsItem[];
    money: Context['money'];
    orderKopecks: number;
  },
): RequestFacts {
  const { sender, recipient, cargo, goods, money } = known;
  let longestSideCm = 0;
  for (const place of cargo.places) if (place.sidesCm) longestSideCm = Math.max(longestSideCm, ...place.sidesCm);
  const vendorCodes = new Set<string>();
  let itemCount = 0;
  for (const item of goods) {
    if (item.vendorCode) vendorCodes.add(item.vendorCode);
    itemCount += item.count ?? 1;
  }
  // the clock in the account's time zone: "add a day on Fridays" is the shop's Friday
  const now = wallClockNow(scope.timeZone);
  const date = now.slice(0, 10);
  const collected = money.codKopecks + money.clientPriceKopecks > 0;
  return {
    cartKopecks: known.orderKopecks,
    weightGrams: cargo.weightGrams,
    longestSideCm,
    itemCount: itemCount || body.itemCount || cargo.places.length || 1,
    vendorCodes,
    regionCode: recipient.regionCode,
    localityFias: recipient.fias ?? null,
    localityName: recipient.name,
    distanceKm: distanceKm(sender.latitude, sender.longitude, recipient.latitude, recipient.longitude),
    // collected on delivery and the call did not say how: cash, as the totals assume where the company takes it
    payment: !collected ? 'prepaid' : body.paymentOnDelivery === 'card' ? 'card' : 'cash',
    weekday: ((new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7) + 1,
    hour: Number(now.slice(11, 13)),
    date,
    segment: body.segment ?? null,
  };
}

/**
 * The buyer's returns page: who may open what. A shop's signed page finds a delivered order by
 * its number and the recipient's phone (one answer for an unknown order and a wrong phone: a
 * number alone says nothing); an order's signed link opens that order under its shop only. The
 * page shows the order's goods that may still come back within the shop's window, the ways
 * back with their cost and who pays, and the returns already made with their code and QR code.
 */
import type BwipJs from 'bwip-js';
import { processScope } from '../../platform/auth.js';
import { identifyAuditCaller } from '../../platform/audit.js';
import { onFirstUse } from '../../platform/lazy-require.js';
import type { ReferenceData } from '../companies/reference.js';
import type { AccountZones } from '../orders/tracking.js';
import type { OrderService } from '../orders/service.js';
import type { ShopService } from '../shops/service.js';
import type { OrderPage, ReturnLinks, ShopPage } from './links.js';
import { RETURN_REASONS, unitPriceKopecks, type ReturnReason } from './rules.js';
import type { ReturnRequestInput, ReturnView } from './schemas.js';
import type { Delivered, ReturnOption, ReturnService } from './service.js';

const bwipjs = onFirstUse<typeof BwipJs>('bwip-js');

export type Lang = 'ru' | 'en';

export interface Brand {
  name: string;
  /** The accent colour (`#rrggbb`) of the shop's messages. */
  color: string;
  /** https only. */
  logoUrl: string | null;
}

/** The shop's colour and logo of its buyers' messages (modules/buyer-messages); absent: the service's own. */
export type BrandStyle = (
  accountId: number,
  shopId: number,
) => Promise<{ color: string; logoUrl: string | null } | null>;

export interface ShopPageView {
  lang: Lang;
  brand: Brand;
  /** Where the lookup form posts (the page's own address). */
  action: string;
  /** The refusal to show again (the lookup found nothing), else null. */
  notFound: boolean;
  number: string;
}

export interface PageLine {
  line: number;
  name: string;
  vendorCode: string | null;
  /** Roubles a unit. */
  price: number;
  returnable: number;
}

export interface PageReturn {
  view: ReturnView;
  companyName: string;
  point: { name: string; address: string } | null;
  /** The code as a QR code, SVG. */
  qrSvg: string;
}

export interface OrderPageView {
  lang: Lang;
  brand: Brand;
  orderNumber: string;
  /** The last day a return may be started (YYYY-MM-DD), or null when the order is not delivered. */
  lastDay: string | null;
  open: boolean;
  lines: PageLine[];
  options: ReturnOption[];
  /** The shop pays the way back when the reason is its fault (defect, wrong item...). */
  shopPaysFaults: boolean;
  reasons: readonly ReturnReason[];
  returns: PageReturn[];
  /** The page's own address (the form posts there). */
  action: string;
  shopUrl: string;
  /** A refusal of the last submission (no-script form), else null. */
  error: string | null;
}

/** The page's form as it arrives (a script's JSON or a plain form). */
export interface PageSubmission {
  lines?: Array<{ line: number; count: number; reason: ReturnReason; comment?: string | null }>;
  /** `way:companyId` */
  option?: string;
  /** The chosen point per option (`way-companyId` → point id). */
  point?: Record<string, string>;
  photos?: Array<{ data: string }>;
}

function phoneDigits(phone: string): string {
  return phone.replace(/\D/g, '').slice(-10);
}

export class ReturnPages {
  constructor(
    private readonly links: ReturnLinks,
    private readonly returns: ReturnService,
    private readonly orders: OrderService,
    private readonly shops: ShopService,
    private readonly accounts: AccountZones,
    private readonly reference: ReferenceData,
    private readonly brandStyle: BrandStyle = async () => null,
  ) {}

  private async brandOf(page: ShopPage): Promise<Brand | null> {
    const shop = (await this.shops.notificationSettingsOf(page.accountId, [page.shopId])).get(page.shopId);
    if (!shop) return null;
    const style = await this.brandStyle(page.accountId, page.shopId).catch(() => null);
    return {
      name: shop.brand || shop.name,
      color: style?.color && /^#[0-9a-fA-F]{6}$/.test(style.color) ? style.color : '#2457c5',
      logoUrl: style?.logoUrl?.startsWith('https://') ? style.logoUrl : null,
    };
  }

  /** The lookup page of a shop's signed link; null when the link names no shop. */
  async shopPage(
    token: string,
    lang: Lang,
    lookup?: { number: string; notFound: boolean },
  ): Promise<ShopPageView | null> {
    const page = this.links.readShop(token);
    const brand = page && (await this.brandOf(page));
    if (!page || !brand) return null;
    return {
      lang,
      brand,
      action: `/site/returns/${token}`,
      notFound: lookup?.notFound ?? false,
      number: lookup?.number ?? '',
    };
  }

  /** The order page a number and phone open, or null: unknown, another shop's, a wrong phone, a return parcel (one answer). */
  async lookup(token: string, number: string, phone: string): Promise<string | null> {
    const page = this.links.readShop(token);
    if (!page) return null;
    const wanted = phoneDigits(phone);
    const order = number.trim()
      ? await this.orders.returnParcels.byShopNumber(page.accountId, page.shopId, number.trim())
      : null;
    const phones = order ? [order.recipient.phone, order.recipient.additionalPhone ?? ''].map(phoneDigits) : [];
    if (!order || wanted.length < 10 || !phones.includes(wanted)) return null;
    return this.links.orderUrl({ ...page, orderId: order.id });
  }

  /** The order a pair of tokens opens: of that shop, not a return parcel; null otherwise. */
  /** Whether the order's link is one we signed: an HMAC, no database (checked before a submission's body is read). */
  isSignedOrderLink(shopToken: string, orderToken: string): boolean {
    const shop = this.links.readShop(shopToken);
    return shop !== null && this.links.readOrder(shop, orderToken) !== null;
  }

  private async opened(shopToken: string, orderToken: string): Promise<{ page: OrderPage; order: Delivered } | null> {
    const shop = this.links.readShop(shopToken);
    const page = shop && this.links.readOrder(shop, orderToken);
    if (!page) return null;
    const order = await this.orders.returnParcels.recordOf(page.accountId, page.orderId);
    if (!order || order.shopId !== page.shopId || order.returnOf) return null;
    return { page, order };
  }

  async orderPage(
    shopToken: string,
    orderToken: string,
    lang: Lang,
    error: string | null = null,
  ): Promise<OrderPageView | null> {
    const opened = await this.opened(shopToken, orderToken);
    if (!opened) return null;
    const { page, order } = opened;
    const brand = await this.brandOf(page);
    if (!brand) return null;
    const timeZone = await this.accounts.timeZoneOf(page.accountId);
    const settings = await this.returns.settingsFor(page.accountId, page.shopId, order);
    const window = this.returns.window(order, settings, timeZone);
    const open = settings.enabled && window.open;
    const left = await this.returns.returnable(page.accountId, order);
    const lines: PageLine[] = order.products.map((product, line) => ({
      line,
      name: product.name ?? product.vendorCode ?? `#${line + 1}`,
      vendorCode: product.vendorCode,
      price:
        unitPriceKopecks({
          id: product.id,
          name: product.name,
          vendorCode: product.vendorCode,
          count: product.count,
          priceCod: product.priceCod ?? 0,
          discount: product.discount ?? 0,
          priceDeclared: product.priceDeclared ?? 0,
        }) / 100,
      returnable: open ? left[line] : 0,
    }));
    const some = lines.filter((line) => line.returnable > 0);
    // priced for the goods that may still come back: the price of what is chosen is given with the return's code
    const options =
      some.length > 0
        ? await this.returns.options(
            processScope(page.accountId, timeZone),
            order,
            settings,
            some.map((line) => ({ line: line.line, count: line.returnable, reason: 'changed_mind' as const })),
          )
        : [];
    const returns: PageReturn[] = [];
    for (const view of await this.returns.ofOrder(page.accountId, order.id)) {
      const point = view.pointId === null ? undefined : this.reference.registry.point(view.pointId);
      returns.push({
        view,
        companyName: (await this.reference.registry.companyOf(page.accountId, view.companyId))?.company.name ?? '',
        point: point ? { name: point.name, address: point.address } : null,
        qrSvg: bwipjs().toSVG({ bcid: 'qrcode', text: view.code, scale: 3, paddingwidth: 2, paddingheight: 2 }),
      });
    }
    return {
      lang,
      brand,
      orderNumber: order.cmsId ?? String(order.id),
      lastDay: window.lastDay,
      open: open && some.length > 0,
      lines,
      options: options.filter((option) => option.cost !== null),
      shopPaysFaults: settings.payer === 'buyer_unless_fault',
      reasons: RETURN_REASONS,
      returns: returns.reverse(),
      action: `/site/returns/${shopToken}/${orderToken}`,
      shopUrl: `/site/returns/${shopToken}`,
      error,
    };
  }

  /**
   * The buyer's return: the form read into the same request the shop's API takes. Null when the
   * links open nothing; a refusal is an AppError (its message for the page).
   */
  async submit(shopToken: string, orderToken: string, form: PageSubmission, lang: Lang): Promise<ReturnView | null> {
    const opened = await this.opened(shopToken, orderToken);
    if (!opened) return null;
    // the signed link is the buyer's credential: the return is a change of the shop's account, by its buyer
    identifyAuditCaller({ actor: { kind: 'buyer', id: null }, accountId: opened.page.accountId });
    const [way, company] = (form.option ?? '').split(':');
    const companyId = Number(company);
    const pointId = Number(form.point?.[`${way}-${company}`]);
    const request: ReturnRequestInput = {
      lines: (form.lines ?? []).filter((line) => line.count > 0),
      way: way as ReturnRequestInput['way'],
      companyId: Number.isSafeInteger(companyId) ? companyId : 0,
      pointId: way !== 'courier' && Number.isSafeInteger(pointId) && pointId > 0 ? pointId : null,
      photos: form.photos ?? [],
    };
    const timeZone = await this.accounts.timeZoneOf(opened.page.accountId);
    return this.returns.requestByBuyer(opened.page.accountId, timeZone, opened.order, request, lang);
  }
}

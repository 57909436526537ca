/**
 * The widget era's `SafeRouteCartWidget(containerId, options)` on top of our widget, for shop
 * plugins that cannot change: `on(event, handler)`, `destruct()`, the events start, change,
 * select (with onlyDeliverySelect), done and error, with the data the plugins read
 * (docs/widget-era.md of the spec, sections 1.3-1.7). The publishable key comes from this
 * script's own URL (`saferoute-compat.js?key=pk_…`): the plugins pass none, and their proxy
 * (`apiScript`) is not used. `done` gives the selection token as `id` (and `checkoutSessId`,
 * also set as the SR_checkoutSessId cookie); the plugin's `update-order` call then makes the order.
 */
import { Widget, type WidgetOptions } from './index.js';
import type { CourierAddress } from './address-suggest.js';
import type { Option, Point, Selection } from './api.js';

interface LegacyProduct {
  name?: string;
  vendorCode?: string;
  price?: number | string;
  discount?: number | string;
  count?: number | string;
  width?: number | string;
  height?: number | string;
  length?: number | string;
  weight?: number | string;
}

interface LegacyOptions {
  apiScript?: string;
  products?: LegacyProduct[];
  weight?: number | string | null;
  discount?: number | string;
  lang?: string;
  regionName?: string;
  fias?: string;
  userFullName?: string;
  userPhone?: string;
  userEmail?: string;
  nppOption?: boolean;
  onlyDeliverySelect?: boolean;
  deliveryType?: 1 | 2;
}

type Handler = (data: unknown) => void;

const script = document.currentScript as HTMLScriptElement | null;
const KEY = script?.src ? (new URL(script.src).searchParams.get('key') ?? '') : '';
const TILES = script?.src ? new URL(script.src).searchParams.get('tiles') : null;

const number = (value: unknown): number | undefined => {
  const parsed = typeof value === 'string' ? Number(value.replace(',', '.')) : typeof value === 'number' ? value : NaN;
  return Number.isFinite(parsed) && parsed > 0 ? parsed : undefined;
};

/** The widget-era product list: unit price less its discount; the cart's weight spread when goods have none. */
function products(options: LegacyOptions): WidgetOptions['products'] {
  const items = options.products ?? [];
  const count = items.reduce((sum, item) => sum + (number(item.count) ?? 1), 0) || 1;
  const spread = number(options.weight) ? (number(options.weight) as number) / count : undefined;
  return items.map((item) => ({
    name: item.name,
    vendorCode: item.vendorCode,
    price: Math.max(0, (number(item.price) ?? 0) - (number(item.discount) ?? 0)),
    count: Math.round(number(item.count) ?? 1),
    weight: number(item.weight) ?? spread,
    width: number(item.width),
    height: number(item.height),
    length: number(item.length),
  }));
}

/** Widget data as plugins read it (spec 1.6). */
function widgetData(
  selection: Selection & { choice?: Record<string, unknown> },
  city: { name: string; region: string; fias: string; type: string } | null,
): Record<string, unknown> {
  const quote = selection.quote as Option & { point: Point | null };
  const choice = (selection.choice ?? {}) as {
    contacts?: { fullName?: string; phone?: string; email?: string };
    address?: CourierAddress;
    courier?: { date?: string; intervalId?: number };
  };
  const cod = quote.cashPaymentAvailable || quote.cardPaymentAvailable;
  const house = [choice.address?.house, choice.address?.bulk && `к ${choice.address.bulk}`].filter(Boolean).join(' ');
  const address = [city?.name, choice.address?.street, house, choice.address?.flat].filter(Boolean).join(', ');
  return {
    city: city
      ? { name: city.name, region: city.region, countryIsoCode: 'RU', fias: city.fias, type: city.type }
      : null,
    contacts: {
      fullName: choice.contacts?.fullName ?? '',
      phone: choice.contacts?.phone ?? '',
      email: choice.contacts?.email ?? '',
      address: {
        street: choice.address?.street ?? '',
        building: choice.address?.house ?? '',
        // a house chosen from the suggestions fills the block and the postcode the era's widget left empty
        bulk: choice.address?.bulk ?? '',
        apartment: choice.address?.flat ?? '',
        zipCode: quote.mode === 3 ? (quote.point?.zipCode ?? '') : (choice.address?.zipCode ?? ''),
        // new: what the federal address register knows of the house chosen (absent when typed by hand)
        ...(choice.address?.fiasId ? { fiasId: choice.address.fiasId } : {}),
        ...(choice.address?.latitude !== undefined
          ? { latitude: choice.address.latitude, longitude: choice.address.longitude }
          : {}),
      },
    },
    delivery: {
      type: quote.mode,
      deliveryCompanyId: quote.companyId,
      deliveryCompanyName: quote.companyName,
      totalPrice: quote.totalPrice,
      priceCommissionCod: 0,
      priceCommissionCodCard: 0,
      deliveryDays: quote.deliveryDays.min,
      maxDeliveryDays: quote.deliveryDays.max,
      deliveryDate: quote.deliveryDate.to,
      cashPaymentAvailable: quote.cashPaymentAvailable,
      cardPaymentAvailable: quote.cardPaymentAvailable,
      CODAvailable: cod,
      nppDisabled: !cod,
      isMyDelivery: false,
      point: quote.point
        ? {
            id: quote.point.id,
            address: quote.point.address,
            zipCode: quote.point.zipCode,
            cashPaymentAvailable: quote.point.cashPaymentAvailable,
            cardPaymentAvailable: quote.point.cardPaymentAvailable,
          }
        : undefined,
    },
    deliveryDate: choice.courier?.date
      ? { date: choice.courier.date, time: { id: choice.courier.intervalId ?? null } }
      : null,
    payType: null,
    payTypeCommission: 0,
    comment: '',
    _meta: {
      widgetSettings: {},
      fullDeliveryAddress: quote.point ? quote.point.address : address,
      commonDeliveryData: `${quote.companyName}, ${quote.totalPrice} ₽`,
    },
  };
}

export class SafeRouteCartWidget {
  private readonly handlers = new Map<string, Set<Handler>>();
  private readonly widget: Widget;

  constructor(containerId: string, options: LegacyOptions = {}) {
    const host = document.getElementById(containerId);
    if (!host) throw new Error(`SafeRouteCartWidget: no element #${containerId}`);
    let city: { name: string; region: string; fias: string; type: string } | null = null;
    this.widget = new Widget(host, {
      publicKey: KEY,
      locale: options.lang === 'en' ? 'en' : 'ru',
      products: products(options),
      cod: options.nppOption === true,
      ...(options.deliveryType ? { modes: [options.deliveryType] } : {}),
      ...(options.regionName || options.fias
        ? { defaultLocation: { name: options.regionName, fias: options.fias } }
        : {}),
      map: TILES ? { tiles: TILES, attribution: '© OpenStreetMap' } : 'none',
      askContacts: true,
      contacts: { fullName: options.userFullName, phone: options.userPhone, email: options.userEmail },
    });
    this.widget.on('ready', () => this.emit('start', {}));
    this.widget.on('quote', (detail) => {
      city = (detail as { city: typeof city }).city;
    });
    this.widget.on('error', (detail) => this.emit('error', [detail]));
    this.widget.on('select', (detail) => {
      const selection = detail as Selection & { choice?: Record<string, unknown> };
      const data = widgetData(selection, city);
      this.emit('change', data);
      if (options.onlyDeliverySelect) return this.emit('select', data);
      // the widget era's hosted widget set this cookie on the shop's origin; plugins read it
      document.cookie = `SR_checkoutSessId=${encodeURIComponent(selection.token)}; path=/; max-age=3600; SameSite=Lax`;
      this.emit('done', { id: selection.token, confirmed: false, checkoutSessId: selection.token });
    });
  }

  on(event: string, handler: Handler): this {
    let set = this.handlers.get(event);
    if (!set) this.handlers.set(event, (set = new Set()));
    set.add(handler);
    return this;
  }

  destruct(): void {
    this.widget.destroy();
    this.handlers.clear();
  }

  private emit(event: string, data: unknown): void {
    for (const handler of this.handlers.get(event) ?? []) handler(data);
  }
}

(window as unknown as { SafeRouteCartWidget: typeof SafeRouteCartWidget }).SafeRouteCartWidget = SafeRouteCartWidget;

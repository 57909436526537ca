/**
 * The order form's text (what sessionStorage keeps) and what it becomes: the body of
 * POST/PUT /v2/orders, and the calculator's body for the live prices. Pure: tested without a browser.
 */
import type { CalculatorInput, OrderInput } from '../../../../clients/typescript/src/index';
import type { Order } from '../../api';

export interface GoodsLine {
  name: string;
  vendorCode: string;
  count: number;
  priceDeclared: number | null;
  priceCod: number | null;
  weight: number | null;
  width: number | null;
  height: number | null;
  length: number | null;
  /** The catalogue product the line was picked from (its id is sent; the typed fields override it). */
  productId?: number | null;
  barcode?: string;
}

/** One place (box) of the order: its own sizes and weight, as the contract's order `places` carry them. */
export interface PlaceSize {
  weight: number | null;
  width: number | null;
  height: number | null;
  length: number | null;
}

export const EMPTY_PLACE: PlaceSize = { weight: null, width: null, height: null, length: null };

/** A place with any size or weight given: only those make the body's `places` list. */
export function placeIsMeasured(place: PlaceSize): boolean {
  return [place.weight, place.width, place.height, place.length].some((value) => value !== null);
}

/** The product of the catalogue as an order line: its price, weight, sizes and first barcode. */
export function lineOfProduct(product: {
  id: number;
  name: string;
  vendorCode: string;
  priceDeclared: number | null;
  priceCod: number | null;
  weight: number | null;
  dimensions: { width?: number | null; height?: number | null; length?: number | null } | null;
  barcodes: string[];
}): GoodsLine {
  return {
    productId: product.id,
    name: product.name,
    vendorCode: product.vendorCode,
    count: 1,
    priceDeclared: product.priceDeclared,
    priceCod: product.priceCod,
    weight: product.weight,
    width: product.dimensions?.width ?? null,
    height: product.dimensions?.height ?? null,
    length: product.dimensions?.length ?? null,
    barcode: product.barcodes[0] ?? '',
  };
}

export interface DraftCity {
  name: string;
  fias: string;
  type: string;
  region: string;
  countryCode: string;
}

export interface ChosenOption {
  /** type:company:tariff, the radio's value */
  key: string;
  type: 1 | 2 | 3;
  companyId: number | string;
  tariff: string | null;
}

export interface OrderDraft {
  shopId: number | null;
  cmsId: string;
  fullName: string;
  phone: string;
  email: string;
  city: DraftCity | null;
  street: string;
  house: string;
  flat: string;
  /** The house picked from the address suggestions (sent as deliveryAddress.fiasId); absent or null when typed. */
  addressFiasId?: string | null;
  goods: GoodsLine[];
  places: number;
  /** Sizes per place; as many as `places` once the operator measures them (empty: a count only). */
  placeSizes?: PlaceSize[];
  option: ChosenOption | null;
  pointId: number | null;
  courierDate: string | null;
  courierTime: number | null;
  /**
   * The order's own declared value: the form asks it per item, on the goods' lines; this keeps
   * what an order made elsewhere carries (the service applies it only while no line has one).
   */
  priceDeclared: number | null;
  comment: string;
}

export const EMPTY_DRAFT: OrderDraft = {
  shopId: null,
  cmsId: '',
  fullName: '',
  phone: '',
  email: '',
  city: null,
  street: '',
  house: '',
  flat: '',
  goods: [
    {
      name: '',
      vendorCode: '',
      count: 1,
      priceDeclared: null,
      priceCod: null,
      weight: 1,
      width: 20,
      height: 10,
      length: 30,
    },
  ],
  places: 1,
  option: null,
  pointId: null,
  courierDate: null,
  courierTime: null,
  priceDeclared: null,
  comment: '',
};

/** The order's declared value as the service counts it: its lines' values times their counts, else the order's own. */
export function declaredValueOf(draft: Pick<OrderDraft, 'goods' | 'priceDeclared'>): number | null {
  const goods = draft.goods.reduce((sum, line) => sum + (line.priceDeclared ?? 0) * line.count, 0);
  return goods > 0 ? Math.round(goods * 100) / 100 : draft.priceDeclared;
}

export type OrderBody = OrderInput;
export type CalculatorBody = NonNullable<CalculatorInput>;

export function optionKey(
  type: 1 | 2 | 3,
  quote: { deliveryCompanyId: number | string; tariffName?: string | null },
): string {
  return `${type}:${quote.deliveryCompanyId}:${quote.tariffName ?? ''}`;
}

const blankToNull = (text: string) => (text.trim() === '' ? null : text.trim());

function dimensionsOf(line: GoodsLine) {
  return line.width && line.height && line.length
    ? { width: line.width, height: line.height, length: line.length }
    : undefined;
}

/** The place list resized to `count` places (new ones unmeasured, the last ones dropped). */
export function resizePlaces(sizes: PlaceSize[] | undefined, count: number): PlaceSize[] {
  const list = (sizes ?? []).slice(0, count);
  while (list.length < count) list.push({ ...EMPTY_PLACE });
  return list;
}

/** The body's `places`: every place once any of them is measured, none otherwise. */
function placesOf(draft: OrderDraft) {
  const sizes = draft.placeSizes ?? [];
  if (!sizes.some(placeIsMeasured)) return [];
  return sizes.map((place) => ({
    weight: place.weight,
    ...(place.width && place.height && place.length
      ? { dimensions: { width: place.width, height: place.height, length: place.length } }
      : {}),
  }));
}

/** The body of POST /v2/orders (and PUT) for the draft. */
export function orderBodyOf(draft: OrderDraft): OrderBody {
  const body: Record<string, unknown> = {
    shopId: draft.shopId,
    cmsId: blankToNull(draft.cmsId),
    recipient: { fullName: draft.fullName.trim(), phone: draft.phone.trim(), email: blankToNull(draft.email) },
    deliveryAddress: {
      city: draft.city
        ? {
            countryCode: draft.city.countryCode,
            name: draft.city.name,
            fias: draft.city.fias,
            type: draft.city.type,
            region: draft.city.region,
          }
        : { countryCode: 'RU', name: '' },
      street: blankToNull(draft.street),
      house: blankToNull(draft.house),
      flat: blankToNull(draft.flat),
      ...(draft.addressFiasId ? { fiasId: draft.addressFiasId } : {}),
    },
    products: draft.goods.map((line) => ({
      ...(line.productId ? { id: line.productId } : {}),
      ...(line.barcode ? { barcode: line.barcode } : {}),
      name: line.name.trim() || null,
      vendorCode: blankToNull(line.vendorCode),
      count: line.count,
      priceDeclared: line.priceDeclared ?? undefined,
      priceCod: line.priceCod ?? undefined,
      weight: line.weight,
      dimensions: dimensionsOf(line),
    })),
    dimensions: { places: placesOf(draft).length || draft.places },
    ...(placesOf(draft).length > 0 ? { places: placesOf(draft) } : {}),
    priceDeclared: draft.priceDeclared,
    comment: draft.comment,
  };
  if (draft.option) {
    body.delivery = {
      company: { id: draft.option.companyId, tariff: draft.option.tariff },
      type: draft.option.type,
      ...(draft.option.type === 1 && draft.pointId !== null ? { point: { id: draft.pointId } } : {}),
    };
    if (draft.option.type === 2) {
      body.clientDeliveryDate = draft.courierDate;
      body.clientCourierTime = draft.courierTime;
    }
  }
  return body as OrderBody;
}

/** The calculator's body for the live prices; null until a city is chosen and every line weighs something. */
export function calculatorBodyOf(draft: OrderDraft): CalculatorBody | null {
  if (!draft.city || draft.goods.some((line) => !line.weight)) return null;
  return {
    reception: {
      countryCode: draft.city.countryCode,
      cityFias: draft.city.fias,
      cityName: draft.city.name,
      cityType: draft.city.type,
      region: draft.city.region,
      street: draft.street || undefined,
      house: draft.house || undefined,
    },
    products: draft.goods.map((line) => ({
      vendorCode: line.vendorCode || undefined,
      count: line.count,
      priceDeclared: line.priceDeclared ?? 0,
      priceCod: line.priceCod ?? 0,
      weight: line.weight ?? undefined,
      dimensions: dimensionsOf(line),
    })),
    itemCount: placesOf(draft).length || draft.places,
    priceDeclared: draft.priceDeclared ?? undefined,
    applyWidgetSettings: true,
  } as CalculatorBody;
}

/** The form's text for an order being edited. */
export function draftFromOrder(order: Order): OrderDraft {
  const city = order.deliveryAddress?.city;
  const type = order.delivery?.type as 1 | 2 | 3 | undefined;
  const companyId = order.delivery?.company?.id;
  return {
    ...EMPTY_DRAFT,
    shopId: order.shopId ?? null,
    cmsId: order.cmsId ?? '',
    fullName: order.recipient?.fullName ?? '',
    phone: order.recipient?.phone ?? '',
    email: order.recipient?.email ?? '',
    city: city?.name
      ? {
          name: city.name,
          fias: city.fias ?? '',
          type: city.type ?? '',
          region: city.region ?? '',
          countryCode: city.countryCode ?? 'RU',
        }
      : null,
    street: order.deliveryAddress?.street ?? '',
    house: order.deliveryAddress?.house ?? '',
    flat: order.deliveryAddress?.flat ?? '',
    goods: (order.products ?? []).map((product) => ({
      productId: product.id ?? null,
      barcode: product.barcode ?? '',
      name: product.name ?? '',
      vendorCode: product.vendorCode ?? '',
      count: product.count,
      priceDeclared: product.priceDeclared,
      priceCod: product.priceCod,
      weight: product.weight ?? null,
      width: product.dimensions?.width ?? null,
      height: product.dimensions?.height ?? null,
      length: product.dimensions?.length ?? null,
    })),
    places: order.dimensions?.places ?? 1,
    placeSizes: (order.places ?? []).map((place) => ({
      weight: place.weight,
      width: place.dimensions.width,
      height: place.dimensions.height,
      length: place.dimensions.length,
    })),
    option:
      type && companyId !== undefined
        ? {
            key: optionKey(type, { deliveryCompanyId: companyId, tariffName: order.delivery?.company?.tariff }),
            type,
            companyId,
            tariff: order.delivery?.company?.tariff ?? null,
          }
        : null,
    pointId: order.delivery?.point?.id ?? null,
    courierDate: order.clientDeliveryDate ?? null,
    courierTime: order.clientCourierTime ?? null,
    priceDeclared: order.priceDeclared ?? null,
    comment: order.comment ?? '',
  };
}

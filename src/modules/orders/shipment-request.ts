/**
 * What a real company's registration is sent of an order (carrier follow-up, tracking.ts):
 * who and where, the parcel's cargo, and the goods with the cash each line collects. Pure.
 */
import type { Cargo, ShipmentAddress, ShipmentDetails, ShipmentGoods } from '../../carriers/types.js';
import { toKopecks } from '../../platform/money.js';
import { buildCargo } from '../calculator/cargo.js';
import { declaredValueKopecks, type OrderDoc } from './document.js';

/** Who and where, for a real company's registration (the simulated ones read only the locality). */
export function shipmentDetails(orderId: number, doc: OrderDoc, pointCode: string | null): ShipmentDetails {
  const address = (
    from: {
      city: { countryCode?: string | null; name?: string | null; region?: string | null };
      street: string | null;
      house: string | null;
      flat: string | null;
    },
    postalCode: string | null,
  ): ShipmentAddress => ({
    countryCode: from.city.countryCode ?? 'RU',
    postalCode,
    city: from.city.name ?? '',
    region: from.city.region ?? null,
    street: from.street,
    house: from.house,
    flat: from.flat,
  });
  const dimensions = doc.dimensions as { length?: number | null; width?: number | null; height?: number | null };
  const sides = [dimensions.length, dimensions.width, dimensions.height]
    .map((value) => Number(value ?? 0))
    .sort((a, b) => b - a);
  return {
    number: doc.cmsId ?? String(orderId),
    recipient: { fullName: doc.recipient.fullName, phone: doc.recipient.phone, email: doc.recipient.email ?? null },
    address: address(doc.deliveryAddress, doc.deliveryAddress.zipCode ?? null),
    sender: {
      name: doc.sender.fullName ?? doc.brand,
      phone: doc.sender.phone ?? null,
      address: doc.senderAddress ? address(doc.senderAddress, null) : null,
    },
    pointCode,
    pointType: doc.delivery.point?.type ?? null,
    sidesCm: sides.every((side) => side > 0) ? [sides[0], sides[1], sides[2]] : null,
    comment: doc.comment ?? null,
    ...shipmentGoods(orderId, doc),
    tariffName: doc.delivery.company.tariff ?? null,
  };
}

const given = (value: number | null | undefined) =>
  value === null || value === undefined || value <= 0 ? undefined : value;
const sidesGiven = (sides: { width: number | null; height: number | null; length: number | null }) => ({
  width: given(sides.width),
  height: given(sides.height),
  length: given(sides.length),
});

/**
 * The parcel as the calculator priced it: the same cargo rules (places, else the goods
 * stacked, else the order's sizes), so a company registers the places and sizes it quoted.
 */
export function shipmentCargo(doc: OrderDoc): Cargo {
  return buildCargo(
    {
      products: doc.products.map((line) => ({
        weight: line.weight ?? undefined,
        dimensions: sidesGiven(line.dimensions),
        count: line.count,
      })),
      places: doc.places.map((place) => ({
        weight: place.weight ?? undefined,
        dimensions: sidesGiven(place.dimensions),
      })),
      weight: given(doc.dimensions.factWeight) ?? given(doc.dimensions.weight),
      dimensions: sidesGiven(doc.dimensions),
      itemCount: doc.dimensions.places ?? undefined,
    },
    null,
  );
}

/**
 * The goods per unit and the delivery charge, so that what a company collects adds up to the
 * order's COD exactly: each unit pays its price less its discount, scaled down (to the kopeck,
 * rounding down) by the order's own discount; the kopecks the rounding leaves go with the
 * delivery charge. Prepaid orders (COD 0) collect nothing for the goods.
 */
export function shipmentGoods(orderId: number, doc: OrderDoc): { goods: ShipmentGoods[]; deliveryCodKopecks: number } {
  const codKopecks = toKopecks(doc.priceCod);
  const delivery = Math.min(
    codKopecks,
    Math.max(0, toKopecks(doc.clientPrice ?? 0) - toKopecks(doc.clientPrePay ?? 0)),
  );
  const goodsTarget = codKopecks - delivery;
  const declaredTotal = declaredValueKopecks(doc.products, doc.priceDeclared);
  if (doc.products.length === 0) {
    return {
      goods: [
        {
          name: `Товары заказа ${orderId}`,
          article: String(orderId),
          count: 1,
          codKopecks: goodsTarget,
          declaredKopecks: declaredTotal,
          weightGrams: null,
          vat: null,
        },
      ],
      deliveryCodKopecks: delivery,
    };
  }
  const units = doc.products.reduce((sum, line) => sum + line.count, 0);
  const linesCod = doc.products.reduce(
    (sum, line) => sum + Math.max(0, toKopecks(line.priceCod) - toKopecks(line.discount)) * line.count,
    0,
  );
  const linesDeclared = doc.products.reduce((sum, line) => sum + toKopecks(line.priceDeclared) * line.count, 0);
  const goods = doc.products.map((line, index): ShipmentGoods => {
    const unitCod = Math.max(0, toKopecks(line.priceCod) - toKopecks(line.discount));
    return {
      name: line.name ?? line.vendorCode ?? `Товар ${index + 1}`,
      article: line.vendorCode ?? (line.id === null ? String(index + 1) : String(line.id)),
      count: line.count,
      codKopecks: linesCod > 0 ? Math.floor((unitCod * goodsTarget) / linesCod) : 0,
      // an order-level declared value without per-line ones is spread evenly over the units
      declaredKopecks:
        linesDeclared > 0 ? toKopecks(line.priceDeclared) : Math.floor(declaredTotal / Math.max(1, units)),
      weightGrams: line.weight === null ? null : Math.round(line.weight * 1000),
      vat: line.vat,
    };
  });
  const collected = goods.reduce((sum, line) => sum + line.codKopecks * line.count, 0);
  return { goods, deliveryCodKopecks: delivery + (goodsTarget - collected) };
}

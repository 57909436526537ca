/**
 * What an order gives each renderer of src/documents: its sticker, its line of a handover act,
 * its sender, its lines and boxes of an assembly statement. Pure: an order in, the renderer's
 * input out. Apart from service.ts because the pickups area prints the same act lines (it
 * imports senderOf and actOrderOf, re-exported by service.ts), while the service decides which
 * orders a document holds and records what was formed.
 */
import type { Box } from '../boxes/schemas.js';
import { toKopecks } from '../../platform/money.js';
import type { ActOrder, AssemblyOrder, DocumentParty, PostalAddress, StickerOrder } from '../../documents/index.js';
import { declaredValueKopecks, type OrderDoc } from '../orders/document.js';

type Order = OrderDoc & { id: number };

export function postal(address: {
  city: { countryCode?: string | null; name: string | null; region?: string | null; area?: string | null };
  street?: string | null;
  house?: string | null;
  bulk?: string | null;
  flat?: string | null;
  zipCode?: string | null;
}): PostalAddress {
  return {
    countryCode: address.city.countryCode ?? null,
    zipCode: address.zipCode ?? null,
    region: address.city.region ?? null,
    area: address.city.area ?? null,
    city: address.city.name ?? '',
    street: address.street ?? null,
    house: address.house ?? null,
    bulk: address.bulk ?? null,
    flat: address.flat ?? null,
  };
}

function weightKgOf(order: Order): number {
  const dims = order.dimensions;
  if (dims.factWeight) return dims.factWeight;
  if (dims.weight) return dims.weight;
  const places = order.places.reduce((sum, place) => sum + Math.round((place.weight ?? 0) * 1000), 0);
  if (places > 0) return places / 1000;
  return order.products.reduce((sum, line) => sum + Math.round((line.weight ?? 0) * 1000) * line.count, 0) / 1000;
}

function declaredKopecksOf(order: Order): number {
  return declaredValueKopecks(order.products, order.priceDeclared);
}

function placesOf(order: Order): number {
  return order.places.length || order.dimensions.places || 1;
}

export function senderOf(order: Order): DocumentParty {
  return {
    name: order.sender.fullName ?? order.brand,
    phone: order.sender.phone,
    legalName: order.brand || null,
    address: postal(order.senderAddress),
  };
}

export function stickerOrderOf(order: Order): StickerOrder {
  const point = order.delivery.type === 1 ? order.delivery.point : null;
  return {
    orderId: order.id,
    cmsId: order.cmsId,
    trackNumber: order.trackNumber ?? '',
    company: {
      name: order.delivery.company.name ?? `Company ${order.delivery.company.id}`,
      tariff: order.delivery.company.tariff,
    },
    sender: senderOf(order),
    recipient: {
      name: order.recipient.fullName,
      phone: order.recipient.phone,
      legalName: order.recipient.legalEntity?.name ?? null,
    },
    destination: point
      ? { kind: 'point', point: { id: point.id, name: point.name, address: point.address } }
      : { kind: 'address', address: postal(order.deliveryAddress) },
    weightKg: weightKgOf(order),
    places:
      order.places.length > 0
        ? order.places.map((place) => ({ weightKg: place.weight }))
        : Array.from({ length: placesOf(order) }, () => ({})),
    codKopecks: toKopecks(order.priceCod ?? 0),
    comment: order.comment,
  };
}

export function actOrderOf(order: Order): ActOrder {
  return {
    orderId: order.id,
    cmsId: order.cmsId,
    trackNumber: order.trackNumber ?? '',
    recipientName: order.recipient.fullName,
    city: order.deliveryAddress.city.name,
    places: placesOf(order),
    weightKg: weightKgOf(order),
    declaredValueKopecks: declaredKopecksOf(order),
    codKopecks: toKopecks(order.priceCod ?? 0),
  };
}

type BoxLine = NonNullable<AssemblyOrder['boxes']>[number];

export function sidesKey(sides: Array<number | null | undefined>): string | null {
  if (sides.some((side) => side === null || side === undefined)) return null;
  return (sides as number[])
    .slice()
    .sort((a, b) => b - a)
    .join('x');
}

/**
 * The boxes to pack an order into: one per place, named after the account's box of the
 * same size when there is one, else described by its size; places without sizes are left out.
 */
function boxesOf(order: Order, catalogue: Map<string, Box>): BoxLine[] | null {
  const sizes =
    order.places.length > 0
      ? order.places.map((place) => place.dimensions)
      : Array.from({ length: placesOf(order) }, () => order.dimensions);
  const lines = new Map<string, BoxLine>();
  for (const size of sizes) {
    const key = size ? sidesKey([size.length, size.width, size.height]) : null;
    if (!key || !size) continue;
    const box = catalogue.get(key);
    const name = box?.name ?? `Коробка ${key.replaceAll('x', '×')} см`;
    const line = lines.get(`${name}|${key}`);
    if (line) line.count += 1;
    else
      lines.set(`${name}|${key}`, {
        name,
        dimensions: { length: size.length as number, width: size.width as number, height: size.height as number },
        count: 1,
      });
  }
  return lines.size > 0 ? [...lines.values()] : null;
}

export function assemblyOrderOf(order: Order, catalogue: Map<string, Box>): AssemblyOrder {
  return {
    orderId: order.id,
    cmsId: order.cmsId,
    trackNumber: order.trackNumber,
    recipientName: order.recipient.fullName,
    company: order.delivery.company.name,
    goods: order.products.map((line) => ({
      name: line.name ?? line.vendorCode ?? '—',
      vendorCode: line.vendorCode,
      barcodes: line.barcode ? [line.barcode] : [],
      count: line.count,
    })),
    boxes: boxesOf(order, catalogue),
    commentForAssembly: order.commentForAssembly,
    documentsForWarehouse: order.documentsForWarehouse,
  };
}

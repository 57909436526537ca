/**
 * Parcel labels for thermal printers (types 2 and 3) in ZPL or PNG, with the PDF label's
 * content: company and tariff, place n of N, the order number and the track number as
 * Code 128 (the track's text under it), recipient, door address or pickup point, sender,
 * comment, and a framed band with the weight and the cash to collect.
 */
import { formatAddress, formatParty } from './format.js';
import { formatMoney, formatWeight } from './pdf.js';
import { textWidth } from './raster.js';
import { LabelCanvas, LabelColumn, pngOf, zplOf, type PrinterDpi, type ThermalLabel } from './thermal.js';
import type { StickerFormat, StickerOrder } from './types.js';

/** The thermal sticker types (DESIGN.md): 2 is 100×150 mm, 3 is 75×120 mm. */
export type ThermalStickerType = Exclude<StickerFormat, 1>;

interface ThermalSpec {
  widthMm: number;
  heightMm: number;
  paddingMm: number;
  /** Body text size, mm of em; the rest scales from it. */
  fontMm: number;
  trackBarcodeMm: number;
  orderBarcodeMm: number;
}

const SPECS: Record<ThermalStickerType, ThermalSpec> = {
  2: { widthMm: 100, heightMm: 150, paddingMm: 3, fontMm: 3.4, trackBarcodeMm: 18, orderBarcodeMm: 8 },
  3: { widthMm: 75, heightMm: 120, paddingMm: 2.5, fontMm: 2.7, trackBarcodeMm: 14, orderBarcodeMm: 7 },
};

export function isThermalType(type: StickerFormat): type is ThermalStickerType {
  return type === 2 || type === 3;
}

/** Labels drawn before giving the event loop a turn. */
const LABELS_BETWEEN_YIELDS = 25;

/** The place-by-place labels of the orders, laid out; yields the event loop every few labels. */
export async function* thermalStickers(
  orders: Iterable<StickerOrder>,
  type: ThermalStickerType,
  dpi: PrinterDpi,
): AsyncGenerator<{ order: StickerOrder; place: number; label: ThermalLabel }> {
  let drawn = 0;
  for (const order of orders) {
    const places = order.places && order.places.length > 0 ? order.places : [{}];
    for (let index = 0; index < places.length; index += 1) {
      const weight = places[index].weightKg;
      const placeWeightKg = places.length > 1 && typeof weight === 'number' ? weight : null;
      yield {
        order,
        place: index + 1,
        label: thermalSticker(order, index + 1, places.length, placeWeightKg, type, dpi),
      };
      drawn += 1;
      if (drawn % LABELS_BETWEEN_YIELDS === 0) await new Promise((resolve) => setImmediate(resolve));
    }
  }
}

export function thermalSticker(
  order: StickerOrder,
  place: number,
  placeCount: number,
  placeWeightKg: number | null,
  type: ThermalStickerType,
  dpi: PrinterDpi,
): ThermalLabel {
  const spec = SPECS[type];
  const canvas = new LabelCanvas(spec.widthMm, spec.heightMm, dpi);
  const size = canvas.dots(spec.fontMm);
  const padding = canvas.dots(spec.paddingMm);
  const innerWidth = canvas.width - 2 * padding;
  const bottom = canvas.height - padding;

  // Bottom band first, at a fixed place: weight and cash on delivery are always printed.
  const frame = Math.max(2, Math.round(canvas.dpmm / 4));
  const bandHeight = Math.round(size * 2.9);
  const bandTop = bottom - bandHeight;
  canvas.box(padding, bandTop, innerWidth, bandHeight, frame);
  const band = new LabelColumn(
    canvas,
    padding + Math.round(size * 0.4),
    bandTop + Math.round(size * 0.25),
    innerWidth - Math.round(size * 0.8),
    bottom,
  );
  const cod = order.codKopecks && order.codKopecks > 0 ? order.codKopecks : 0;
  band.text(
    placeWeightKg !== null
      ? `Вес места: ${formatWeight(placeWeightKg)} (заказ ${formatWeight(order.weightKg)})`
      : `Вес: ${formatWeight(order.weightKg)}`,
    size,
    { weight: 'bold' },
  );
  band.text(
    cod > 0 ? `Наложенный платёж: ${formatMoney(cod)}` : 'Оплачено, без наложенного платежа',
    cod > 0 ? Math.round(size * 1.1) : size,
    { weight: cod > 0 ? 'bold' : 'regular' },
  );

  const column = new LabelColumn(canvas, padding, padding, innerWidth, bandTop - Math.round(size * 0.3));
  // Header: the company left, the place right, both large.
  const header = Math.round(size * 1.4);
  const placeText = `Место ${place} из ${placeCount}`;
  canvas.line(placeText, padding, column.y, innerWidth, header, 'bold', 'right');
  const placeWidth = Math.ceil(textWidth(placeText, header, 'bold')) + size;
  const company = new LabelColumn(
    canvas,
    padding,
    column.y,
    Math.max(size * 4, innerWidth - placeWidth),
    column.bottom,
  );
  company.text(order.company.name, header, { weight: 'bold' });
  if (order.company.tariff) company.text(order.company.tariff, Math.round(size * 0.9));
  column.skip(Math.max(company.y - column.y, header * 1.2) + Math.round(size * 0.3));

  column.text(`Заказ № ${order.orderId}${order.cmsId ? ` · в магазине ${order.cmsId}` : ''}`, size, {
    weight: 'bold',
    gapAfter: Math.round(size * 0.2),
  });
  column.code128(String(order.orderId), canvas.dots(spec.orderBarcodeMm), Math.round(size * 0.4));
  column.code128(order.trackNumber, canvas.dots(spec.trackBarcodeMm), Math.round(size * 0.2));
  column.text(order.trackNumber, Math.round(size * 1.3), { weight: 'bold', align: 'center' });
  column.rule(Math.round(size * 0.8));

  column.text('Получатель', Math.round(size * 0.85));
  column.text(order.recipient.name, Math.round(size * 1.25), { weight: 'bold', lines: 2 });
  if (order.recipient.phone) column.text(`Тел.: ${order.recipient.phone}`, Math.round(size * 1.1), { weight: 'bold' });
  if (order.recipient.legalName) column.text(order.recipient.legalName, size);
  column.skip(Math.round(size * 0.3));
  if (order.destination.kind === 'point') {
    const point = order.destination.point;
    column.text(`Пункт выдачи: ${point.name}${point.code ? ` (${point.code})` : ''}`, Math.round(size * 1.05), {
      weight: 'bold',
      lines: 2,
    });
    column.text(point.address, Math.round(size * 1.05), { lines: 3 });
  } else {
    column.text(order.destination.address.city, Math.round(size * 1.5), { weight: 'bold' });
    column.text(formatAddress(order.destination.address), Math.round(size * 1.05), { lines: 3 });
  }
  column.rule(Math.round(size * 0.8));
  column.text('Отправитель', Math.round(size * 0.85));
  column.text(formatParty(order.sender), Math.round(size * 0.95), { lines: 2 });
  if (order.sender.address) column.text(formatAddress(order.sender.address), Math.round(size * 0.9), { lines: 2 });
  if (order.comment) column.text(`Комментарий: ${order.comment}`, Math.round(size * 0.8), { lines: 2 });
  return canvas.done();
}

/** All labels as one ZPL stream (one ^XA..^XZ format per label). */
export async function thermalStickersZpl(
  orders: readonly StickerOrder[],
  type: ThermalStickerType,
  dpi: PrinterDpi,
): Promise<string> {
  const parts: string[] = [];
  for await (const { label } of thermalStickers(orders, type, dpi)) parts.push(zplOf(label));
  return parts.join('');
}

/** Each label as a PNG, named by order and place. */
export async function thermalStickersPng(
  orders: readonly StickerOrder[],
  type: ThermalStickerType,
  dpi: PrinterDpi,
): Promise<Array<{ name: string; bytes: Buffer }>> {
  const images: Array<{ name: string; bytes: Buffer }> = [];
  for await (const { order, place, label } of thermalStickers(orders, type, dpi))
    images.push({ name: stickerImageName(order, place), bytes: pngOf(label) });
  return images;
}

export function stickerImageName(order: StickerOrder, place: number): string {
  return `${order.orderId}-${place}.png`;
}

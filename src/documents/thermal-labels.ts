/**
 * The other labels warehouse staff print on the thermal printer: product labels of
 * a fulfilment supply (58×40 mm, the common goods label) and the pickup handover act's
 * barcodes (100×150 mm pages: the act's heading, then each order's track number as Code 128
 * for the courier's scanner, as on the PDF act).
 */
import { PassThrough } from 'node:stream';
import { formatDate } from './pdf.js';
import { LabelCanvas, LabelColumn, pngOf, zplOf, type PrinterDpi, type ThermalLabel } from './thermal.js';
import { writeEntries, type FileEntry } from './sticker-files.js';
import type { PickupActInput, SupplyActInput, SupplyGoodsLine } from './types.js';

/** A product label and how many copies of it to print (`^PQ` in ZPL). */
export interface LabelCopies {
  name: string;
  label: ThermalLabel;
  copies: number;
}

const PRODUCT_LABEL_MM: [number, number] = [58, 40];

/**
 * One label per product line of the supply: its barcode (the product's first, else its vendor
 * code) as Code 128, name, vendor code, batch and expiry; `copies` is the line's count when a
 * label goes on each unit, else 1.
 */
export function supplyProductLabels(supply: SupplyActInput, perUnit: boolean, dpi: PrinterDpi): LabelCopies[] {
  return supply.goods.map((line, index) => ({
    name: `${index + 1}-${fileSafe(line.vendorCode ?? line.name)}`,
    label: productLabel(supply.supplyId, line, dpi),
    copies: perUnit ? line.count : 1,
  }));
}

function productLabel(supplyId: number, line: SupplyGoodsLine, dpi: PrinterDpi): ThermalLabel {
  const canvas = new LabelCanvas(PRODUCT_LABEL_MM[0], PRODUCT_LABEL_MM[1], dpi);
  const padding = canvas.dots(2);
  const size = canvas.dots(2.6);
  const column = new LabelColumn(canvas, padding, padding, canvas.width - 2 * padding, canvas.height - padding);
  column.text(line.name, size, { weight: 'bold', lines: 2 });
  column.text(
    [
      line.vendorCode ? `Арт. ${line.vendorCode}` : '',
      line.batch ? `партия ${line.batch}` : '',
      line.expires ? `годен до ${formatDate(line.expires)}` : '',
    ]
      .filter((part) => part !== '')
      .join(' · '),
    Math.round(size * 0.85),
    { lines: 2, gapAfter: Math.round(size * 0.3) },
  );
  const code = line.barcodes?.[0] ?? line.vendorCode ?? '';
  column.code128(code, canvas.dots(12), Math.round(size * 0.1));
  column.text(code, Math.round(size * 0.9), { align: 'center' });
  column.text(`Поставка № ${supplyId}`, Math.round(size * 0.7), { align: 'right' });
  return canvas.done();
}

/** Barcodes on a page of the act after the heading, and on the pages after it. */
const ACT_ROWS_FIRST = 4;
const ACT_ROWS = 6;

/** The act's pages: its heading, then each order's track number as Code 128 with the order and places under it. */
export function pickupActLabels(act: PickupActInput, dpi: PrinterDpi): ThermalLabel[] {
  const pages: ThermalLabel[] = [];
  let next = 0;
  do {
    const canvas = new LabelCanvas(100, 150, dpi);
    const padding = canvas.dots(3);
    const size = canvas.dots(3);
    const column = new LabelColumn(canvas, padding, padding, canvas.width - 2 * padding, canvas.height - padding);
    const rows = pages.length === 0 ? ACT_ROWS_FIRST : ACT_ROWS;
    if (pages.length === 0) {
      column.text(`Акт передачи курьеру № ${act.number} от ${formatDate(act.date)}`, Math.round(size * 1.15), {
        weight: 'bold',
        lines: 2,
      });
      column.text(
        `${act.company.name}${act.pickupNumber ? `, заявка ${act.pickupNumber}` : ''}${act.time ? `, ${act.time.from}–${act.time.to}` : ''}`,
        size,
        { lines: 2 },
      );
      column.text(
        `${act.warehouse.name}: заказов ${act.orders.length}, мест ${act.orders.reduce((sum, order) => sum + order.places, 0)}`,
        size,
        { lines: 2 },
      );
      column.rule(Math.round(size * 0.8));
    }
    const rowHeight = Math.floor((column.bottom - column.y) / rows);
    for (const order of act.orders.slice(next, next + rows)) {
      const top = column.y;
      column.code128(order.trackNumber, Math.round(rowHeight * 0.55), Math.round(size * 0.1));
      column.text(
        `${order.trackNumber} · заказ ${order.orderId}${order.cmsId ? ` (${order.cmsId})` : ''}, мест: ${order.places}`,
        Math.round(size * 0.85),
        { align: 'center' },
      );
      column.y = top + rowHeight;
    }
    next += rows;
    pages.push(canvas.done());
  } while (next < act.orders.length);
  return pages;
}

function fileSafe(text: string): string {
  return text.replace(/[^\p{L}\p{N}._-]+/gu, '_').slice(0, 40);
}

/** A finished small file of thermal labels: one ZPL stream, one PNG, or a ZIP of PNGs. */
export interface ThermalFile {
  bytes: Buffer;
  contentType: string;
  extension: 'zpl' | 'png' | 'zip';
}

/** Labels as one ZPL stream (copies by `^PQ`), or as PNGs (one per label; a ZIP when several, copies in the name). */
export async function thermalFile(labels: readonly LabelCopies[], output: 'zpl' | 'png'): Promise<ThermalFile> {
  if (output === 'zpl')
    return {
      bytes: Buffer.from(labels.map((item) => zplOf(item.label, item.copies)).join(''), 'utf8'),
      contentType: 'application/zpl',
      extension: 'zpl',
    };
  if (labels.length === 1) return { bytes: pngOf(labels[0].label), contentType: 'image/png', extension: 'png' };
  const entries: FileEntry[] = labels.map((item) => ({
    name: `${item.name}${item.copies > 1 ? `-x${item.copies}` : ''}.png`,
    async write(out) {
      out.end(pngOf(item.label));
    },
  }));
  const chunks: Buffer[] = [];
  const sink = new PassThrough();
  sink.on('data', (chunk: Buffer) => chunks.push(chunk));
  await writeEntries(sink, entries);
  return { bytes: Buffer.concat(chunks), contentType: 'application/zip', extension: 'zip' };
}

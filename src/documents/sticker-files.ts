/**
 * The file `POST /v2/orders/stickers` answers, as entries written one after another into a
 * stream (the file store's): one entry is the file itself, several are a ZIP. Each entry is
 * written with backpressure, so thousands of labels never sit in memory whole: the PDF goes
 * page by page, the ZPL label by label, the PNGs image by image.
 */
import { once } from 'node:events';
import { STICKER_FORMATS, writeStickers } from './stickers.js';
import { pngOf, zplOf, type LabelOutput, type PrinterDpi } from './thermal.js';
import { stickerImageName, thermalStickers, thermalSticker, type ThermalStickerType } from './thermal-stickers.js';
import type { StickerFormat, StickerOrder } from './types.js';
import { writeWorkbookZip } from './xlsx.js';

export interface FileEntry {
  name: string;
  /** Writes the entry's bytes into `out` and ends it. */
  write(out: NodeJS.WritableStream): Promise<void>;
}

export interface StickerPlan {
  output: LabelOutput;
  /** PDF: the formats to make (one, or all three); ZPL and PNG: one thermal type. */
  types: StickerFormat[];
  dpi: PrinterDpi;
}

const FORMAT_SUFFIX: Record<StickerFormat, string> = { 1: 'a4', 2: '100x150', 3: '75x120' };

export const OUTPUT_CONTENT_TYPE: Record<LabelOutput, string> = {
  pdf: 'application/pdf',
  zpl: 'application/zpl',
  png: 'image/png',
};

/** How many labels (one a place) the orders print. */
export function labelCount(orders: readonly StickerOrder[]): number {
  return orders.reduce((sum, order) => sum + Math.max(1, order.places?.length ?? 0), 0);
}

/** The name of our file of one type: `stickers-100x150.pdf`, `stickers-100x150-203dpi.zpl`. */
export function stickerFileName(plan: StickerPlan, type: StickerFormat): string {
  if (plan.output === 'pdf') return STICKER_FORMATS[type].fileName;
  return `stickers-${FORMAT_SUFFIX[type]}-${plan.dpi}dpi.${plan.output}`;
}

/** Our labels of the orders as entries: a PDF per type, one ZPL stream, or a PNG per label. `onLabel` after each label. */
export function stickerEntries(orders: readonly StickerOrder[], plan: StickerPlan, onLabel?: () => void): FileEntry[] {
  if (orders.length === 0) return [];
  if (plan.output === 'pdf')
    return plan.types.map((type) => ({
      name: stickerFileName(plan, type),
      write: (out) => writeStickers(out, orders, type, onLabel),
    }));
  const type = plan.types[0] as ThermalStickerType;
  if (plan.output === 'zpl') {
    return [
      {
        name: stickerFileName(plan, type),
        async write(out) {
          for await (const { label } of thermalStickers(orders, type, plan.dpi)) {
            if (!out.write(zplOf(label))) await once(out, 'drain');
            onLabel?.();
          }
          await endOf(out);
        },
      },
    ];
  }
  return orders.flatMap((order) => {
    const places = Math.max(1, order.places?.length ?? 0);
    return Array.from(
      { length: places },
      (_, index): FileEntry => ({
        name: stickerImageName(order, index + 1),
        async write(out) {
          const weight = order.places?.[index]?.weightKg;
          const label = thermalSticker(
            order,
            index + 1,
            places,
            places > 1 && typeof weight === 'number' ? weight : null,
            type,
            plan.dpi,
          );
          out.write(pngOf(label));
          onLabel?.();
          await endOf(out);
        },
      }),
    );
  });
}

/** Ready bytes (a company's own label) as an entry. */
export function bytesEntry(name: string, bytes: Buffer): FileEntry {
  return {
    name,
    async write(out) {
      out.write(bytes);
      await endOf(out);
    },
  };
}

/** One entry written as the file itself, several as a ZIP of them. */
export async function writeEntries(out: NodeJS.WritableStream, entries: readonly FileEntry[]): Promise<void> {
  if (entries.length === 1) return entries[0].write(out);
  await writeWorkbookZip(
    out,
    entries.map((entry) => ({ fileName: entry.name, write: entry.write })),
  );
}

function endOf(out: NodeJS.WritableStream): Promise<void> {
  return new Promise((resolve, reject) => {
    out.once('error', reject);
    out.end(() => resolve());
  });
}

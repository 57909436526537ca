/**
 * Code128 drawn as vector bars: bwip-js encodes the text (symbol choice, check digit), the
 * PDF gets one filled rectangle per bar. Vectors stay sharp at any printer resolution, cost
 * a few hundred bytes per label and no image decoding, which is what makes 500 labels fast.
 */
import type BwipJs from 'bwip-js';
import { onFirstUse } from '../platform/lazy-require.js';

const bwipjs = onFirstUse<typeof BwipJs>('bwip-js');
import type { Pdf } from './pdf.js';

export interface BarcodePattern {
  /** Width of the symbol in modules (narrowest bar = 1), without quiet zones. */
  modules: number;
  /** Bars as [offset, width] in modules. */
  bars: Array<[number, number]>;
}

/** Quiet zone each side, in modules, that scanners need (Code128 asks for 10). */
export const QUIET_ZONE_MODULES = 10;

/** The Code128 pattern of `text`, or null when Code128 cannot carry it (not ASCII / Latin-1). */
export function code128(text: string): BarcodePattern | null {
  if (text.length === 0 || !/^[\x20-\x7e]+$/.test(text)) return null;
  let encoded: unknown;
  try {
    encoded = bwipjs().raw('code128', text, {});
  } catch {
    return null;
  }
  const first = (encoded as Array<{ sbs?: number[] }>)[0];
  if (!first?.sbs) return null;
  const bars: Array<[number, number]> = [];
  let offset = 0;
  // `sbs` alternates bar, space, bar ... widths starting with a bar.
  first.sbs.forEach((width, index) => {
    if (index % 2 === 0) bars.push([offset, width]);
    offset += width;
  });
  return { modules: offset, bars };
}

/**
 * Draws the pattern centred in the box [x, x + maxWidth], keeping the quiet zones inside
 * the box: the module is as wide as fits, capped at `maxModule` points so a short code is
 * not stretched. Returns the width of the bars drawn.
 */
export function drawBarcode(
  doc: Pdf,
  pattern: BarcodePattern,
  x: number,
  y: number,
  maxWidth: number,
  height: number,
  maxModule = 1.7,
): number {
  const module = Math.min(maxModule, maxWidth / (pattern.modules + 2 * QUIET_ZONE_MODULES));
  const drawnWidth = module * pattern.modules;
  const left = x + (maxWidth - drawnWidth) / 2;
  doc.save();
  doc.fillColor('black');
  for (const [offset, width] of pattern.bars) doc.rect(left + offset * module, y, width * module, height);
  doc.fill();
  doc.restore();
  return drawnWidth;
}

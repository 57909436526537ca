/**
 * Labels for thermal printers (Zebra and the ZPL clones): a label is laid out once, in
 * printer dots, as a list of marks, then written either as ZPL (text as `^GFA` graphics,
 * barcodes as the printer's own `^BC`/`^BQ`, frames as `^GB`) or as a 1-bit PNG of the same
 * dots. Text goes as graphics because the printers' resident fonts have no Cyrillic and a
 * downloaded TTF is a per-printer install (docs/decisions/documents.md, "Thermal printers").
 */
import type BwipJs from 'bwip-js';
import { onFirstUse } from '../platform/lazy-require.js';

const bwipjs = onFirstUse<typeof BwipJs>('bwip-js');
import { code128, QUIET_ZONE_MODULES, type BarcodePattern } from './barcode.js';
import { Bitmap, lineHeight, renderText, textWidth, toPng, toZplGraphic, wrapText, type FontWeight } from './raster.js';

/** Resolutions thermal printers come in: 8 and 12 dots a millimetre. */
export type PrinterDpi = 203 | 300;
export const PRINTER_DPI: readonly PrinterDpi[] = [203, 300];
/** Output formats of labels: the PDF of before, ZPL for the printer, PNG images. */
export type LabelOutput = 'pdf' | 'zpl' | 'png';

export function dotsPerMm(dpi: PrinterDpi): number {
  return dpi === 300 ? 12 : 8;
}

export type Mark =
  | { kind: 'text'; x: number; y: number; bitmap: Bitmap }
  | { kind: 'code128'; x: number; y: number; height: number; module: number; text: string; pattern: BarcodePattern }
  | { kind: 'qr'; x: number; y: number; module: number; text: string; matrix: boolean[][] }
  | { kind: 'box'; x: number; y: number; width: number; height: number; thickness: number };

export interface ThermalLabel {
  width: number;
  height: number;
  dpi: PrinterDpi;
  marks: Mark[];
}

/** Lays marks out on a label of a size in millimetres; every figure it takes and answers is in dots. */
export class LabelCanvas {
  readonly dpmm: number;
  readonly width: number;
  readonly height: number;
  readonly marks: Mark[] = [];

  constructor(
    widthMm: number,
    heightMm: number,
    readonly dpi: PrinterDpi,
  ) {
    this.dpmm = dotsPerMm(dpi);
    this.width = Math.round(widthMm * this.dpmm);
    this.height = Math.round(heightMm * this.dpmm);
  }

  dots(mm: number): number {
    return Math.round(mm * this.dpmm);
  }

  /** One line at (x, y), aligned in `width`; answers its height. */
  line(
    text: string,
    x: number,
    y: number,
    width: number,
    size: number,
    weight: FontWeight,
    align: 'left' | 'center' | 'right' = 'left',
  ): number {
    if (text === '') return 0;
    const bitmap = renderText(text, size, weight);
    const offset =
      align === 'left'
        ? 0
        : Math.max(0, align === 'center' ? Math.floor((width - bitmap.width) / 2) : width - bitmap.width);
    this.marks.push({ kind: 'text', x: x + offset, y, bitmap });
    return lineHeight(size, weight);
  }

  /** Code 128 centred in `width` with its quiet zones, the module as wide as fits up to `maxModuleMm`; false when it cannot be printed. */
  code128(text: string, x: number, y: number, width: number, height: number, maxModuleMm = 0.5): boolean {
    const pattern = code128(text);
    if (!pattern) return false;
    const module = Math.min(
      Math.max(1, Math.round(maxModuleMm * this.dpmm)),
      Math.floor(width / (pattern.modules + 2 * QUIET_ZONE_MODULES)),
    );
    // Under two dots a bar is too thin to read off a worn thermal head.
    if (module < 2) return false;
    this.marks.push({
      kind: 'code128',
      x: x + Math.floor((width - pattern.modules * module) / 2),
      y,
      height,
      module,
      text,
      pattern,
    });
    return true;
  }

  /** A QR code (error correction Q) `size` dots square at most; false when it does not fit. */
  qr(text: string, x: number, y: number, size: number): boolean {
    const matrix = qrMatrix(text);
    const module = Math.min(10, Math.floor(size / matrix.length));
    if (module < 2) return false;
    this.marks.push({ kind: 'qr', x, y, module, text, matrix });
    return true;
  }

  box(x: number, y: number, width: number, height: number, thickness: number): void {
    this.marks.push({ kind: 'box', x, y, width, height, thickness });
  }

  done(): ThermalLabel {
    return { width: this.width, height: this.height, dpi: this.dpi, marks: this.marks };
  }
}

function qrMatrix(text: string): boolean[][] {
  const [symbol] = bwipjs().raw('qrcode', text, 'eclevel=Q') as unknown as Array<{
    pixs: number[];
    pixx: number;
    pixy: number;
  }>;
  return Array.from({ length: symbol.pixy }, (_, row) =>
    Array.from({ length: symbol.pixx }, (_, column) => symbol.pixs[row * symbol.pixx + column] === 1),
  );
}

/**
 * Text laid downwards in a column that never runs past `bottom`: a line that would is left
 * out, long values wrap to their `lines` and end with "…", as on the PDF label.
 */
export class LabelColumn {
  constructor(
    private readonly canvas: LabelCanvas,
    readonly x: number,
    public y: number,
    readonly width: number,
    readonly bottom: number,
  ) {}

  text(
    value: string,
    size: number,
    options: { weight?: FontWeight; lines?: number; align?: 'left' | 'center' | 'right'; gapAfter?: number } = {},
  ): void {
    if (value === '') return;
    const weight = options.weight ?? 'regular';
    const height = lineHeight(size, weight);
    for (const line of wrapText(value, this.width, size, weight, options.lines ?? 1)) {
      if (this.y + height > this.bottom) return;
      this.y += this.canvas.line(line, this.x, this.y, this.width, size, weight, options.align);
    }
    this.y += options.gapAfter ?? 0;
  }

  code128(text: string, height: number, gapAfter: number): void {
    if (this.y + height > this.bottom) return;
    if (this.canvas.code128(text, this.x, this.y, this.width, height)) this.y += height + gapAfter;
  }

  rule(gap: number): void {
    if (this.y + gap > this.bottom) return;
    const thickness = Math.max(2, Math.round(this.canvas.dpmm / 4));
    this.canvas.box(this.x, this.y + Math.floor((gap - thickness) / 2), this.width, thickness, thickness);
    this.y += gap;
  }

  skip(dots: number): void {
    this.y = Math.min(this.bottom, this.y + dots);
  }
}

/** Whether `text` fits on one line of `width` dots. */
export function fitsLine(text: string, width: number, size: number, weight: FontWeight): boolean {
  return textWidth(text, size, weight) <= width;
}

// ---------------------------------------------------------------- writers

/**
 * One label as a ZPL format (^XA..^XZ): label size `^PW`/`^LL`, home at 0,0, each mark at
 * its `^FO`. Code 128 in automatic subset mode (`^BC...,A`), as bwip-js chose the bars.
 */
export function zplOf(label: ThermalLabel, copies = 1): string {
  const parts = [`^XA^CI28^PW${label.width}^LL${label.height}^LH0,0^PON`];
  for (const mark of label.marks) {
    switch (mark.kind) {
      case 'text':
        parts.push(`^FO${mark.x},${mark.y}${toZplGraphic(mark.bitmap)}^FS`);
        break;
      case 'code128':
        parts.push(`^FO${mark.x},${mark.y}^BY${mark.module}^BCN,${mark.height},N,N,N,A${fieldData(mark.text)}^FS`);
        break;
      case 'qr':
        // ^BQ puts the symbol below its origin by a fixed margin of its own: ^FO is its top left.
        parts.push(`^FO${mark.x},${mark.y}^BQN,2,${mark.module}${fieldData(mark.text, 'QA,')}^FS`);
        break;
      case 'box':
        parts.push(`^FO${mark.x},${mark.y}^GB${mark.width},${mark.height},${mark.thickness},B,0^FS`);
        break;
    }
  }
  parts.push(`^PQ${copies}^XZ\n`);
  return parts.join('\n');
}

/** `^FD` of the text; ^ and ~ would start commands, so a text holding them goes hex-escaped under `^FH`. */
function fieldData(text: string, prefix = ''): string {
  if (!/[\^~_]/.test(text)) return `^FD${prefix}${text}`;
  return `^FH^FD${prefix}${text.replace(/[\^~_]/g, (char) => `_${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`)}`;
}

/** The same dots as a bitmap: what the printer would print. */
export function bitmapOf(label: ThermalLabel): Bitmap {
  const bitmap = new Bitmap(label.width, label.height);
  for (const mark of label.marks) {
    switch (mark.kind) {
      case 'text':
        bitmap.draw(mark.bitmap, mark.x, mark.y);
        break;
      case 'code128':
        for (const [offset, width] of mark.pattern.bars)
          bitmap.fillRect(mark.x + offset * mark.module, mark.y, width * mark.module, mark.height);
        break;
      case 'qr':
        mark.matrix.forEach((row, y) =>
          row.forEach(
            (on, x) =>
              on && bitmap.fillRect(mark.x + x * mark.module, mark.y + y * mark.module, mark.module, mark.module),
          ),
        );
        break;
      case 'box':
        bitmap.frame(mark.x, mark.y, mark.width, mark.height, mark.thickness);
        break;
    }
  }
  return bitmap;
}

export function pngOf(label: ThermalLabel): Buffer {
  return toPng(bitmapOf(label), label.dpi);
}

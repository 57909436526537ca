/**
 * One-bit pictures for thermal printers, in pure JS: text drawn from the DejaVu outlines
 * (fontkit, already under pdfkit) by a scanline fill, bars and frames as rectangles, and
 * the result as a 1-bit PNG or as ZPL `^GFA` data. A thermal head prints dots, on or off:
 * no grey, so no anti-aliasing either (a pixel is black when its centre is inside).
 *
 * Each glyph is filled once per font and size and then copied: a label's text costs
 * copies, not outlines (500 labels' text in well under a second).
 */
import { deflateSync, crc32 } from 'node:zlib';
import type * as fontkit from 'fontkit';
import { onFirstUse } from '../platform/lazy-require.js';

const fontkitModule = onFirstUse<typeof fontkit>('fontkit');
import { fonts } from './pdf.js';

export class Bitmap {
  /** One byte a dot, 1 = black: simple to draw into; packed only when written out. */
  readonly dots: Uint8Array;
  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.dots = new Uint8Array(width * height);
  }

  fillRect(x: number, y: number, width: number, height: number): void {
    const left = Math.max(0, Math.round(x));
    const right = Math.min(this.width, Math.round(x + width));
    const top = Math.max(0, Math.round(y));
    const bottom = Math.min(this.height, Math.round(y + height));
    for (let row = top; row < bottom; row += 1) this.dots.fill(1, row * this.width + left, row * this.width + right);
  }

  /** A frame `thickness` dots wide inside the box (as ZPL's ^GB draws it). */
  frame(x: number, y: number, width: number, height: number, thickness: number): void {
    this.fillRect(x, y, width, thickness);
    this.fillRect(x, y + height - thickness, width, thickness);
    this.fillRect(x, y, thickness, height);
    this.fillRect(x + width - thickness, y, thickness, height);
  }

  /** Copies the black dots of `source` with its top left corner at (x, y). */
  draw(source: Bitmap, x: number, y: number): void {
    for (let row = 0; row < source.height; row += 1) {
      const targetRow = y + row;
      if (targetRow < 0 || targetRow >= this.height) continue;
      for (let column = 0; column < source.width; column += 1) {
        const targetColumn = x + column;
        if (source.dots[row * source.width + column] && targetColumn >= 0 && targetColumn < this.width)
          this.dots[targetRow * this.width + targetColumn] = 1;
      }
    }
  }

  /** Rows packed 8 dots a byte, most significant bit first, 1 = black (ZPL's order). */
  packedRows(): { bytesPerRow: number; rows: Buffer } {
    const bytesPerRow = Math.ceil(this.width / 8);
    const rows = Buffer.alloc(bytesPerRow * this.height);
    const { dots, width } = this;
    for (let row = 0; row < this.height; row += 1) {
      const from = row * width;
      const to = from + width;
      // a blank row (most of a label) is skipped at the speed of indexOf
      const offset = dots.subarray(from, to).indexOf(1);
      if (offset < 0) continue;
      const first = from + offset;
      const out = row * bytesPerRow;
      for (let at = first; at < to; at += 1) if (dots[at]) rows[out + ((at - from) >> 3)] |= 0x80 >> ((at - from) & 7);
    }
    return { bytesPerRow, rows };
  }
}

// ---------------------------------------------------------------- text

export type FontWeight = 'regular' | 'bold';

let loaded: Record<FontWeight, fontkit.Font> | null = null;
function font(weight: FontWeight): fontkit.Font {
  if (!loaded) {
    const files = fonts();
    const { create } = fontkitModule();
    loaded = { regular: create(files.regular), bold: create(files.bold) };
  }
  return loaded[weight];
}

interface Edge {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** The outline of a glyph as straight edges, in dots, y down, origin at the pen on the baseline. */
function edgesOf(commands: fontkit.PathCommand[], scale: number): Edge[] {
  const edges: Edge[] = [];
  let startX = 0;
  let startY = 0;
  let x = 0;
  let y = 0;
  const lineTo = (toX: number, toY: number): void => {
    if (toY !== y) edges.push({ x0: x, y0: y, x1: toX, y1: toY });
    x = toX;
    y = toY;
  };
  for (const { command, args } of commands) {
    const points = args.map((value, index) => (index % 2 === 0 ? value * scale : -value * scale));
    if (command === 'moveTo') {
      if (x !== startX || y !== startY) lineTo(startX, startY);
      [x, y] = points;
      [startX, startY] = points;
    } else if (command === 'lineTo') lineTo(points[0], points[1]);
    else if (command === 'closePath') lineTo(startX, startY);
    else {
      // Curves flattened into short segments: 8 per curve is finer than a dot at label sizes.
      const [fromX, fromY] = [x, y];
      for (let step = 1; step <= 8; step += 1) {
        const t = step / 8;
        const u = 1 - t;
        if (command === 'quadraticCurveTo')
          lineTo(
            u * u * fromX + 2 * u * t * points[0] + t * t * points[2],
            u * u * fromY + 2 * u * t * points[1] + t * t * points[3],
          );
        else
          lineTo(
            u * u * u * fromX + 3 * u * u * t * points[0] + 3 * u * t * t * points[2] + t * t * t * points[4],
            u * u * u * fromY + 3 * u * u * t * points[1] + 3 * u * t * t * points[3] + t * t * t * points[5],
          );
      }
    }
  }
  if (x !== startX || y !== startY) lineTo(startX, startY);
  return edges;
}

/** A filled glyph: its dots and where its top left sits from the pen on the baseline. */
interface GlyphImage {
  bitmap: Bitmap;
  left: number;
  top: number;
}

const glyphImages = new Map<string, GlyphImage | null>();

/** Non-zero winding scanline fill at dot centres. */
function fillGlyph(glyph: fontkit.Glyph, scale: number, offsetX: number): GlyphImage | null {
  const edges = edgesOf(glyph.path.commands, scale).map((edge) => ({
    ...edge,
    x0: edge.x0 + offsetX,
    x1: edge.x1 + offsetX,
  }));
  if (edges.length === 0) return null;
  let minX = Infinity;
  let maxX = -Infinity;
  let minY = Infinity;
  let maxY = -Infinity;
  for (const edge of edges) {
    minX = Math.min(minX, edge.x0, edge.x1);
    maxX = Math.max(maxX, edge.x0, edge.x1);
    minY = Math.min(minY, edge.y0, edge.y1);
    maxY = Math.max(maxY, edge.y0, edge.y1);
  }
  const left = Math.floor(minX);
  const top = Math.floor(minY);
  const bitmap = new Bitmap(Math.ceil(maxX) - left + 1, Math.ceil(maxY) - top + 1);
  const crossings: Array<{ x: number; winding: number }> = [];
  for (let row = 0; row < bitmap.height; row += 1) {
    const scanY = top + row + 0.5;
    crossings.length = 0;
    for (const edge of edges) {
      const down = edge.y1 > edge.y0;
      const [upper, lower] = down ? [edge.y0, edge.y1] : [edge.y1, edge.y0];
      if (scanY < upper || scanY >= lower) continue;
      crossings.push({
        x: edge.x0 + ((scanY - edge.y0) / (edge.y1 - edge.y0)) * (edge.x1 - edge.x0),
        winding: down ? 1 : -1,
      });
    }
    crossings.sort((a, b) => a.x - b.x);
    let winding = 0;
    for (let index = 0; index < crossings.length - 1; index += 1) {
      winding += crossings[index].winding;
      if (winding === 0) continue;
      const from = Math.ceil(crossings[index].x - 0.5 - left);
      const to = Math.floor(crossings[index + 1].x - 0.5 - left);
      for (let column = Math.max(0, from); column <= Math.min(bitmap.width - 1, to); column += 1)
        bitmap.dots[row * bitmap.width + column] = 1;
    }
  }
  return { bitmap, left, top };
}

function glyphImage(
  weight: FontWeight,
  glyph: fontkit.Glyph,
  sizeDots: number,
  scale: number,
  subDot: number,
): GlyphImage | null {
  // Pen positions are kept to a quarter dot so spacing stays even along a line.
  const key = `${weight}:${sizeDots}:${glyph.id}:${subDot}`;
  let image = glyphImages.get(key);
  if (image === undefined) {
    image = fillGlyph(glyph, scale, subDot / 4);
    glyphImages.set(key, image);
  }
  return image;
}

interface CharGlyph {
  glyph: fontkit.Glyph;
  /** Advance in font units. */
  advance: number;
}

const charGlyphs: Record<FontWeight, Map<number, CharGlyph>> = { regular: new Map(), bold: new Map() };

/**
 * The glyph of each character, looked up once: labels need no shaping (Cyrillic and Latin
 * are one glyph a character), and fontkit's full layout cost more than the drawing.
 */
function glyphsOf(text: string, weight: FontWeight): CharGlyph[] {
  const face = font(weight);
  const cache = charGlyphs[weight];
  const glyphs: CharGlyph[] = [];
  for (const char of text) {
    const code = char.codePointAt(0) as number;
    let entry = cache.get(code);
    if (!entry) {
      const glyph = face.glyphForCodePoint(code);
      entry = { glyph, advance: glyph.advanceWidth };
      cache.set(code, entry);
    }
    glyphs.push(entry);
  }
  return glyphs;
}

/** Width of `text` in dots at `sizeDots` (the em, as a font size in dots). */
export function textWidth(text: string, sizeDots: number, weight: FontWeight = 'regular'): number {
  const scale = sizeDots / font(weight).unitsPerEm;
  let units = 0;
  for (const { advance } of glyphsOf(text, weight)) units += advance;
  return units * scale;
}

/** Height of a line of text at `sizeDots`: ascent to descent. */
export function lineHeight(sizeDots: number, weight: FontWeight = 'regular'): number {
  const face = font(weight);
  return Math.ceil(((face.ascent - face.descent) * sizeDots) / face.unitsPerEm);
}

/** Lines drawn lately: a batch repeats most of its lines (captions, the sender, company names). */
const drawnLines = new Map<string, Bitmap>();
/** At ~20 KB a line (100 mm at 203 dpi), 1000 lines are ~20 MB at most. */
const DRAWN_LINES_KEPT = 1000;

/** One line of text as a bitmap as wide as its ink and as high as the line (the same object for the same line: do not draw into it). */
export function renderText(text: string, sizeDots: number, weight: FontWeight = 'regular'): Bitmap {
  const key = `${weight}:${sizeDots}:${text}`;
  let bitmap = drawnLines.get(key);
  if (!bitmap) {
    if (drawnLines.size >= DRAWN_LINES_KEPT) drawnLines.clear();
    bitmap = drawLine(text, sizeDots, weight);
    drawnLines.set(key, bitmap);
  }
  return bitmap;
}

function drawLine(text: string, sizeDots: number, weight: FontWeight): Bitmap {
  const face = font(weight);
  const scale = sizeDots / face.unitsPerEm;
  const glyphs = glyphsOf(text, weight);
  const baseline = Math.ceil((face.ascent * sizeDots) / face.unitsPerEm);
  const bitmap = new Bitmap(
    Math.max(1, Math.ceil(textWidth(text, sizeDots, weight)) + 1),
    lineHeight(sizeDots, weight),
  );
  let pen = 0;
  for (const { glyph, advance } of glyphs) {
    const whole = Math.floor(pen);
    const image = glyphImage(weight, glyph, sizeDots, scale, Math.round((pen - whole) * 4) % 4);
    if (image) bitmap.draw(image.bitmap, whole + image.left, baseline + image.top);
    pen += advance * scale;
  }
  return bitmap;
}

/**
 * `text` broken into at most `maxLines` lines no wider than `width` dots, at spaces (a word
 * wider than a line is cut); what does not fit ends the last line with "…".
 */
export function wrapText(
  text: string,
  width: number,
  sizeDots: number,
  weight: FontWeight,
  maxLines: number,
): string[] {
  const fits = (line: string): boolean => textWidth(line, sizeDots, weight) <= width;
  const lines: string[] = [];
  for (const word of text.split(/\s+/).filter((item) => item !== '')) {
    const last = lines.length > 0 ? lines[lines.length - 1] : null;
    if (last !== null && fits(`${last} ${word}`)) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(fits(word) ? word : fitWithEllipsis(word, width, sizeDots, weight));
  }
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, maxLines);
  kept[maxLines - 1] = fitWithEllipsis(kept[maxLines - 1], width, sizeDots, weight, true);
  return kept;
}

function fitWithEllipsis(text: string, width: number, sizeDots: number, weight: FontWeight, always = false): string {
  if (!always && textWidth(text, sizeDots, weight) <= width) return text;
  let kept = text;
  while (kept.length > 1 && textWidth(`${kept}…`, sizeDots, weight) > width) kept = kept.slice(0, -1);
  return `${kept.trimEnd()}…`;
}

// ---------------------------------------------------------------- output

/** A 1-bit greyscale PNG (black ink on white paper): the whole file is a few KB a label. */
export function toPng(bitmap: Bitmap, dpi: number): Buffer {
  const { bytesPerRow, rows } = bitmap.packedRows();
  // PNG greyscale 1-bit: 0 is black; each row starts with its filter byte (0, none).
  const raw = Buffer.alloc((bytesPerRow + 1) * bitmap.height);
  for (let row = 0; row < bitmap.height; row += 1) {
    for (let byte = 0; byte < bytesPerRow; byte += 1)
      raw[row * (bytesPerRow + 1) + 1 + byte] = ~rows[row * bytesPerRow + byte] & 0xff;
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(bitmap.width, 0);
  header.writeUInt32BE(bitmap.height, 4);
  header.set([1, 0, 0, 0, 0], 8);
  const dotsPerMetre = Math.round(dpi / 0.0254);
  const physical = Buffer.alloc(9);
  physical.writeUInt32BE(dotsPerMetre, 0);
  physical.writeUInt32BE(dotsPerMetre, 4);
  physical[8] = 1;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('pHYs', physical),
    chunk('IDAT', deflateSync(raw, { level: 1 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(data, crc32(type)) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/**
 * A repeat count in ZPL II's compression of ^GF data: G..Y are 1..19, g..z are 20..400 in
 * steps of 20, written larger first ("hJ" = 40 + 3).
 */
function repeatCount(count: number): string {
  let text = '';
  let left = count;
  while (left >= 20) {
    const twenties = Math.min(20, Math.floor(left / 20));
    text += String.fromCharCode('g'.charCodeAt(0) + twenties - 1);
    left -= twenties * 20;
  }
  if (left > 0) text += String.fromCharCode('G'.charCodeAt(0) + left - 1);
  return text;
}

/**
 * `^GFA` of the bitmap in ZPL II's ASCII compression (runs of a hex digit as a count, a row
 * ending in white as ",", a row equal to the one above as ":"): understood by Zebra printers
 * and the ZPL clones alike, and 10-30 times smaller than plain hex for text.
 */
const graphics = new WeakMap<Bitmap, string>();

export function toZplGraphic(bitmap: Bitmap): string {
  let graphic = graphics.get(bitmap);
  if (graphic === undefined) {
    graphic = zplGraphic(bitmap);
    graphics.set(bitmap, graphic);
  }
  return graphic;
}

function zplGraphic(bitmap: Bitmap): string {
  const { bytesPerRow, rows } = bitmap.packedRows();
  const parts: string[] = [];
  let previous = '';
  for (let row = 0; row < bitmap.height; row += 1) {
    const hex = rows.toString('hex', row * bytesPerRow, (row + 1) * bytesPerRow).toUpperCase();
    if (row > 0 && hex === previous) {
      parts.push(':');
      continue;
    }
    previous = hex;
    let end = hex.length;
    while (end > 0 && hex.charCodeAt(end - 1) === 48) end -= 1;
    const trimmed = hex.slice(0, end);
    const encoded = trimmed.replace(/(.)\1+/g, (run, digit: string) => `${repeatCount(run.length)}${digit}`);
    parts.push(trimmed.length < hex.length ? `${encoded},` : encoded);
  }
  const total = bytesPerRow * bitmap.height;
  return `^GFA,${total},${total},${bytesPerRow},${parts.join('')}`;
}

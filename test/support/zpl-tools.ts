/**
 * ZPL read back as a printer would: the commands parsed (label size, field origins, barcode
 * payloads), the labels rendered to PNG by zpl-renderer-js (Zebrash, a Go ZPL renderer built
 * to WebAssembly: no native code), and barcodes read from images with zbarimg.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { inflateSync } from 'node:zlib';

export interface ParsedLabel {
  width: number;
  height: number;
  /** Every ^FO origin, in dots. */
  origins: Array<{ x: number; y: number }>;
  /** ^BC payloads in order. */
  code128: string[];
  /** ^BQ payloads without their "QA," mode prefix. */
  qr: string[];
  /** ^GFA graphics: their origin and size. */
  graphics: Array<{ x: number; y: number; bytesPerRow: number; rows: number }>;
}

/** Splits a ZPL stream into its labels (^XA..^XZ) and reads the commands this service writes. */
export function parseZpl(zpl: string): ParsedLabel[] {
  return [...zpl.matchAll(/\^XA([\s\S]*?)\^XZ/g)].map((match) => {
    const body = match[1];
    const width = Number(/\^PW(\d+)/.exec(body)?.[1] ?? NaN);
    const height = Number(/\^LL(\d+)/.exec(body)?.[1] ?? NaN);
    const label: ParsedLabel = { width, height, origins: [], code128: [], qr: [], graphics: [] };
    for (const field of body.split('^FS')) {
      const origin = /\^FO(\d+),(\d+)/.exec(field);
      if (!origin) continue;
      const at = { x: Number(origin[1]), y: Number(origin[2]) };
      label.origins.push(at);
      const data = /\^FD([\s\S]*)$/.exec(field)?.[1] ?? '';
      const decoded = field.includes('^FH')
        ? data.replace(/_([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
        : data;
      if (field.includes('^BC')) label.code128.push(decoded);
      if (field.includes('^BQ')) label.qr.push(decoded.replace(/^[LMQH]A,/, ''));
      const graphic = /\^GFA,(\d+),(\d+),(\d+),/.exec(field);
      if (graphic)
        label.graphics.push({ ...at, bytesPerRow: Number(graphic[3]), rows: Number(graphic[1]) / Number(graphic[3]) });
    }
    return label;
  });
}

interface ZplRenderer {
  zplToBase64MultipleAsync(zpl: string, widthMm?: number, heightMm?: number, dpmm?: number): Promise<string[]>;
}
let renderer: Promise<ZplRenderer> | null = null;

/** Each label of the stream as a PNG, as Zebrash draws it on a label of that size and resolution. */
export async function renderZpl(zpl: string, widthMm: number, heightMm: number, dpmm: number): Promise<Buffer[]> {
  renderer ??= (
    createRequire(import.meta.url)('zpl-renderer-js') as { ready: Promise<{ api: ZplRenderer }> }
  ).ready.then((loaded) => loaded.api);
  const images = await (await renderer).zplToBase64MultipleAsync(zpl, widthMm, heightMm, dpmm);
  return images.map((image) => Buffer.from(image, 'base64'));
}

/** The barcodes zbarimg reads in a PNG, as "CODE-128:..." / "QR-Code:..." lines, sorted. */
export function imageBarcodes(png: Buffer): string[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zpl-'));
  try {
    const file = path.join(dir, 'label.png');
    fs.writeFileSync(file, png);
    const out = execFileSync('zbarimg', ['--quiet', file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    return out
      .split('\n')
      .filter((line) => line !== '')
      .sort();
  } catch (error) {
    // zbarimg exits 4 when it finds no barcode
    if ((error as { status?: number }).status === 4) return [];
    throw error;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Width, height and dots (1 = black) of a PNG: 1-bit greyscale (ours) or 8-bit RGBA/grey (Zebrash's), no interlace. */
export function pngDots(png: Buffer): { width: number; height: number; dots: Uint8Array } {
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  const depth = png[24];
  const colour = png[25];
  const chunks: Buffer[] = [];
  for (let offset = 8; offset < png.length; ) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    if (type === 'IDAT') chunks.push(png.subarray(offset + 8, offset + 8 + length));
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(chunks));
  const channels = { 0: 1, 2: 3, 4: 2, 6: 4 }[colour as 0 | 2 | 4 | 6] ?? 1;
  const bytesPerPixel = Math.max(1, (channels * depth) / 8);
  const stride = Math.ceil((width * channels * depth) / 8);
  const rows = Buffer.alloc(stride * height);
  let previous = Buffer.alloc(stride);
  for (let row = 0; row < height; row += 1) {
    const filter = raw[row * (stride + 1)];
    const line = Buffer.from(raw.subarray(row * (stride + 1) + 1, (row + 1) * (stride + 1)));
    for (let index = 0; index < stride; index += 1) {
      const left = index >= bytesPerPixel ? line[index - bytesPerPixel] : 0;
      const up = previous[index];
      const upLeft = index >= bytesPerPixel ? previous[index - bytesPerPixel] : 0;
      if (filter === 1) line[index] = (line[index] + left) & 255;
      else if (filter === 2) line[index] = (line[index] + up) & 255;
      else if (filter === 3) line[index] = (line[index] + ((left + up) >> 1)) & 255;
      else if (filter === 4) {
        const estimate = left + up - upLeft;
        const [a, b, c] = [Math.abs(estimate - left), Math.abs(estimate - up), Math.abs(estimate - upLeft)];
        line[index] = (line[index] + (a <= b && a <= c ? left : b <= c ? up : upLeft)) & 255;
      }
    }
    line.copy(rows, row * stride);
    previous = line;
  }
  const dots = new Uint8Array(width * height);
  for (let row = 0; row < height; row += 1) {
    for (let column = 0; column < width; column += 1) {
      if (depth === 1)
        dots[row * width + column] = (rows[row * stride + (column >> 3)] >> (7 - (column & 7))) & 1 ? 0 : 1;
      else {
        const at = row * stride + column * channels;
        // dark and opaque is ink; a transparent pixel is paper
        const alpha = channels === 4 ? rows[at + 3] : channels === 2 ? rows[at + 1] : 255;
        dots[row * width + column] = alpha > 127 && rows[at] < 128 ? 1 : 0;
      }
    }
  }
  return { width, height, dots };
}

export const zbarMissing = (() => {
  try {
    execFileSync('zbarimg', ['--version'], { stdio: 'ignore' });
    return '';
  } catch {
    return ' (skipped: zbarimg is not installed)';
  }
})();

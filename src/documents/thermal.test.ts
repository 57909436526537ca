/**
 * Thermal labels read back as a printer and a scanner would: the ZPL parsed (label size,
 * field origins inside the label, barcode payloads), rendered by a ZPL renderer (Zebrash)
 * and compared dot for dot with our own PNG of the same label, and the barcodes of both
 * images read by zbarimg.
 */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { sampleStickerOrder } from '../../test/support/document-samples.js';
import { imageBarcodes, parseZpl, pngDots, renderZpl, zbarMissing } from '../../test/support/zpl-tools.js';
import { Bitmap, renderText, toZplGraphic } from './raster.js';
import { labelCount, stickerEntries } from './sticker-files.js';
import { LabelCanvas, pngOf, zplOf, type PrinterDpi } from './thermal.js';
import { thermalStickersPng, thermalStickersZpl, type ThermalStickerType } from './thermal-stickers.js';

const withZbar = it.skipIf(zbarMissing !== '');
const SIZES: Record<ThermalStickerType, [number, number]> = { 2: [100, 150], 3: [75, 120] };
const orders = Array.from({ length: 4 }, (_, index) => sampleStickerOrder(index));
/** Orders 0 and 3 have two places: 6 labels. */
const labelTracks = orders.flatMap((order) => Array.from({ length: order.places?.length || 1 }, () => order));

/** ZPL II's ASCII-compressed ^GFA data back to rows of hex, as a printer expands it. */
function expandGraphic(command: string): { bytesPerRow: number; rows: string[] } {
  const [, total, , perRow, data] = /\^GFA,(\d+),(\d+),(\d+),([\s\S]*)$/.exec(command) as RegExpExecArray;
  const hexPerRow = Number(perRow) * 2;
  const rows: string[] = [];
  let row = '';
  let count = 0;
  for (const char of data) {
    if (char >= 'G' && char <= 'Y') count += char.charCodeAt(0) - 'G'.charCodeAt(0) + 1;
    else if (char >= 'g' && char <= 'z') count += (char.charCodeAt(0) - 'g'.charCodeAt(0) + 1) * 20;
    else if (char === ',') {
      rows.push(row.padEnd(hexPerRow, '0'));
      row = '';
    } else if (char === ':') {
      rows.push(rows[rows.length - 1]);
    } else {
      row += char.repeat(Math.max(1, count));
      count = 0;
      if (row.length === hexPerRow) {
        rows.push(row);
        row = '';
      }
    }
  }
  expect(rows.length * Number(perRow)).toBe(Number(total));
  return { bytesPerRow: Number(perRow), rows };
}

describe('thermal stickers in ZPL', () => {
  for (const type of [2, 3] as const) {
    for (const dpi of [203, 300] as const) {
      it(`type ${type} at ${dpi} dpi: label size, field origins inside it, Code 128 of the order and the track number on each label`, async () => {
        const dpmm = dpi === 300 ? 12 : 8;
        const labels = parseZpl(await thermalStickersZpl(orders, type, dpi));
        expect(labels).toHaveLength(labelTracks.length);
        labels.forEach((label, index) => {
          expect([label.width, label.height]).toEqual([SIZES[type][0] * dpmm, SIZES[type][1] * dpmm]);
          for (const origin of label.origins) {
            expect(origin.x).toBeGreaterThanOrEqual(0);
            expect(origin.x).toBeLessThan(label.width);
            expect(origin.y).toBeGreaterThanOrEqual(0);
            expect(origin.y).toBeLessThan(label.height);
          }
          for (const graphic of label.graphics) {
            expect(graphic.x + graphic.bytesPerRow * 8).toBeLessThanOrEqual(label.width + 8);
            expect(graphic.y + graphic.rows).toBeLessThanOrEqual(label.height);
          }
          expect(label.code128).toEqual([String(labelTracks[index].orderId), labelTracks[index].trackNumber]);
        });
      });
    }
  }

  withZbar(`renders, as a ZPL renderer draws it, the same dots as our PNG, and both scan${zbarMissing}`, async () => {
    for (const [type, dpi] of [
      [2, 203],
      [3, 300],
    ] as Array<[ThermalStickerType, PrinterDpi]>) {
      const zpl = await thermalStickersZpl(orders.slice(0, 2), type, dpi);
      const pngs = await thermalStickersPng(orders.slice(0, 2), type, dpi);
      const rendered = await renderZpl(zpl, SIZES[type][0], SIZES[type][1], dpi === 300 ? 12 : 8);
      expect(rendered).toHaveLength(pngs.length);
      rendered.forEach((image, index) => {
        const theirs = pngDots(image);
        const ours = pngDots(pngs[index].bytes);
        expect([theirs.width, theirs.height]).toEqual([ours.width, ours.height]);
        let differing = 0;
        let ink = 0;
        for (let at = 0; at < ours.dots.length; at += 1) {
          if (ours.dots[at] !== theirs.dots[at]) differing += 1;
          ink += ours.dots[at];
        }
        // the renderer draws ^GB frames and ^BC bars to the same dots; allow a hair for its rounding of bar edges
        expect(differing / ink, `type ${type} ${dpi} dpi label ${index}`).toBeLessThan(0.01);
        const order = labelTracks[index];
        const expected = [`CODE-128:${order.orderId}`, `CODE-128:${order.trackNumber}`].sort();
        expect(imageBarcodes(image)).toEqual(expected);
        expect(imageBarcodes(pngs[index].bytes)).toEqual(expected);
      });
    }
  });

  it('writes text (Cyrillic included) as ^GFA graphics whose compressed data expands to the drawn dots', () => {
    const text = renderText('Получатель: Ёлкина Юлия — 1 из 2', 27, 'bold');
    const { bytesPerRow, rows } = expandGraphic(toZplGraphic(text));
    const packed = text.packedRows();
    expect(bytesPerRow).toBe(packed.bytesPerRow);
    expect(rows.join('')).toBe(packed.rows.toString('hex').toUpperCase());
    // the text has ink, and not everywhere
    const ink = text.dots.reduce((sum, dot) => sum + dot, 0);
    expect(ink).toBeGreaterThan(text.width * 2);
    expect(ink).toBeLessThan(text.dots.length / 2);
  });

  it('writes a QR code as ^BQ with its payload, and a ZPL escape for ^ and ~ in field data', () => {
    const canvas = new LabelCanvas(58, 40, 203);
    canvas.qr('SUPPLY-15', 10, 10, 200);
    canvas.code128('A^B~C', 10, 220, 440, 60);
    const [label] = parseZpl(zplOf(canvas.done()));
    expect(label.qr).toEqual(['SUPPLY-15']);
    expect(label.code128).toEqual(['A^B~C']);
  });

  withZbar(`prints a QR code that scans from the PNG and from the rendered ZPL${zbarMissing}`, async () => {
    const canvas = new LabelCanvas(58, 40, 203);
    canvas.qr('SUPPLY-15', 16, 16, 260);
    const label = canvas.done();
    expect(imageBarcodes(pngOf(label))).toEqual(['QR-Code:SUPPLY-15']);
    const [rendered] = await renderZpl(zplOf(label), 58, 40, 8);
    expect(imageBarcodes(rendered)).toEqual(['QR-Code:SUPPLY-15']);
  });

  it('a 1-bit PNG per label at the printer resolution', async () => {
    const pngs = await thermalStickersPng(orders, 2, 300);
    expect(pngs.map((png) => png.name)).toEqual(
      labelTracks.map(
        (order, index) =>
          `${order.orderId}-${index > 0 && labelTracks[index - 1].orderId === order.orderId ? 2 : 1}.png`,
      ),
    );
    const { width, height } = pngDots(pngs[0].bytes);
    expect([width, height]).toEqual([1200, 1800]);
    expect(pngs[0].bytes[24]).toBe(1);
  });
});

describe('a large batch', () => {
  it('streams 5000 labels of ZPL with the heap bounded (labels are not held)', async () => {
    const many = Array.from({ length: 3750 }, (_, index) => sampleStickerOrder(index));
    expect(labelCount(many)).toBe(5000);
    let bytes = 0;
    let labels = 0;
    let peakHeap = 0;
    const sink = new Writable({
      highWaterMark: 1 << 20,
      write(chunk: Buffer, _encoding, done) {
        bytes += chunk.length;
        setImmediate(done);
      },
    });
    const before = process.memoryUsage().heapUsed;
    const [entry] = stickerEntries(many, { output: 'zpl', types: [2], dpi: 203 }, () => {
      labels += 1;
      if (labels % 250 === 0) peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
    });
    await entry.write(sink);
    expect(labels).toBe(5000);
    expect(bytes).toBeGreaterThan(5000 * 10_000);
    // the whole stream is ~200 MB of text; what stays in the heap is a small part of it
    expect((peakHeap - before) / 1024 / 1024).toBeLessThan(120);
  }, 180_000);

  it('an empty bitmap writes as ^GFA of blank rows', () => {
    expect(toZplGraphic(new Bitmap(16, 2))).toBe('^GFA,4,4,2,,:');
  });
});

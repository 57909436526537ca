/** What every renderer shares: the embedded fonts, page sizes, a document that ends as bytes. */
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type PDFKitModule from 'pdfkit';
import { onFirstUse } from '../platform/lazy-require.js';

const pdfkit = onFirstUse<typeof PDFKitModule>('pdfkit');

export type Pdf = PDFKit.PDFDocument;

/** Millimetres to PDF points (1/72 inch). */
export function mm(value: number): number {
  return (value * 72) / 25.4;
}

export const A4 = { width: mm(210), height: mm(297) } as const;

export const FONT = { regular: 'DejaVuSans', bold: 'DejaVuSans-Bold' } as const;

let fontFiles: { regular: Buffer; bold: Buffer } | null = null;

/**
 * The DejaVu TTF files (the built-in PDF fonts cannot draw Cyrillic), read once per process.
 * Each document parses them again (~20 ms): sharing one parsed fontkit font between
 * documents was measured to drop glyphs from the later documents' subsets.
 */
export function fonts(): { regular: Buffer; bold: Buffer } {
  if (!fontFiles) {
    const packageDir = path.dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json'));
    fontFiles = {
      regular: fs.readFileSync(path.join(packageDir, 'ttf', 'DejaVuSans.ttf')),
      bold: fs.readFileSync(path.join(packageDir, 'ttf', 'DejaVuSans-Bold.ttf')),
    };
  }
  return fontFiles;
}

export interface DocumentOptions {
  /** Page size in points, [width, height]. */
  size: [number, number];
  margin: number;
  title: string;
}

/**
 * A new PDF with the fonts registered (pdfkit embeds only the glyphs used) and the bytes
 * collected as pages are flushed: pages are not buffered, so memory stays flat with size.
 * Call `end()` once every page is drawn.
 */
export function openDocument(options: DocumentOptions): { doc: Pdf; end(): Promise<Buffer> } {
  const doc = newDocument(options);
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  return {
    doc,
    end() {
      doc.end();
      return done;
    },
  };
}

/** `openDocument` whose bytes go into `out` as pages are flushed (a file of any length, never held). */
export function openDocumentInto(
  out: NodeJS.WritableStream,
  options: DocumentOptions,
  forgetLayoutsEveryPages = 1,
): { doc: Pdf; end(): Promise<void> } {
  const doc = newDocument(options);
  forgetWordLayoutsOnEachPage(doc, forgetLayoutsEveryPages);
  const done = new Promise<void>((resolve, reject) => {
    out.on('finish', resolve);
    out.on('error', reject);
    doc.on('error', reject);
  });
  doc.pipe(out);
  return {
    doc,
    end() {
      doc.end();
      return done;
    },
  };
}

/**
 * pdfkit remembers the glyph layout of every distinct word it set for the document's life:
 * ~2.8 KB per row of a bill (order numbers never repeat), 770 MB of heap for 100k lines.
 * Without the memory (`fontLayoutCache: false`) 30k lines took 24.5 s instead of 7.6 s; kept
 * for one page at a time it costs neither: 30k lines 6.2 s with a 49 MB heap peak, 100k
 * lines 18 s and 84 MB under a 256 MB cap. Labels repeat their words from page to page
 * (captions, the sender): they keep the layouts for many pages (`everyPages`).
 */
function forgetWordLayoutsOnEachPage(doc: Pdf, everyPages: number): void {
  const fonts = doc as unknown as { _fontFamilies?: Record<string, { layoutCache?: Record<string, unknown> }> };
  let pages = 0;
  doc.on('pageAdded', () => {
    pages += 1;
    if (pages % everyPages !== 0) return;
    for (const font of Object.values(fonts._fontFamilies ?? {}))
      if (font.layoutCache) font.layoutCache = Object.create(null) as Record<string, unknown>;
  });
}

function newDocument(options: DocumentOptions): Pdf {
  const PDFDocument = pdfkit();
  const doc = new PDFDocument({
    size: options.size,
    margin: options.margin,
    autoFirstPage: false,
    bufferPages: false,
    compress: true,
    info: { Title: options.title, Producer: 'delivery-service', Creator: 'delivery-service' },
  });
  const { regular, bold } = fonts();
  doc.registerFont(FONT.regular, regular);
  doc.registerFont(FONT.bold, bold);
  return doc;
}

const rubles = new Intl.NumberFormat('ru-RU', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const kilograms = new Intl.NumberFormat('ru-RU', { minimumFractionDigits: 0, maximumFractionDigits: 3 });

/** Kopecks as "1 500,00 ₽" (the service keeps money in kopecks). */
export function formatMoney(kopecks: number): string {
  // Intl uses a narrow no-break space as the group separator; DejaVu draws it, but a plain
  // no-break space extracts more predictably from the PDF text.
  return `${rubles.format(kopecks / 100).replace(/\u202f/g, '\u00a0')}\u00a0₽`;
}

/** Kilograms as "1,25 кг". */
export function formatWeight(kg: number): string {
  return `${kilograms.format(kg).replace(/\u202f/g, '\u00a0')}\u00a0кг`;
}

/** `YYYY-MM-DD` as "21.11.2026". */
export function formatDate(date: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(date);
  return match ? `${match[3]}.${match[2]}.${match[1]}` : date;
}

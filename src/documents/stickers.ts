/**
 * Parcel labels (stickers): one label per place of each order, in the three formats of
 * DESIGN.md, and the ZIP of all three that `POST /v2/orders/stickers` answers without `type`.
 */
import { onFirstUse } from '../platform/lazy-require.js';

const archiver = onFirstUse<typeof import('archiver')>('archiver');
import { code128, drawBarcode, type BarcodePattern } from './barcode.js';
import { formatAddress, formatParty } from './format.js';
import { A4, FONT, formatMoney, formatWeight, mm, openDocument, openDocumentInto, type Pdf } from './pdf.js';
import type { StickerFormat, StickerOrder } from './types.js';

interface FormatSpec {
  /** Page size in points. */
  page: [number, number];
  /** Labels on a page: columns x rows. */
  grid: [number, number];
  /** Padding inside a label, points. */
  padding: number;
  /** Body font size, points; everything else scales from it. */
  fontSize: number;
  fileName: string;
}

export const STICKER_FORMATS: Record<StickerFormat, FormatSpec> = {
  1: { page: [A4.width, A4.height], grid: [2, 2], padding: mm(5), fontSize: 9.5, fileName: 'stickers-a4.pdf' },
  2: { page: [mm(100), mm(150)], grid: [1, 1], padding: mm(4), fontSize: 10, fileName: 'stickers-100x150.pdf' },
  3: { page: [mm(75), mm(120)], grid: [1, 1], padding: mm(3), fontSize: 7.5, fileName: 'stickers-75x120.pdf' },
};

/**
 * Pages whose word layouts pdfkit keeps before forgetting them: a label's captions and sender
 * repeat on every page (forgetting at each page cost 2x the CPU), while the remembered
 * layouts of a few hundred pages stay a few MB.
 */
const LAYOUTS_KEPT_PAGES = 250;

/** Labels drawn before giving the event loop a turn (about 30-50 ms of work). */
const LABELS_BETWEEN_YIELDS = 25;

/** One printed label: an order and which of its places this is. */
interface Label {
  order: StickerOrder;
  barcode: BarcodePattern | null;
  place: number;
  placeCount: number;
  placeWeightKg: number | null;
}

function* labelsOf(orders: Iterable<StickerOrder>): Generator<Label> {
  for (const order of orders) {
    const places = order.places && order.places.length > 0 ? order.places : [{}];
    // The barcode is the same on every place of an order: encode it once.
    const barcode = code128(order.trackNumber);
    for (let index = 0; index < places.length; index += 1) {
      const weight = places[index].weightKg;
      yield {
        order,
        barcode,
        place: index + 1,
        placeCount: places.length,
        placeWeightKg: places.length > 1 && typeof weight === 'number' ? weight : null,
      };
    }
  }
}

/** Lays text out downwards inside a box, never past its bottom (long values are cut with "…"). */
class Column {
  y: number;
  constructor(
    private readonly doc: Pdf,
    private readonly x: number,
    top: number,
    private readonly width: number,
    readonly bottom: number,
  ) {
    this.y = top;
  }

  text(
    value: string,
    options: { size: number; bold?: boolean; lines?: number; align?: 'left' | 'center' | 'right'; gapAfter?: number },
  ): void {
    if (value === '') return;
    this.doc.font(options.bold ? FONT.bold : FONT.regular).fontSize(options.size);
    const lineHeight = this.doc.currentLineHeight(true);
    const lines = Math.min(options.lines ?? 1, Math.floor((this.bottom - this.y) / lineHeight));
    if (lines < 1) return;
    const height = lines * lineHeight;
    const align = options.align ?? 'left';
    if (align === 'left' && !value.includes('\n') && this.doc.widthOfString(value) <= this.width) {
      // One line that fits: drawn as it is. pdfkit's line wrapper measured it word by word
      // first, ~a third of a 500-label PDF's time (bench/thermal-labels.ts).
      this.doc.text(value, this.x, this.y, { lineBreak: false, lineGap: 0 });
      this.y += lineHeight + (options.gapAfter ?? 0);
      return;
    }
    this.doc.text(value, this.x, this.y, {
      width: this.width,
      height: height + 0.5,
      ellipsis: '…',
      align,
      lineGap: 0,
    });
    // pdfkit leaves doc.y under the last line it drew: advance by that, so a short value
    // leaves no gap (and the text is not laid out a second time to measure it).
    this.y = Math.min(this.y + height, Math.max(this.y, this.doc.y)) + (options.gapAfter ?? 0);
  }

  /** A caption and its value on one flow: "Получатель: Иванов Иван". */
  field(caption: string, value: string, size: number, lines = 1, gapAfter = 0): void {
    if (value === '') return;
    this.text(`${caption}: ${value}`, { size, lines, gapAfter });
  }

  rule(gap: number): void {
    if (this.y + gap > this.bottom) return;
    this.y += gap / 2;
    this.doc
      .save()
      .moveTo(this.x, this.y)
      .lineTo(this.x + this.width, this.y)
      .lineWidth(0.6)
      .strokeColor('black')
      .stroke()
      .restore();
    this.y += gap / 2;
  }

  skip(points: number): void {
    this.y = Math.min(this.bottom, this.y + points);
  }
}

function drawLabel(
  doc: Pdf,
  label: Label,
  x: number,
  y: number,
  width: number,
  height: number,
  spec: FormatSpec,
): void {
  const { order } = label;
  const size = spec.fontSize;
  const innerX = x + spec.padding;
  const innerWidth = width - 2 * spec.padding;
  const bottom = y + height - spec.padding;

  // Bottom band first, at a fixed place: weight and cash on delivery must always be visible.
  const bandHeight = size * 2 * 1.25 + size * 0.6;
  const bandTop = bottom - bandHeight;
  const cod = order.codKopecks && order.codKopecks > 0 ? order.codKopecks : 0;
  doc.save().rect(innerX, bandTop, innerWidth, bandHeight).lineWidth(1).strokeColor('black').stroke().restore();
  const band = new Column(doc, innerX + size * 0.4, bandTop + size * 0.3, innerWidth - size * 0.8, bottom);
  const weightText =
    label.placeWeightKg !== null
      ? `Вес места: ${formatWeight(label.placeWeightKg)} (заказ ${formatWeight(order.weightKg)})`
      : `Вес: ${formatWeight(order.weightKg)}`;
  band.text(weightText, { size, bold: true });
  band.text(cod > 0 ? `Наложенный платёж: ${formatMoney(cod)}` : 'Оплачено, без наложенного платежа', {
    size: cod > 0 ? size * 1.15 : size,
    bold: cod > 0,
  });

  const column = new Column(doc, innerX, y + spec.padding, innerWidth, bandTop - size * 0.4);
  // Header: company on the left, place n/N on the right, both bold.
  const placeText = `Место ${label.place}/${label.placeCount}`;
  doc.font(FONT.bold).fontSize(size * 1.4);
  const placeWidth = doc.widthOfString(placeText);
  doc.text(placeText, innerX + innerWidth - placeWidth, column.y, { width: placeWidth + 1, lineBreak: false });
  const company = new Column(
    doc,
    innerX,
    column.y,
    innerWidth - placeWidth - size,
    column.y + size * 1.4 * 1.2 + size * 1.2,
  );
  company.text(order.company.name, { size: size * 1.4, bold: true });
  if (order.company.tariff) company.text(order.company.tariff, { size: size * 0.9 });
  column.skip(company.y - column.y);
  column.text(`Заказ № ${order.orderId}${order.cmsId ? ` · в магазине ${order.cmsId}` : ''}`, {
    size,
    bold: true,
    gapAfter: size * 0.4,
  });

  // Barcode of the track number, then the number in text under it.
  const barcodeHeight = Math.max(mm(12), Math.min(mm(25), height * 0.17));
  if (label.barcode && column.y + barcodeHeight < column.bottom) {
    drawBarcode(doc, label.barcode, innerX, column.y, innerWidth, barcodeHeight);
    column.skip(barcodeHeight + size * 0.3);
  }
  column.text(order.trackNumber, { size: size * 1.3, bold: true, align: 'center' });
  column.rule(size * 0.8);

  column.text('Получатель', { size: size * 0.85 });
  column.text(order.recipient.name, { size: size * 1.3, bold: true, lines: 2 });
  if (order.recipient.phone) column.text(`Тел.: ${order.recipient.phone}`, { size: size * 1.15, bold: true });
  if (order.recipient.legalName) column.text(order.recipient.legalName, { size });
  column.skip(size * 0.4);
  if (order.destination.kind === 'point') {
    const point = order.destination.point;
    column.text(`Пункт выдачи: ${point.name}${point.code ? ` (${point.code})` : ''}`, {
      size: size * 1.1,
      bold: true,
      lines: 2,
    });
    column.text(point.address, { size: size * 1.1, lines: 3 });
  } else {
    // The locality large: it is what a sorting centre reads first.
    column.text(order.destination.address.city, { size: size * 1.5, bold: true });
    column.text(formatAddress(order.destination.address), { size: size * 1.1, lines: 3 });
  }
  column.rule(size * 0.8);
  column.text('Отправитель', { size: size * 0.85 });
  column.text(formatParty(order.sender), { size: size * 0.95, lines: 2 });
  if (order.sender.address) column.text(formatAddress(order.sender.address), { size: size * 0.9, lines: 2 });
  if (order.comment) {
    column.skip(size * 0.3);
    column.field('Комментарий', order.comment, size * 0.8, 2);
  }
}

/** Labels for every place of every order in one PDF of the given format. */
export async function renderStickers(orders: readonly StickerOrder[], format: StickerFormat): Promise<Buffer> {
  const { doc, end } = openDocument({ size: STICKER_FORMATS[format].page, margin: 0, title: 'Наклейки' });
  await drawStickers(doc, orders, format);
  return end();
}

/** `renderStickers` written into `out` page by page (a batch of any size is never held whole); `onLabel` after each label. */
export async function writeStickers(
  out: NodeJS.WritableStream,
  orders: Iterable<StickerOrder>,
  format: StickerFormat,
  onLabel?: () => void,
): Promise<void> {
  const { doc, end } = openDocumentInto(
    out,
    { size: STICKER_FORMATS[format].page, margin: 0, title: 'Наклейки' },
    LAYOUTS_KEPT_PAGES,
  );
  await drawStickers(doc, orders, format, onLabel);
  await end();
}

async function drawStickers(
  doc: Pdf,
  orders: Iterable<StickerOrder>,
  format: StickerFormat,
  onLabel?: () => void,
): Promise<void> {
  const spec = STICKER_FORMATS[format];
  const [columns, rows] = spec.grid;
  const cellWidth = spec.page[0] / columns;
  const cellHeight = spec.page[1] / rows;
  const perPage = columns * rows;
  let slot = 0;
  for (const label of labelsOf(orders)) {
    if (slot % perPage === 0) {
      doc.addPage({ size: spec.page, margin: 0 });
      if (perPage > 1) drawCutLines(doc, spec, columns, rows);
    }
    const cell = slot % perPage;
    drawLabel(
      doc,
      label,
      (cell % columns) * cellWidth,
      Math.floor(cell / columns) * cellHeight,
      cellWidth,
      cellHeight,
      spec,
    );
    slot += 1;
    onLabel?.();
    // Hundreds of labels are a second of CPU: let the server answer other requests meanwhile.
    if (slot % LABELS_BETWEEN_YIELDS === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  if (slot === 0) doc.addPage({ size: spec.page, margin: 0 });
}

function drawCutLines(doc: Pdf, spec: FormatSpec, columns: number, rows: number): void {
  const [width, height] = spec.page;
  doc.save().lineWidth(0.5).strokeColor('#888888').dash(4, { space: 4 });
  for (let column = 1; column < columns; column += 1)
    doc.moveTo((width / columns) * column, 0).lineTo((width / columns) * column, height);
  for (let row = 1; row < rows; row += 1) doc.moveTo(0, (height / rows) * row).lineTo(width, (height / rows) * row);
  doc.stroke().undash().restore();
}

/** A ZIP holding one PDF per format (what the contract answers when no `type` is given). */
export async function renderStickerZip(orders: readonly StickerOrder[]): Promise<Buffer> {
  const formats: StickerFormat[] = [1, 2, 3];
  const zip = new (archiver().ZipArchive)({ store: true });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    zip.on('data', (chunk: Buffer) => chunks.push(chunk));
    zip.on('end', () => resolve(Buffer.concat(chunks)));
    zip.on('error', reject);
  });
  for (const format of formats) {
    // PDFs are already deflated: storing them saves the time a second compression would take.
    zip.append(await renderStickers(orders, format), { name: STICKER_FORMATS[format].fileName });
  }
  await zip.finalize();
  return done;
}

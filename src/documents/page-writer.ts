/** Flowing A4 documents (acts, waybills, statements): headings, text, tables that break across pages. */
import { code128, drawBarcode } from './barcode.js';
import { A4, FONT, mm, type Pdf } from './pdf.js';

const BARCODE_HEIGHT = 34;
const BARCODE_WIDTH = 230;

export interface TableColumn<Row> {
  header: string;
  /** Share of the table width; shares are normalised. */
  share: number;
  align?: 'left' | 'right' | 'center';
  value(row: Row, index: number): string;
}

const CELL_PADDING = 3;

/** Page margin of flowing documents; give it to openDocument too, for pages pdfkit adds itself. */
export const PAGE_MARGIN = mm(15);

/** Writes top to bottom on A4 pages, starting a new page when the next block does not fit. */
export class PageWriter {
  readonly margin = PAGE_MARGIN;
  y = 0;

  constructor(
    readonly doc: Pdf,
    private readonly landscape = false,
  ) {
    this.newPage();
  }

  get width(): number {
    return (this.landscape ? A4.height : A4.width) - 2 * this.margin;
  }

  private get bottom(): number {
    return (this.landscape ? A4.width : A4.height) - this.margin;
  }

  newPage(): void {
    this.doc.addPage({ size: this.landscape ? [A4.height, A4.width] : [A4.width, A4.height], margin: this.margin });
    this.y = this.margin;
  }

  /** Starts a new page unless `height` points still fit on this one. */
  ensure(height: number): void {
    if (this.y + height > this.bottom) this.newPage();
  }

  text(
    value: string,
    options: { size?: number; bold?: boolean; align?: 'left' | 'center' | 'right'; gapAfter?: number } = {},
  ): void {
    const size = options.size ?? 10;
    this.doc.font(options.bold ? FONT.bold : FONT.regular).fontSize(size);
    const height = this.doc.heightOfString(value, { width: this.width });
    this.ensure(height);
    this.doc.text(value, this.margin, this.y, { width: this.width, align: options.align ?? 'left' });
    // A text longer than a page flows on to pages pdfkit adds: continue under its last line.
    this.y = this.doc.y + (options.gapAfter ?? size * 0.3);
  }

  heading(value: string): void {
    this.text(value, { size: 14, bold: true, align: 'center', gapAfter: 8 });
  }

  /** Label: value pairs, one per line. */
  fields(pairs: Array<[string, string]>, size = 10): void {
    for (const [label, value] of pairs) if (value !== '') this.text(`${label}: ${value}`, { size, gapAfter: 2 });
    this.y += 4;
  }

  gap(points: number): void {
    this.y += points;
  }

  /** A bordered table; the header row is repeated on every page it spans. `totals` is a last bold row. */
  table<Row>(
    columns: TableColumn<Row>[],
    rows: readonly Row[],
    options: { size?: number; totals?: string[] } = {},
  ): void {
    const table = this.openTable(columns, options.size);
    rows.forEach((row, index) => table.row(row, index));
    table.close(options.totals);
  }

  /** `table` of rows pulled one at a time (a database read in pages): no row is held after it is drawn. */
  async streamedTable<Row>(
    columns: TableColumn<Row>[],
    rows: AsyncIterable<Row>,
    options: { size?: number; totals?: () => string[] } = {},
  ): Promise<void> {
    const table = this.openTable(columns, options.size);
    let index = 0;
    for await (const row of rows) table.row(row, index++);
    table.close(options.totals?.());
  }

  /** Draws the header now; then each row (the header again on every new page) and a bold closing row. */
  private openTable<Row>(
    columns: TableColumn<Row>[],
    size = 8.5,
  ): { row(row: Row, index: number): void; close(totals?: string[]): void } {
    const totalShare = columns.reduce((sum, column) => sum + column.share, 0);
    const widths = columns.map((column) => (column.share / totalShare) * this.width);
    const header = columns.map((column) => column.header);

    const measure = (cells: string[], bold: boolean): number => {
      this.doc.font(bold ? FONT.bold : FONT.regular).fontSize(size);
      let height = 0;
      cells.forEach((cell, index) => {
        height = Math.max(height, this.doc.heightOfString(cell || ' ', { width: widths[index] - 2 * CELL_PADDING }));
      });
      return height + 2 * CELL_PADDING;
    };
    const draw = (cells: string[], bold: boolean, height: number, shaded: boolean): void => {
      let x = this.margin;
      if (shaded) this.doc.save().rect(this.margin, this.y, this.width, height).fillColor('#eeeeee').fill().restore();
      this.doc
        .font(bold ? FONT.bold : FONT.regular)
        .fontSize(size)
        .fillColor('black');
      cells.forEach((cell, index) => {
        this.doc.text(cell, x + CELL_PADDING, this.y + CELL_PADDING, {
          width: widths[index] - 2 * CELL_PADDING,
          align: shaded ? 'left' : (columns[index].align ?? 'left'),
        });
        this.doc.rect(x, this.y, widths[index], height);
        x += widths[index];
      });
      this.doc.lineWidth(0.5).strokeColor('black').stroke();
      this.y += height;
    };
    const headerHeight = measure(header, true);
    const drawHeader = (): void => draw(header, true, headerHeight, true);
    const drawRow = (cells: string[], bold: boolean): void => {
      const height = measure(cells, bold);
      if (this.y + height > this.bottom) {
        this.newPage();
        drawHeader();
      }
      draw(cells, bold, height, false);
    };
    this.ensure(headerHeight * 2);
    drawHeader();
    return {
      row: (row, index) =>
        drawRow(
          columns.map((column) => column.value(row, index)),
          false,
        ),
      close: (totals) => {
        if (totals) drawRow(totals, true);
        this.y += 8;
      },
    };
  }

  /** Signature lines: "Сдал: ______ / ______ /", kept together on one page. */
  /** A Code128 with a caption above and its text under it; nothing when Code128 cannot carry the text. */
  barcode(text: string, caption: string): void {
    const pattern = code128(text);
    if (!pattern) return;
    this.ensure(BARCODE_HEIGHT + 30);
    const doc = this.doc;
    doc
      .font(FONT.regular)
      .fontSize(8)
      .fillColor('black')
      .text(caption, this.margin, this.y, { width: this.width, lineBreak: false, ellipsis: true });
    drawBarcode(doc, pattern, this.margin, this.y + 12, BARCODE_WIDTH, BARCODE_HEIGHT);
    doc
      .font(FONT.regular)
      .fontSize(8)
      .text(text, this.margin, this.y + 14 + BARCODE_HEIGHT, {
        width: BARCODE_WIDTH,
        align: 'center',
        lineBreak: false,
      });
    this.y += BARCODE_HEIGHT + 30;
  }

  signatures(parties: string[]): void {
    const lineHeight = 34;
    this.ensure(parties.length * lineHeight + 10);
    this.y += 10;
    const signature = '______________________';
    const name = '____________________________';
    for (const party of parties) {
      const prefix = `${party}: `;
      this.doc
        .font(FONT.regular)
        .fontSize(10)
        .text(`${prefix}${signature} / ${name} /`, this.margin, this.y, { width: this.width, lineBreak: false });
      const signatureX = this.margin + this.doc.widthOfString(prefix);
      const signatureWidth = this.doc.widthOfString(signature);
      const nameX = signatureX + signatureWidth + this.doc.widthOfString(' / ');
      const nameWidth = this.doc.widthOfString(name);
      this.doc.fontSize(7).fillColor('#555555');
      this.doc.text('подпись', signatureX, this.y + 13, { width: signatureWidth, align: 'center', lineBreak: false });
      this.doc.text('расшифровка подписи', nameX, this.y + 13, { width: nameWidth, align: 'center', lineBreak: false });
      this.doc.fillColor('black');
      this.y += lineHeight;
    }
    this.doc.fontSize(10).text('М. П.', this.margin, this.y, { width: this.width });
    this.y += 14;
  }
}

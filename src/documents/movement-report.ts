/**
 * The movement report (contract 4.5): per product and day at one fulfilment warehouse, the
 * opening balance, what was received, shipped, returned and written off, and the closing
 * balance, with totals. Rows come from the caller as an async iterable (read from the
 * database page by page). The xlsx is written by hand, sheet XML streamed row by row into the
 * ZIP with backpressure, so neither the file nor a worksheet is ever held: exceljs's streaming
 * writer kept a worksheet's whole XML until it was zipped (peak RSS up by ~730 MB for the
 * ~730,000 rows of 1M movements, bench/fulfilment.ts). Pure: no database.
 */
import { PassThrough, Readable } from 'node:stream';
import { ZipArchive } from 'archiver';
import { formatDate } from './pdf.js';

/** One product on one day (or a product's total over the period, `date` null). */
export interface MovementReportRow {
  productId: number;
  vendorCode: string;
  name: string;
  /** `YYYY-MM-DD`; null on a product's total row. */
  date: string | null;
  opening: number;
  received: number;
  shipped: number;
  returned: number;
  writtenOff: number;
  closing: number;
}

export interface MovementReportSheet {
  warehouseName: string;
  /** `YYYY-MM-DD` */
  from: string;
  to: string;
  /** Days of each product in order, each product closed by its total row (date null). */
  rows: AsyncIterable<MovementReportRow>;
  /** Rows per worksheet before the report goes on in the next (default ROWS_PER_SHEET). */
  rowsPerSheet?: number;
}

const COLUMNS = [
  { header: 'Артикул', width: 18 },
  { header: 'Товар', width: 40 },
  { header: 'Дата', width: 12 },
  { header: 'Остаток на начало', width: 12 },
  { header: 'Поступило', width: 11 },
  { header: 'Отгружено', width: 11 },
  { header: 'Возвращено', width: 11 },
  { header: 'Списано', width: 11 },
  { header: 'Остаток на конец', width: 12 },
] as const;

const AMOUNTS = ['opening', 'received', 'shipped', 'returned', 'writtenOff', 'closing'] as const;

/**
 * Rows per worksheet: Excel stops at 1,048,576 rows a sheet, so a longer report goes on in
 * the next worksheet.
 */
export const ROWS_PER_SHEET = 1_000_000;

/** Rows gathered into one chunk of sheet XML: few enough to stay small, enough to keep the ZIP busy. */
const ROWS_PER_CHUNK = 500;

/** Style ids of styles.xml: 0 plain, 1 bold, 2 the bold 12 pt title. */
const STYLE = { plain: 0, bold: 1, title: 2 } as const;

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

function escapeXml(text: string): string {
  // control characters other than tab and line breaks are not allowed in XML 1.0
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '').replace(/[&<>"]/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[char] as string);
}

type Cell = string | number | null;

function rowXml(index: number, cells: Cell[], style: number): string {
  let xml = `<row r="${index}">`;
  cells.forEach((value, column) => {
    if (value === null) return;
    const ref = `${String.fromCharCode(65 + column)}${index}`;
    const styled = style === STYLE.plain ? '' : ` s="${style}"`;
    xml += typeof value === 'number' ? `<c r="${ref}"${styled}><v>${value}</v></c>` : `<c r="${ref}"${styled} t="inlineStr"><is><t>${escapeXml(value)}</t></is></c>`;
  });
  return `${xml}</row>`;
}

function sheetName(index: number): string {
  return index === 1 ? 'Движение товаров' : `Движение товаров ${index}`;
}

function workbookParts(sheets: number): Array<{ name: string; xml: string }> {
  const indexes = Array.from({ length: sheets }, (_, i) => i + 1);
  return [
    {
      name: '[Content_Types].xml',
      xml: `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>${indexes.map((i) => `<Override PartName="/xl/worksheets/sheet${i}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`).join('')}</Types>`,
    },
    {
      name: '_rels/.rels',
      xml: `${XML_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    },
    {
      name: 'xl/workbook.xml',
      xml: `${XML_HEAD}<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheets>${indexes.map((i) => `<sheet name="${escapeXml(sheetName(i))}" sheetId="${i}" r:id="rId${i}"/>`).join('')}</sheets></workbook>`,
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      xml: `${XML_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${indexes.map((i) => `<Relationship Id="rId${i}" Type="${REL_NS}/worksheet" Target="worksheets/sheet${i}.xml"/>`).join('')}<Relationship Id="rId${sheets + 1}" Type="${REL_NS}/styles" Target="styles.xml"/></Relationships>`,
    },
    {
      name: 'xl/styles.xml',
      xml: `${XML_HEAD}<styleSheet xmlns="${MAIN_NS}"><fonts count="3"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="12"/><name val="Calibri"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="3"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/><xf numFmtId="0" fontId="2" fillId="0" borderId="0" xfId="0" applyFont="1"/></cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`,
    },
  ];
}

/** Appends a stream to the ZIP and waits until the ZIP has taken all of it. */
async function appendEntry(zip: ZipArchive, source: Readable | string, name: string): Promise<void> {
  const entered = new Promise<void>((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    zip.once('error', onError);
    zip.once('entry', () => {
      zip.off('error', onError);
      resolve();
    });
  });
  zip.append(source, { name });
  await entered;
}

/** Writes one xlsx into `out` and ends it. */
export async function writeMovementReport(out: NodeJS.WritableStream, sheet: MovementReportSheet): Promise<void> {
  const zip = new ZipArchive({ zlib: { level: 6 } });
  const done = new Promise<void>((resolve, reject) => {
    out.on('finish', resolve);
    out.on('close', resolve);
    out.on('error', reject);
    zip.on('error', reject);
  });
  zip.pipe(out);
  const perSheet = sheet.rowsPerSheet ?? ROWS_PER_SHEET;
  const rows = sheet.rows[Symbol.asyncIterator]();
  let next = await rows.next();
  const grand = { opening: 0, received: 0, shipped: 0, returned: 0, writtenOff: 0, closing: 0 };
  let sheets = 0;

  // One worksheet's XML, made as the ZIP asks for it: the rows are read from the database only as fast as the file is written.
  async function* worksheetXml(index: number): AsyncGenerator<Buffer> {
    const cols = COLUMNS.map((column, i) => `<col min="${i + 1}" max="${i + 1}" width="${column.width}" customWidth="1"/>`).join('');
    const title = `Движение товаров: ${sheet.warehouseName}, ${formatDate(sheet.from)} — ${formatDate(sheet.to)}${index > 1 ? ` (продолжение, лист ${index})` : ''}`;
    let chunk =
      `${XML_HEAD}<worksheet xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheetViews><sheetView workbookViewId="0"><pane ySplit="3" topLeftCell="A4" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>` +
      `<cols>${cols}</cols><sheetData>${rowXml(1, [title], STYLE.title)}${rowXml(3, COLUMNS.map((column) => column.header), STYLE.bold)}`;
    let rowIndex = 3;
    let written = 0;
    while (!next.done && written < perSheet) {
      const row = next.value;
      const total = row.date === null;
      if (total) for (const key of AMOUNTS) grand[key] += row[key];
      rowIndex += 1;
      written += 1;
      chunk += rowXml(rowIndex, [row.vendorCode, row.name, total ? 'Итого' : formatDate(row.date as string), ...AMOUNTS.map((key) => row[key])], total ? STYLE.bold : STYLE.plain);
      if (written % ROWS_PER_CHUNK === 0) {
        yield Buffer.from(chunk, 'utf8');
        chunk = '';
      }
      next = await rows.next();
    }
    if (next.done) chunk += rowXml(rowIndex + 1, ['Итого по складу', null, null, ...AMOUNTS.map((key) => grand[key])], STYLE.bold);
    yield Buffer.from(`${chunk}</sheetData></worksheet>`, 'utf8');
  }

  do {
    sheets += 1;
    await appendEntry(zip, Readable.from(worksheetXml(sheets), { objectMode: false }), `xl/worksheets/sheet${sheets}.xml`);
  } while (!next.done);
  for (const part of workbookParts(sheets)) await appendEntry(zip, part.xml, part.name);
  await zip.finalize();
  await done;
}

/** Several warehouses: one xlsx each, in a ZIP written into `out`. */
export async function writeMovementReportZip(out: NodeJS.WritableStream, sheets: Array<{ fileName: string; sheet: MovementReportSheet }>): Promise<void> {
  const zip = new ZipArchive({ zlib: { level: 6 } });
  const done = new Promise<void>((resolve, reject) => {
    out.on('finish', resolve);
    out.on('close', resolve);
    out.on('error', reject);
    zip.on('error', reject);
  });
  zip.pipe(out);
  for (const { fileName, sheet } of sheets) {
    const entry = new PassThrough();
    const entered = new Promise<void>((resolve, reject) => {
      zip.once('entry', () => resolve());
      zip.once('error', reject);
    });
    zip.append(entry, { name: fileName });
    await writeMovementReport(entry, sheet);
    await entered;
  }
  await zip.finalize();
  await done;
}

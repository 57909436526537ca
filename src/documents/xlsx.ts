/**
 * The one xlsx writer of the service (movement report, analytical and agent reports). The
 * workbook is written by hand: each worksheet's XML is made row by row as the ZIP (archiver)
 * asks for it, so neither the file nor a worksheet is held, and rows are pulled from their
 * async iterable (a database read in keyset pages) only as fast as the file is written.
 * exceljs's streaming writer kept a worksheet's whole XML until it was zipped (peak RSS up by
 * ~730 MB for ~730,000 rows, bench/fulfilment.ts). Pure: no database.
 *
 * Cells are typed by their column: text, integers, numbers, money (kopecks in, a number with
 * two decimals out, exact), dates (`YYYY-MM-DD`) and local date-times (`YYYY-MM-DDTHH:MM[:SS]`)
 * as real Excel dates (serial numbers with a date format).
 */
import { PassThrough, Readable } from 'node:stream';
import type { ZipArchive } from 'archiver';
import { onFirstUse } from '../platform/lazy-require.js';

const archiver = onFirstUse<typeof import('archiver')>('archiver');

export type XlsxCellKind = 'text' | 'integer' | 'number' | 'money' | 'date' | 'datetime';

export interface XlsxColumn {
  header: string;
  width: number;
  kind: XlsxCellKind;
}

/** A cell: text, a number (money columns take kopecks), a date text for date columns, or empty. */
export type XlsxValue = string | number | null;

export interface XlsxRow {
  cells: XlsxValue[];
  bold?: boolean;
}

export interface XlsxSheet {
  /** Worksheet name (at most 31 characters); a continuation sheet gets " 2", " 3"... */
  name: string;
  /** Row 1, bold and larger. */
  title: string;
  /** Lines under the title: the filters the report was made with. */
  filters?: string[];
  columns: readonly XlsxColumn[];
  rows: AsyncIterable<XlsxRow>;
  /** The closing row, asked for once every row was written (totals of the whole sheet). */
  totals?: () => XlsxValue[];
  /** Rows per worksheet before the sheet goes on in the next (default ROWS_PER_SHEET). */
  rowsPerSheet?: number;
}

/**
 * Rows per worksheet: Excel stops at 1,048,576 rows a sheet, so a longer report goes on in
 * the next worksheet.
 */
export const ROWS_PER_SHEET = 1_000_000;

/** Rows gathered into one chunk of sheet XML: few enough to stay small, enough to keep the ZIP busy. */
const ROWS_PER_CHUNK = 500;

/** Style ids of styles.xml (cellXfs order). */
const STYLE = {
  plain: 0,
  bold: 1,
  title: 2,
  date: 3,
  datetime: 4,
  money: 5,
  boldMoney: 6,
  boldDate: 7,
  number: 8,
  boldNumber: 9,
} as const;

export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

function escapeXml(text: string): string {
  // control characters other than tab and line breaks are not allowed in XML 1.0
  // eslint-disable-next-line no-control-regex
  return text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '')
    .replace(/[&<>"]/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[char] as string);
}

/** Kopecks as an exact decimal text of roubles: 12345 -> "123.45", -5 -> "-0.05". */
export function kopecksAsDecimal(kopecks: number): string {
  const sign = kopecks < 0 ? '-' : '';
  const absolute = Math.abs(Math.round(kopecks));
  return `${sign}${Math.floor(absolute / 100)}.${String(absolute % 100).padStart(2, '0')}`;
}

const EPOCH_1899 = Date.UTC(1899, 11, 30);

/** `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM[:SS]` (a wall-clock time) as an Excel serial date. */
export function excelSerial(local: string): number {
  const [date, time = '00:00:00'] = local.split('T');
  const [hours, minutes, seconds = '0'] = time.split(':');
  const day = (Date.parse(`${date}T00:00:00Z`) - EPOCH_1899) / 86_400_000;
  const fraction = (Number(hours) * 3600 + Number(minutes) * 60 + Math.floor(Number(seconds))) / 86_400;
  return Math.round((day + fraction) * 1e8) / 1e8;
}

function columnRef(index: number): string {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

function textCell(ref: string, value: string, style: number): string {
  const styled = style === STYLE.plain ? '' : ` s="${style}"`;
  return `<c r="${ref}"${styled} t="inlineStr"><is><t>${escapeXml(value)}</t></is></c>`;
}

function numberCell(ref: string, value: string | number, style: number): string {
  const styled = style === STYLE.plain ? '' : ` s="${style}"`;
  return `<c r="${ref}"${styled}><v>${value}</v></c>`;
}

function cellXml(ref: string, value: XlsxValue, kind: XlsxCellKind, bold: boolean): string {
  if (value === null) return '';
  if (typeof value === 'string' && (kind === 'date' || kind === 'datetime') && /^\d{4}-\d{2}-\d{2}/.test(value)) {
    return numberCell(ref, excelSerial(value), kind === 'date' ? (bold ? STYLE.boldDate : STYLE.date) : STYLE.datetime);
  }
  if (typeof value === 'string') return textCell(ref, value, bold ? STYLE.bold : STYLE.plain);
  if (kind === 'money') return numberCell(ref, kopecksAsDecimal(value), bold ? STYLE.boldMoney : STYLE.money);
  if (kind === 'number') return numberCell(ref, value, bold ? STYLE.boldNumber : STYLE.number);
  return numberCell(ref, value, bold ? STYLE.bold : STYLE.plain);
}

function rowXml(index: number, cells: readonly XlsxValue[], columns: readonly XlsxColumn[], bold: boolean): string {
  let xml = `<row r="${index}">`;
  cells.forEach((value, column) => {
    xml += cellXml(`${columnRef(column)}${index}`, value, columns[column]?.kind ?? 'text', bold);
  });
  return `${xml}</row>`;
}

const STYLES_XML =
  `${XML_HEAD}<styleSheet xmlns="${MAIN_NS}">` +
  '<numFmts count="2"><numFmt numFmtId="164" formatCode="dd\\.mm\\.yyyy"/><numFmt numFmtId="165" formatCode="dd\\.mm\\.yyyy\\ hh:mm"/></numFmts>' +
  '<fonts count="3"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="12"/><name val="Calibri"/></font></fonts>' +
  '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
  '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
  '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
  '<cellXfs count="10">' +
  '<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>' +
  '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>' +
  '<xf numFmtId="0" fontId="2" fillId="0" borderId="0" xfId="0" applyFont="1"/>' +
  '<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
  '<xf numFmtId="165" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
  '<xf numFmtId="4" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
  '<xf numFmtId="4" fontId="1" fillId="0" borderId="0" xfId="0" applyNumberFormat="1" applyFont="1"/>' +
  '<xf numFmtId="164" fontId="1" fillId="0" borderId="0" xfId="0" applyNumberFormat="1" applyFont="1"/>' +
  '<xf numFmtId="2" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
  '<xf numFmtId="2" fontId="1" fillId="0" borderId="0" xfId="0" applyNumberFormat="1" applyFont="1"/>' +
  '</cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>';

function workbookParts(names: string[]): Array<{ name: string; xml: string }> {
  const indexes = names.map((_, i) => i + 1);
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
      xml: `${XML_HEAD}<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheets>${names.map((name, i) => `<sheet name="${escapeXml(name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join('')}</sheets></workbook>`,
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      xml: `${XML_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${indexes.map((i) => `<Relationship Id="rId${i}" Type="${REL_NS}/worksheet" Target="worksheets/sheet${i}.xml"/>`).join('')}<Relationship Id="rId${names.length + 1}" Type="${REL_NS}/styles" Target="styles.xml"/></Relationships>`,
    },
    { name: 'xl/styles.xml', xml: STYLES_XML },
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

/** A ZIP piped into `out`, and a promise of `out` finishing. */
function openZip(out: NodeJS.WritableStream): { zip: ZipArchive; done: Promise<void> } {
  const zip = new (archiver().ZipArchive)({ zlib: { level: 6 } });
  const done = new Promise<void>((resolve, reject) => {
    out.on('finish', resolve);
    out.on('close', resolve);
    out.on('error', reject);
    zip.on('error', reject);
  });
  zip.pipe(out);
  return { zip, done };
}

function continuationName(name: string, part: number): string {
  const suffix = part > 1 ? ` ${part}` : '';
  return `${name.replace(/[\\/?*[\]:]/g, ' ').slice(0, 31 - suffix.length)}${suffix}`;
}

/** Writes one workbook of the given sheets into `out` and ends it. */
export async function writeWorkbook(out: NodeJS.WritableStream, sheets: readonly XlsxSheet[]): Promise<void> {
  const { zip, done } = openZip(out);
  const names: string[] = [];
  for (const sheet of sheets) {
    const perSheet = sheet.rowsPerSheet ?? ROWS_PER_SHEET;
    const rows = sheet.rows[Symbol.asyncIterator]();
    let next = await rows.next();
    let part = 0;
    const filters = sheet.filters ?? [];
    const headerRow = filters.length + 3;

    // One worksheet's XML, made as the ZIP asks for it.
    async function* worksheetXml(): AsyncGenerator<Buffer> {
      const cols = sheet.columns
        .map((column, i) => `<col min="${i + 1}" max="${i + 1}" width="${column.width}" customWidth="1"/>`)
        .join('');
      const title = part > 1 ? `${sheet.title} (продолжение, лист ${part})` : sheet.title;
      let chunk =
        `${XML_HEAD}<worksheet xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheetViews><sheetView workbookViewId="0"><pane ySplit="${headerRow}" topLeftCell="A${headerRow + 1}" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>` +
        `<cols>${cols}</cols><sheetData><row r="1">${textCell('A1', title, STYLE.title)}</row>`;
      filters.forEach((line, i) => {
        chunk += `<row r="${i + 2}">${textCell(`A${i + 2}`, line, STYLE.plain)}</row>`;
      });
      chunk += `<row r="${headerRow}">${sheet.columns.map((column, i) => textCell(`${columnRef(i)}${headerRow}`, column.header, STYLE.bold)).join('')}</row>`;
      let rowIndex = headerRow;
      let written = 0;
      while (!next.done && written < perSheet) {
        rowIndex += 1;
        written += 1;
        chunk += rowXml(rowIndex, next.value.cells, sheet.columns, next.value.bold === true);
        if (written % ROWS_PER_CHUNK === 0) {
          yield Buffer.from(chunk, 'utf8');
          chunk = '';
        }
        next = await rows.next();
      }
      if (next.done && sheet.totals) chunk += rowXml(rowIndex + 1, sheet.totals(), sheet.columns, true);
      yield Buffer.from(`${chunk}</sheetData></worksheet>`, 'utf8');
    }

    do {
      part += 1;
      names.push(continuationName(sheet.name, part));
      await appendEntry(
        zip,
        Readable.from(worksheetXml(), { objectMode: false }),
        `xl/worksheets/sheet${names.length}.xml`,
      );
    } while (!next.done);
  }
  for (const entry of workbookParts(names)) await appendEntry(zip, entry.xml, entry.name);
  await zip.finalize();
  await done;
}

/** Several workbooks, each written by `write`, as entries of one ZIP written into `out`. */
export async function writeWorkbookZip(
  out: NodeJS.WritableStream,
  entries: Array<{ fileName: string; write: (entry: NodeJS.WritableStream) => Promise<void> }>,
): Promise<void> {
  const { zip, done } = openZip(out);
  for (const { fileName, write } of entries) {
    const entry = new PassThrough();
    const entered = new Promise<void>((resolve, reject) => {
      zip.once('entry', () => resolve());
      zip.once('error', reject);
    });
    zip.append(entry, { name: fileName });
    await write(entry);
    await entered;
  }
  await zip.finalize();
  await done;
}

/**
 * The movement report (contract 4.5): per product and day at one fulfilment warehouse, the
 * opening balance, what was received, shipped, returned and written off, and the closing
 * balance, with totals. Rows come from the caller as an async iterable (read from the
 * database page by page) and go through exceljs's streaming writer into the output stream,
 * so the finished file is never held. exceljs itself keeps a worksheet's uncompressed XML
 * until the worksheet is zipped (measured, bench/fulfilment.ts: peak RSS up by ~730 MB for
 * the ~730,000 rows of 1M movements); a hand-written sheet stream with backpressure would
 * bring that down. Pure: no database.
 */
import { PassThrough } from 'node:stream';
import { ZipArchive } from 'archiver';
import ExcelJS from 'exceljs';
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
  { header: 'Артикул', key: 'vendorCode', width: 18 },
  { header: 'Товар', key: 'name', width: 40 },
  { header: 'Дата', key: 'date', width: 12 },
  { header: 'Остаток на начало', key: 'opening', width: 12 },
  { header: 'Поступило', key: 'received', width: 11 },
  { header: 'Отгружено', key: 'shipped', width: 11 },
  { header: 'Возвращено', key: 'returned', width: 11 },
  { header: 'Списано', key: 'writtenOff', width: 11 },
  { header: 'Остаток на конец', key: 'closing', width: 12 },
] as const;

/**
 * Rows per worksheet: Excel stops at 1,048,576 rows a sheet, so a longer report goes on in
 * the next worksheet (each committed before the next begins).
 */
export const ROWS_PER_SHEET = 1_000_000;

type SheetWriter = ReturnType<ExcelJS.stream.xlsx.WorkbookWriter['addWorksheet']>;

/** Commits a worksheet and waits until the ZIP has taken its bytes. */
async function commitAndZip(worksheet: SheetWriter): Promise<void> {
  const stream = (worksheet as unknown as { stream?: NodeJS.EventEmitter }).stream;
  const zipped = stream ? new Promise<void>((resolve) => stream.once('zipped', () => resolve())) : Promise.resolve();
  worksheet.commit();
  await zipped;
}

/** Writes one xlsx into `out` and ends it. */
export async function writeMovementReport(out: NodeJS.WritableStream, sheet: MovementReportSheet): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out as unknown as import('node:stream').Stream, useStyles: true, useSharedStrings: false });
  let sheets = 0;
  let rowsInSheet = 0;
  const open = (): SheetWriter => {
    sheets += 1;
    rowsInSheet = 0;
    const worksheet = workbook.addWorksheet(sheets === 1 ? 'Движение товаров' : `Движение товаров ${sheets}`, { views: [{ state: 'frozen', ySplit: 3 }] });
    worksheet.columns = COLUMNS.map((column) => ({ key: column.key, width: column.width }));
    const title = worksheet.addRow([`Движение товаров: ${sheet.warehouseName}, ${formatDate(sheet.from)} — ${formatDate(sheet.to)}${sheets > 1 ? ` (продолжение, лист ${sheets})` : ''}`]);
    title.font = { bold: true, size: 12 };
    title.commit();
    worksheet.addRow([]).commit();
    const header = worksheet.addRow(COLUMNS.map((column) => column.header));
    header.font = { bold: true };
    header.commit();
    return worksheet;
  };
  let worksheet = open();
  const grand = { opening: 0, received: 0, shipped: 0, returned: 0, writtenOff: 0, closing: 0 };
  for await (const row of sheet.rows) {
    if (rowsInSheet >= (sheet.rowsPerSheet ?? ROWS_PER_SHEET)) {
      await commitAndZip(worksheet);
      worksheet = open();
    }
    const line = worksheet.addRow({ ...row, date: row.date === null ? 'Итого' : formatDate(row.date) });
    if (row.date === null) {
      line.font = { bold: true };
      for (const key of Object.keys(grand) as Array<keyof typeof grand>) grand[key] += row[key];
    }
    line.commit();
    rowsInSheet += 1;
  }
  const total = worksheet.addRow({ vendorCode: 'Итого по складу', ...grand });
  total.font = { bold: true };
  total.commit();
  await commitAndZip(worksheet);
  await workbook.commit();
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

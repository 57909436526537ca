/**
 * The movement report (contract 4.5): per product and day at one fulfilment warehouse, the
 * opening balance, what was received, shipped, returned and written off, and the closing
 * balance, with totals. Written row by row with exceljs's streaming writer straight into
 * the output stream: a year of movements of 2000 products is never held in memory. Pure: the
 * rows come from the caller.
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

/** Writes one xlsx into `out` and ends it. */
export async function writeMovementReport(out: NodeJS.WritableStream, sheet: MovementReportSheet): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out as unknown as import('node:stream').Stream, useStyles: true, useSharedStrings: false });
  const worksheet = workbook.addWorksheet('Движение товаров', { views: [{ state: 'frozen', ySplit: 3 }] });
  worksheet.columns = COLUMNS.map((column) => ({ key: column.key, width: column.width }));
  const title = worksheet.addRow([`Движение товаров: ${sheet.warehouseName}, ${formatDate(sheet.from)} — ${formatDate(sheet.to)}`]);
  title.font = { bold: true, size: 12 };
  title.commit();
  worksheet.addRow([]).commit();
  const header = worksheet.addRow(COLUMNS.map((column) => column.header));
  header.font = { bold: true };
  header.commit();
  const grand = { opening: 0, received: 0, shipped: 0, returned: 0, writtenOff: 0, closing: 0 };
  for await (const row of sheet.rows) {
    const line = worksheet.addRow({ ...row, date: row.date === null ? 'Итого' : formatDate(row.date) });
    if (row.date === null) {
      line.font = { bold: true };
      for (const key of Object.keys(grand) as Array<keyof typeof grand>) grand[key] += row[key];
    }
    line.commit();
  }
  const total = worksheet.addRow({ vendorCode: 'Итого по складу', ...grand });
  total.font = { bold: true };
  total.commit();
  worksheet.commit();
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

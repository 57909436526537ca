/**
 * The movement report (contract 4.5): per product and day at one fulfilment warehouse, the
 * opening balance, what was received, shipped, returned and written off, and the closing
 * balance, with totals. Rows come from the caller as an async iterable (read from the
 * database page by page) and are streamed into the workbook by the one xlsx writer
 * (documents/xlsx.ts). Pure: no database.
 */
import { formatDate } from './pdf.js';
import { writeWorkbook, writeWorkbookZip, type XlsxColumn, type XlsxRow } from './xlsx.js';

export { ROWS_PER_SHEET } from './xlsx.js';

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
  /** Returned units put into the defect stock at inspection (not on hand: the closing balance leaves them out). */
  defective: number;
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

const COLUMNS: XlsxColumn[] = [
  { header: 'Артикул', width: 18, kind: 'text' },
  { header: 'Товар', width: 40, kind: 'text' },
  // text DD.MM.YYYY, as this report has always had it (the total rows say "Итого" in this column)
  { header: 'Дата', width: 12, kind: 'text' },
  { header: 'Остаток на начало', width: 12, kind: 'integer' },
  { header: 'Поступило', width: 11, kind: 'integer' },
  { header: 'Отгружено', width: 11, kind: 'integer' },
  { header: 'Возвращено', width: 11, kind: 'integer' },
  { header: 'Списано', width: 11, kind: 'integer' },
  { header: 'В брак', width: 11, kind: 'integer' },
  { header: 'Остаток на конец', width: 12, kind: 'integer' },
];

const AMOUNTS = ['opening', 'received', 'shipped', 'returned', 'writtenOff', 'defective', 'closing'] as const;

/** Writes one xlsx into `out` and ends it. */
export async function writeMovementReport(out: NodeJS.WritableStream, sheet: MovementReportSheet): Promise<void> {
  const grand = { opening: 0, received: 0, shipped: 0, returned: 0, writtenOff: 0, defective: 0, closing: 0 };
  async function* rows(): AsyncGenerator<XlsxRow> {
    for await (const row of sheet.rows) {
      const total = row.date === null;
      if (total) for (const key of AMOUNTS) grand[key] += row[key];
      yield {
        cells: [
          row.vendorCode,
          row.name,
          total ? 'Итого' : formatDate(row.date as string),
          ...AMOUNTS.map((key) => row[key]),
        ],
        bold: total,
      };
    }
  }
  await writeWorkbook(out, [
    {
      name: 'Движение товаров',
      title: `Движение товаров: ${sheet.warehouseName}, ${formatDate(sheet.from)} — ${formatDate(sheet.to)}`,
      columns: COLUMNS,
      rows: rows(),
      totals: () => ['Итого по складу', null, null, ...AMOUNTS.map((key) => grand[key])],
      ...(sheet.rowsPerSheet ? { rowsPerSheet: sheet.rowsPerSheet } : {}),
    },
  ]);
}

/** Several warehouses: one xlsx each, in a ZIP written into `out`. */
export async function writeMovementReportZip(
  out: NodeJS.WritableStream,
  sheets: Array<{ fileName: string; sheet: MovementReportSheet }>,
): Promise<void> {
  await writeWorkbookZip(
    out,
    sheets.map(({ fileName, sheet }) => ({ fileName, write: (entry) => writeMovementReport(entry, sheet) })),
  );
}

/**
 * The products list as an xlsx, written row by row into a stream (exceljs' streaming writer):
 * 100k products never sit in memory as one workbook. The columns are the import's, in its
 * order, so an exported file can be edited and imported back; `quantity` (available across
 * fulfilment warehouses) follows them and the import ignores it. Pure: the rows come from the caller.
 */
import { PassThrough, type Readable } from 'node:stream';
import type ExcelJS from 'exceljs';
import { onFirstUse } from '../../../platform/lazy-require.js';
import type { Product } from '../schemas.js';
import { IMPORT_COLUMNS, IMPORT_SHEET_NAME } from './layout.js';

const excel = onFirstUse<typeof ExcelJS>('exceljs');

type Cell = string | number | null;

/** The style of every data cell: none (exceljs' default font and General format). */
const PLAIN_CELL: Partial<ExcelJS.Style> = Object.freeze({});

/** One product's cell under an import column key ('dimensions.width' reads the nested side). */
function cellOf(product: Product, key: string): Cell {
  switch (key) {
    case 'dimensions.width':
      return product.dimensions.width;
    case 'dimensions.height':
      return product.dimensions.height;
    case 'dimensions.length':
      return product.dimensions.length;
    case 'barcodes':
      return product.barcodes.join(', ');
    case 'markCodeRequired':
      return product.markCodeRequired ? 1 : 0;
    case 'batchAccounting':
      return product.batchAccounting ? 1 : 0;
    default: {
      const value = (product as unknown as Record<string, unknown>)[key];
      return typeof value === 'string' || typeof value === 'number' ? value : null;
    }
  }
}

/**
 * Starts writing and returns the stream at once; `pages` yields the products a page at a
 * time. An error while reading ends the stream with that error (the answer is cut short).
 */
export function streamProductsXlsx(pages: AsyncIterable<Product[]>): Readable {
  const output = new PassThrough();
  const workbook = new (excel().stream.xlsx.WorkbookWriter)({
    stream: output,
    useStyles: true,
    useSharedStrings: false,
  });
  const sheet = workbook.addWorksheet(IMPORT_SHEET_NAME, { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = [
    ...IMPORT_COLUMNS.map((column) => ({ header: column.key, key: column.key, width: column.width })),
    { header: 'quantity', key: 'quantity', width: 10 },
  ];
  sheet.getRow(1).font = { bold: true };
  const write = async () => {
    for await (const products of pages) {
      for (const product of products) {
        const row = sheet.addRow([...IMPORT_COLUMNS.map((column) => cellOf(product, column.key)), product.quantity]);
        // exceljs gives each cell a style object of its own and renders it to XML to find its id
        // (43% of a 100k export's time); one shared object is looked up once (bench/dashboard-products.ts)
        row.eachCell({ includeEmpty: true }, (cell) => {
          cell.style = PLAIN_CELL;
        });
        row.commit();
      }
    }
    sheet.commit();
    await workbook.commit();
  };
  write().catch((error: unknown) => output.destroy(error instanceof Error ? error : new Error(String(error))));
  return output;
}

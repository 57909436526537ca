/** The import template: an xlsx with the header row, one example row and a sheet of notes. Pure: no DB. */
import type ExcelJS from 'exceljs';
import { onFirstUse } from '../../../platform/lazy-require.js';

const excel = onFirstUse<typeof ExcelJS>('exceljs');
import { IMPORT_COLUMNS, IMPORT_SHEET_NAME, MAX_IMPORT_ROWS } from './layout.js';

export async function renderImportTemplate(): Promise<Buffer> {
  const workbook = new (excel().Workbook)();
  const sheet = workbook.addWorksheet(IMPORT_SHEET_NAME, { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = IMPORT_COLUMNS.map((column) => ({ header: column.key, key: column.key, width: column.width }));
  sheet.getRow(1).font = { bold: true };
  IMPORT_COLUMNS.forEach((column, index) => {
    sheet.getRow(1).getCell(index + 1).note = `${column.required ? 'Required. ' : ''}${column.description}`;
  });
  sheet.addRow(IMPORT_COLUMNS.map((column) => column.example));

  const notes = workbook.addWorksheet('Notes');
  notes.columns = [
    { header: 'column', width: 20 },
    { header: 'required', width: 10 },
    { header: 'meaning', width: 70 },
  ];
  notes.getRow(1).font = { bold: true };
  for (const column of IMPORT_COLUMNS) notes.addRow([column.key, column.required ? 'yes' : '', column.description]);
  notes.addRow([]);
  notes.addRow([
    '',
    '',
    `Products go on the first sheet from row 2, at most ${MAX_IMPORT_ROWS} rows. Row 1 names the columns; their order is free.`,
  ]);
  notes.addRow([
    '',
    '',
    'Send the file base64-encoded as `file` to POST /v2/products/import. Replace the example row with your goods.',
  ]);

  return Buffer.from(await workbook.xlsx.writeBuffer());
}

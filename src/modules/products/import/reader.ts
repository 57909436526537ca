/** Reads an import file into raw rows: field path -> cell value. Pure: no DB, no rules. */
import type ExcelJS from 'exceljs';
import { onFirstUse } from '../../../platform/lazy-require.js';

const excel = onFirstUse<typeof ExcelJS>('exceljs');
import { AppError, badRequest } from '../../../platform/errors.js';
import { unzipBounded, zipStored } from '../../../platform/bounded-zip.js';
import { IMPORT_COLUMNS, TEMPLATE_PATH } from './layout.js';

/**
 * What an import's xlsx may hold once unzipped. A 2000-row file of every column with long names
 * is ~2 MB (its sheet 1.4 MB, its shared strings 0.6 MB); the parser builds ~6 times the XML's
 * size in objects, so 16 MB bounds one import's memory at ~100 MB. A workbook has ~15 parts.
 */
export const IMPORT_ZIP_LIMITS = { maxEntries: 500, maxBytes: 16 * 1024 * 1024 };

export type RawCell = string | number | boolean;

export interface RawRow {
  /** Row number in the xlsx (1-based; products start at 2). */
  rowNumber: number;
  cells: Map<string, RawCell>;
}

/** base64 (or a data: URL) -> bytes; 400 when it is not base64. */
export function decodeBase64File(text: string): Buffer {
  // A form body sent without encoding turns '+' into ' '; base64 never holds spaces.
  const body = text
    .replace(/^data:[^,]*;base64,/i, '')
    .replace(/[\r\n\t]/g, '')
    .replace(/ /g, '+');
  const normalised = body.replace(/-/g, '+').replace(/_/g, '/');
  if (
    normalised.length === 0 ||
    !/^[A-Za-z0-9+/]+={0,2}$/.test(normalised) ||
    normalised.replace(/=+$/, '').length % 4 === 1
  ) {
    throw badRequest(
      'file: must be the xlsx file encoded as base64.',
      [{ field: 'file', message: 'is not base64' }],
      'invalid_file',
    );
  }
  return Buffer.from(normalised, 'base64');
}

function notXlsx(): Error {
  return badRequest(
    'file: is not an xlsx workbook (Excel 2007 or later). Download the template from ' + TEMPLATE_PATH + '.',
    [{ field: 'file', message: 'is not an xlsx file' }],
    'invalid_file',
  );
}

function cellValue(value: ExcelJS.CellValue): RawCell | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string') return value.trim() === '' ? undefined : value.trim();
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'object') {
    if ('richText' in value) return cellValue(value.richText.map((part) => part.text).join(''));
    if ('formula' in value || 'sharedFormula' in value)
      return cellValue((value as ExcelJS.CellFormulaValue).result as ExcelJS.CellValue);
    if ('hyperlink' in value)
      return cellValue((value as ExcelJS.CellHyperlinkValue).text ?? (value as ExcelJS.CellHyperlinkValue).hyperlink);
    if ('error' in value) return undefined;
  }
  return undefined;
}

const KNOWN = new Map(IMPORT_COLUMNS.map((column) => [column.key.toLowerCase(), column.key]));

/** Loads the workbook and returns its non-empty product rows. 400 for a file that is not one. */
export async function readImportRows(bytes: Buffer): Promise<RawRow[]> {
  // Every xlsx is a ZIP: check the signature before handing bytes to the parser.
  if (bytes.length < 4 || bytes.readUInt32LE(0) !== 0x04034b50) throw notXlsx();
  // the zip's own work is bounded first: the parser then reads only what was counted, stored
  const opened = unzipBounded(bytes, IMPORT_ZIP_LIMITS);
  if (!opened.ok) {
    if (opened.problem === 'not_a_zip') throw notXlsx();
    const megabytes = IMPORT_ZIP_LIMITS.maxBytes / 1024 / 1024;
    throw new AppError(
      422,
      'import_too_large',
      `file: the workbook unzips to ${opened.detail}; an import takes at most ${megabytes} MB unzipped in ${IMPORT_ZIP_LIMITS.maxEntries} parts (2000 products make ~2 MB). Keep only the products sheet. Nothing was imported.`,
      [{ field: 'file', message: `unzips to ${opened.detail}` }],
    );
  }
  const workbook = new (excel().Workbook)();
  try {
    await workbook.xlsx.load(Buffer.from(zipStored(opened.entries)) as unknown as ExcelJS.Buffer);
  } catch {
    throw notXlsx();
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) throw notXlsx();

  const columns = new Map<number, string>();
  sheet.getRow(1).eachCell((cell, columnNumber) => {
    const header = cellValue(cell.value);
    const key = typeof header === 'string' ? KNOWN.get(header.toLowerCase()) : undefined;
    if (key) columns.set(columnNumber, key);
  });
  const found = new Set(columns.values());
  const missing = IMPORT_COLUMNS.filter((column) => column.required && !found.has(column.key)).map(
    (column) => column.key,
  );
  if (missing.length > 0) {
    throw badRequest(
      `file: row 1 must name the columns as in the template (${TEMPLATE_PATH}); missing: ${missing.join(', ')}.`,
      missing.map((key) => ({ field: `file.${key}`, message: 'column is missing from row 1' })),
      'invalid_template',
    );
  }

  const rows: RawRow[] = [];
  sheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
    if (rowNumber === 1) return;
    const cells = new Map<string, RawCell>();
    for (const [columnNumber, key] of columns) {
      const value = cellValue(row.getCell(columnNumber).value);
      if (value !== undefined) cells.set(key, value);
    }
    if (cells.size > 0) rows.push({ rowNumber, cells });
  });
  return rows;
}

/** Reading back the xlsx files the service writes (exceljs reads; the service never writes with it). */
import ExcelJS from 'exceljs';

/** The first worksheet's non-empty rows, each as its cell values from column A. */
export async function sheetRows(bytes: Buffer): Promise<unknown[][]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  const rows: unknown[][] = [];
  workbook.worksheets[0].eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return rows;
}

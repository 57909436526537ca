/**
 * The bill (счёт) of a billing period: the service's and the account's details, every line
 * charged, and the total. Pure: data in, PDF out; the lines are pulled one at a time (a
 * month of 100,000 deliveries is read back in pages) and the pages written into the stream.
 */
import { PAGE_MARGIN, PageWriter, type TableColumn } from './page-writer.js';
import { A4, formatDate, formatMoney, openDocumentInto } from './pdf.js';

export interface BillLine {
  description: string;
  quantity: number;
  /** Kopecks. */
  amount: number;
}

export interface BillInput {
  number: string;
  /** `YYYY-MM-DD`: the issue date. */
  date: string;
  /** The days covered, `YYYY-MM-DD`, both inclusive. */
  periodFirstDay: string;
  periodLastDay: string;
  service: { name: string; inn: string; kpp: string; address: string; bank: string };
  customer: { accountId: number; name: string };
  lines: AsyncIterable<BillLine>;
  /** How many lines there are, and their sum in kopecks (counted as they were gathered). */
  count: number;
  sum: number;
}

const COLUMNS: TableColumn<BillLine>[] = [
  { header: '№', share: 6, align: 'right', value: (_line, index) => String(index + 1) },
  { header: 'Наименование', share: 62, value: (line) => line.description },
  { header: 'Кол-во', share: 12, align: 'right', value: (line) => String(line.quantity) },
  { header: 'Сумма', share: 20, align: 'right', value: (line) => formatMoney(line.amount) },
];

/** Writes the bill's PDF into `out` and ends it. */
export async function renderBill(out: NodeJS.WritableStream, bill: BillInput): Promise<void> {
  const { doc, end } = openDocumentInto(out, {
    size: [A4.width, A4.height],
    margin: PAGE_MARGIN,
    title: `Счёт № ${bill.number}`,
  });
  const writer = new PageWriter(doc);
  writer.heading(`Счёт № ${bill.number} от ${formatDate(bill.date)}`);
  writer.text(`За услуги с ${formatDate(bill.periodFirstDay)} по ${formatDate(bill.periodLastDay)}`, {
    align: 'center',
    gapAfter: 8,
  });
  writer.fields([
    ['Исполнитель', bill.service.name],
    ['ИНН / КПП', `${bill.service.inn} / ${bill.service.kpp}`],
    ['Адрес', bill.service.address],
    ['Банковские реквизиты', bill.service.bank],
  ]);
  writer.fields([['Заказчик', `${bill.customer.name} (аккаунт № ${bill.customer.accountId})`]]);
  await writer.streamedTable(COLUMNS, bill.lines, {
    totals: () => ['', 'Итого', String(bill.count), formatMoney(bill.sum)],
  });
  writer.text(`Всего наименований ${bill.count}, на сумму ${formatMoney(bill.sum)}. НДС не облагается.`, {
    size: 10,
    bold: true,
    gapAfter: 4,
  });
  writer.text(
    'Оплата означает согласие с объёмом оказанных услуг. Счёт выставлен по итогам расчётного периода и не изменяется; исправление оформляется новым документом.',
    { size: 8.5 },
  );
  await end();
}

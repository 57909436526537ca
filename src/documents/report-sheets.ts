/**
 * The sheets of the agent and analytical reports: per report, its columns and how a row of
 * data fills them; totals are summed as rows stream past (never held). Pure: typed rows in,
 * XlsxSheet out (written by documents/xlsx.ts). Money in kopecks, dates `YYYY-MM-DD`,
 * times as wall-clock `YYYY-MM-DDTHH:MM:SS` of the account's zone.
 */
import type { XlsxColumn, XlsxRow, XlsxSheet, XlsxValue } from './xlsx.js';

/** A column and how a row fills it; `sum` columns are added up in the totals row. */
export interface ReportColumn<Row> extends XlsxColumn {
  value(row: Row): XlsxValue;
  sum?: boolean;
}

export interface ReportSheetSpec<Row> {
  name: string;
  title: string;
  filters: string[];
  columns: ReadonlyArray<ReportColumn<Row>>;
}

/** The sheet of a report: rows filled column by column, a totals row ("Итого", the count, the sums). */
export function reportSheet<Row>(spec: ReportSheetSpec<Row>, rows: AsyncIterable<Row>): XlsxSheet {
  const sums = spec.columns.map(() => 0);
  let count = 0;
  async function* filled(): AsyncGenerator<XlsxRow> {
    for await (const row of rows) {
      count += 1;
      const cells = spec.columns.map((column, index) => {
        const value = column.value(row);
        if (column.sum && typeof value === 'number') sums[index] += value;
        return value;
      });
      yield { cells };
    }
  }
  return {
    name: spec.name,
    title: spec.title,
    filters: spec.filters,
    columns: spec.columns,
    rows: filled(),
    totals: () =>
      spec.columns.map((column, index) => (index === 0 ? `Итого: ${count}` : column.sum ? sums[index] : null)),
  };
}

const text = <Row>(header: string, width: number, value: (row: Row) => string | null): ReportColumn<Row> => ({
  header,
  width,
  kind: 'text',
  value,
});
const integer = <Row>(
  header: string,
  width: number,
  value: (row: Row) => number | null,
  sum = false,
): ReportColumn<Row> => ({ header, width, kind: 'integer', value, sum });
const money = <Row>(header: string, value: (row: Row) => number | null): ReportColumn<Row> => ({
  header,
  width: 14,
  kind: 'money',
  value,
  sum: true,
});
const dateTime = <Row>(header: string, value: (row: Row) => string | null): ReportColumn<Row> => ({
  header,
  width: 17,
  kind: 'datetime',
  value,
});
const date = <Row>(header: string, value: (row: Row) => string | null): ReportColumn<Row> => ({
  header,
  width: 12,
  kind: 'date',
  value,
});

/** An order as the order reports show it. */
export interface OrderReportRow {
  id: number;
  cmsId: string | null;
  createdAt: string;
  status: number;
  statusName: string;
  company: string;
  /** 1 pickup point, 2 courier, 3 post */
  deliveryType: number;
  trackNumber: string | null;
  recipient: string;
  city: string | null;
  declared: number;
  cod: number;
  totalPrice: number | null;
  factPrice: number | null;
}

/** How the recipient paid the cash on delivery. */
export type PaidBy = 'cash' | 'card';
const PAID_BY: Record<PaidBy, string> = { cash: 'наличными', card: 'картой' };

const DELIVERY_TYPES: Record<number, string> = { 1: 'ПВЗ', 2: 'Курьер', 3: 'Почта' };

export const ORDER_COLUMNS: ReadonlyArray<ReportColumn<OrderReportRow>> = [
  integer('Заказ', 10, (row) => row.id),
  text('Номер в магазине', 16, (row) => row.cmsId),
  dateTime('Создан', (row) => row.createdAt),
  integer('Код статуса', 8, (row) => row.status),
  text('Статус', 24, (row) => row.statusName),
  text('Служба доставки', 20, (row) => row.company),
  text('Способ', 9, (row) => DELIVERY_TYPES[row.deliveryType] ?? String(row.deliveryType)),
  text('Трек-номер', 18, (row) => row.trackNumber),
  text('Получатель', 24, (row) => row.recipient),
  text('Город', 16, (row) => row.city),
  money('Объявленная ценность', (row) => row.declared),
  money('Наложенный платёж', (row) => row.cod),
  money('Стоимость доставки', (row) => row.totalPrice),
  money('Фактическая стоимость', (row) => row.factPrice),
];

/** Orders of one delivery company (the deliveries-by-company report). */
export interface CompanyReportRow {
  /** A company of the service, or an own delivery method ('{accountId}_{methodId}'). */
  companyId: number | string;
  company: string;
  orders: number;
  delivered: number;
  returned: number;
  canceled: number;
  cod: number;
  totalPrice: number;
  factPrice: number;
}

export const COMPANY_COLUMNS: ReadonlyArray<ReportColumn<CompanyReportRow>> = [
  text('Служба доставки', 26, (row) => row.company),
  text('Код службы', 12, (row) => String(row.companyId)),
  integer('Заказов', 9, (row) => row.orders, true),
  integer('Доставлено', 10, (row) => row.delivered, true),
  integer('Возвраты', 10, (row) => row.returned, true),
  integer('Отменено', 10, (row) => row.canceled, true),
  money('Наложенный платёж', (row) => row.cod),
  money('Стоимость доставки', (row) => row.totalPrice),
  money('Фактическая стоимость', (row) => row.factPrice),
];

/** An order with cash on delivery (the COD report). */
export interface CodReportRow {
  id: number;
  cmsId: string | null;
  createdAt: string;
  status: number;
  statusName: string;
  company: string;
  cod: number;
  /** null while not paid */
  paidBy: PaidBy | null;
  deliveredAt: string | null;
  commission: number;
  /** What the shop receives once paid (0 while not). */
  due: number;
}

export const COD_COLUMNS: ReadonlyArray<ReportColumn<CodReportRow>> = [
  integer('Заказ', 10, (row) => row.id),
  text('Номер в магазине', 16, (row) => row.cmsId),
  dateTime('Создан', (row) => row.createdAt),
  text('Статус', 24, (row) => `${row.status} ${row.statusName}`),
  text('Служба доставки', 20, (row) => row.company),
  money('Наложенный платёж', (row) => row.cod),
  text('Оплата', 10, (row) => (row.paidBy === null ? null : PAID_BY[row.paidBy])),
  dateTime('Вручен', (row) => row.deliveredAt),
  money('Комиссия', (row) => row.commission),
  money('К перечислению', (row) => row.due),
];

/** Goods on hand at a fulfilment warehouse at the end of a day. */
export interface StockReportRow {
  warehouse: string;
  productId: number;
  vendorCode: string;
  name: string;
  markCodeRequired: boolean;
  quantity: number;
}

/** The warehouse and the product, as the stock sheets both show them. */
type ProductAtWarehouse = Pick<StockReportRow, 'warehouse' | 'productId' | 'vendorCode' | 'name' | 'markCodeRequired'>;

function productAtWarehouseColumns<Row extends ProductAtWarehouse>(): Array<ReportColumn<Row>> {
  return [
    text('Склад', 30, (row) => row.warehouse),
    integer('Товар', 9, (row) => row.productId),
    text('Артикул', 18, (row) => row.vendorCode),
    text('Наименование', 36, (row) => row.name),
    text('Маркировка', 10, (row) => (row.markCodeRequired ? 'да' : 'нет')),
  ];
}

export const STOCK_COLUMNS: ReadonlyArray<ReportColumn<StockReportRow>> = [
  ...productAtWarehouseColumns<StockReportRow>(),
  integer('Остаток', 10, (row) => row.quantity, true),
];

/** Units of goods leaving circulation at a fulfilment warehouse (the marking-code write-off report). */
export interface MarkCodeReportRow {
  date: string;
  warehouse: string;
  productId: number;
  vendorCode: string;
  name: string;
  markCodeRequired: boolean;
  orderId: number | null;
  quantity: number;
}

export const MARK_CODE_COLUMNS: ReadonlyArray<ReportColumn<MarkCodeReportRow>> = [
  date('Дата', (row) => row.date),
  ...productAtWarehouseColumns<MarkCodeReportRow>(),
  integer('Заказ', 10, (row) => row.orderId),
  integer('Единиц', 9, (row) => row.quantity, true),
];

/** One order of a COD remittance (agent report 1). */
export interface RemittanceReportRow {
  orderId: number;
  cmsId: string | null;
  trackNumber: string | null;
  deliveredAt: string;
  paidBy: PaidBy;
  collected: number;
  commission: number;
  due: number;
}

export const REMITTANCE_COLUMNS: ReadonlyArray<ReportColumn<RemittanceReportRow>> = [
  integer('Заказ', 10, (row) => row.orderId),
  text('Номер в магазине', 16, (row) => row.cmsId),
  text('Трек-номер', 18, (row) => row.trackNumber),
  dateTime('Вручен', (row) => row.deliveredAt),
  text('Оплата', 10, (row) => PAID_BY[row.paidBy]),
  money('Получено от получателя', (row) => row.collected),
  money('Удержано комиссий', (row) => row.commission),
  money('К перечислению', (row) => row.due),
];

/** One service rendered (agent report 2): a line of the period's bill. */
export interface ServiceReportRow {
  description: string;
  orderId: number | null;
  quantity: number;
  amount: number;
}

export const SERVICE_COLUMNS: ReadonlyArray<ReportColumn<ServiceReportRow>> = [
  text('Услуга', 60, (row) => row.description),
  integer('Заказ', 10, (row) => row.orderId),
  integer('Количество', 11, (row) => row.quantity),
  money('Сумма', (row) => row.amount),
];

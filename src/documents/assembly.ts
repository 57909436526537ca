/**
 * Assembly statement (сборочный лист): per order, the goods a picker takes from the shelves,
 * the boxes to pack into and the shop's comment for assembly.
 */
import { formatAddress } from './format.js';
import { PAGE_MARGIN, PageWriter, type TableColumn } from './page-writer.js';
import { A4, formatDate, openDocument } from './pdf.js';
import type { AssemblyOrder, AssemblyStatementInput, GoodsLine } from './types.js';

export const GOODS_COLUMNS: TableColumn<GoodsLine>[] = [
  { header: '№', share: 5, align: 'right', value: (_line, index) => String(index + 1) },
  { header: 'Товар', share: 45, value: (line) => line.name },
  { header: 'Артикул', share: 17, value: (line) => line.vendorCode ?? '' },
  { header: 'Штрихкод', share: 22, value: (line) => (line.barcodes ?? []).join('\n') },
  { header: 'Кол-во', share: 11, align: 'right', value: (line) => String(line.count) },
];

export function totalCount(goods: readonly GoodsLine[]): number {
  return goods.reduce((total, line) => total + line.count, 0);
}

function assemblyOrder(writer: PageWriter, order: AssemblyOrder, position: number): void {
  // Keep an order's title with at least the head of its table.
  writer.ensure(90);
  const reference = [
    `Заказ № ${order.orderId}`,
    order.cmsId ? `в магазине ${order.cmsId}` : '',
    order.trackNumber ? `трек ${order.trackNumber}` : '',
  ]
    .filter((part) => part !== '')
    .join(' · ');
  writer.text(`${position}. ${reference}`, { size: 11, bold: true, gapAfter: 2 });
  writer.text(`Получатель: ${order.recipientName}${order.company ? ` · ${order.company}` : ''}`, {
    size: 9,
    gapAfter: 4,
  });
  writer.table(GOODS_COLUMNS, order.goods, { totals: ['', 'Всего единиц', '', '', String(totalCount(order.goods))] });
  const boxes = (order.boxes ?? []).map((box) => {
    const size = box.dimensions
      ? ` (${box.dimensions.length}×${box.dimensions.width}×${box.dimensions.height} см)`
      : '';
    return `${box.name}${size} — ${box.count} шт.`;
  });
  if (boxes.length > 0) writer.text(`Упаковка: ${boxes.join('; ')}`, { size: 9, gapAfter: 2 });
  if (order.commentForAssembly)
    writer.text(`Комментарий для сборки: ${order.commentForAssembly}`, { size: 9, bold: true, gapAfter: 2 });
  if (order.documentsForWarehouse) writer.text(`Документы: ${order.documentsForWarehouse}`, { size: 9, gapAfter: 2 });
  writer.gap(10);
}

/** One statement for many orders: what to pick and how to pack each. */
export async function renderAssemblyStatement(statement: AssemblyStatementInput): Promise<Buffer> {
  const { doc, end } = openDocument({
    size: [A4.width, A4.height],
    margin: PAGE_MARGIN,
    title: `Сборочный лист № ${statement.number}`,
  });
  const writer = new PageWriter(doc);
  writer.heading(`Сборочный лист № ${statement.number} от ${formatDate(statement.date)}`);
  const units = statement.orders.reduce((total, order) => total + totalCount(order.goods), 0);
  writer.fields([
    ['Владелец товара', statement.owner],
    [
      'Склад',
      statement.warehouse
        ? [statement.warehouse.name, formatAddress(statement.warehouse.address)]
            .filter((part) => part !== '')
            .join(', ')
        : '',
    ],
    ['Заказов', String(statement.orders.length)],
    ['Единиц товара', String(units)],
  ]);
  statement.orders.forEach((order, index) => assemblyOrder(writer, order, index + 1));
  writer.signatures(['Собрал', 'Проверил']);
  return end();
}

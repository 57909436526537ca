/** The fulfilment supply act (акт поставки): goods arriving at a fulfilment warehouse in boxes or on pallets. */
import { totalCount } from './assembly.js';
import { formatAddress, formatParty } from './format.js';
import { PAGE_MARGIN, PageWriter, type TableColumn } from './page-writer.js';
import { A4, formatDate, openDocument } from './pdf.js';
import { supplyBarcodeText, type SupplyActInput, type SupplyGoodsLine } from './types.js';

const SUPPLY_COLUMNS: TableColumn<SupplyGoodsLine>[] = [
  { header: '№', share: 5, align: 'right', value: (_line, index) => String(index + 1) },
  { header: 'Товар', share: 37, value: (line) => line.name },
  { header: 'Артикул', share: 16, value: (line) => line.vendorCode ?? '' },
  {
    header: 'Партия, годен до',
    share: 15,
    value: (line) =>
      [line.batch ?? '', line.expires ? formatDate(line.expires) : ''].filter((part) => part !== '').join('\n'),
  },
  { header: 'Штрихкод', share: 17, value: (line) => (line.barcodes ?? []).join('\n') },
  { header: 'Кол-во', share: 10, align: 'right', value: (line) => String(line.count) },
];

/**
 * The act that goes with a supply of goods to a fulfilment warehouse: the supply's number as
 * a barcode for the warehouse's scanner, the goods table, and each product's barcodes drawn
 * to be scanned at acceptance.
 */
export async function renderSupplyAct(supply: SupplyActInput): Promise<Buffer> {
  const { doc, end } = openDocument({
    size: [A4.width, A4.height],
    margin: PAGE_MARGIN,
    title: `Акт поставки № ${supply.supplyId}`,
  });
  const writer = new PageWriter(doc);
  writer.heading(`Акт поставки товаров № ${supply.supplyId} от ${formatDate(supply.date)}`);
  writer.barcode(supplyBarcodeText(supply.supplyId), 'Номер поставки для сканера склада');
  writer.fields([
    ['Поставщик', formatParty(supply.sender)],
    ['Склад фулфилмента', `${supply.warehouse.name}, ${formatAddress(supply.warehouse.address)}`],
    ['Тип поставки', supply.type === 'pallets' ? 'паллеты' : 'коробы'],
    [supply.type === 'pallets' ? 'Количество паллет' : 'Количество коробов', String(supply.places)],
    ['Единиц товара', String(totalCount(supply.goods))],
  ]);
  writer.table(SUPPLY_COLUMNS, supply.goods, { totals: ['', 'Итого', '', '', '', String(totalCount(supply.goods))] });
  if (supply.comment) writer.text(`Комментарий: ${supply.comment}`, { size: 9 });
  writer.text('Товар принимается по количеству мест; поштучная приёмка и расхождения оформляются отдельным актом.', {
    size: 9,
    gapAfter: 4,
  });
  writer.signatures(['Сдал (поставщик)', 'Принял (склад)']);
  const scannable = supply.goods.filter((line) => (line.barcodes ?? []).length > 0);
  if (scannable.length > 0) {
    writer.gap(10);
    writer.text('Штрихкоды товаров', { size: 11, bold: true, gapAfter: 6 });
    for (const line of scannable) {
      for (const barcode of line.barcodes ?? [])
        writer.barcode(barcode, `${line.vendorCode ?? ''} ${line.name} — ${line.count} шт.`.trim());
    }
  }
  return end();
}

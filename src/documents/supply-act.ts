/** The fulfilment supply act (акт поставки): goods arriving at a fulfilment warehouse in boxes or on pallets. */
import { GOODS_COLUMNS, totalCount } from './assembly.js';
import { formatAddress, formatParty } from './format.js';
import { PAGE_MARGIN, PageWriter } from './page-writer.js';
import { A4, formatDate, openDocument } from './pdf.js';
import type { SupplyActInput } from './types.js';

/** The act that goes with a supply of goods to a fulfilment warehouse. */
export async function renderSupplyAct(supply: SupplyActInput): Promise<Buffer> {
  const { doc, end } = openDocument({ size: [A4.width, A4.height], margin: PAGE_MARGIN, title: `Акт поставки № ${supply.supplyId}` });
  const writer = new PageWriter(doc);
  writer.heading(`Акт поставки товаров № ${supply.supplyId} от ${formatDate(supply.date)}`);
  writer.fields([
    ['Поставщик', formatParty(supply.sender)],
    ['Склад фулфилмента', `${supply.warehouse.name}, ${formatAddress(supply.warehouse.address)}`],
    ['Тип поставки', supply.type === 'pallets' ? 'паллеты' : 'коробы'],
    [supply.type === 'pallets' ? 'Количество паллет' : 'Количество коробов', String(supply.places)],
    ['Единиц товара', String(totalCount(supply.goods))],
  ]);
  writer.table(GOODS_COLUMNS, supply.goods, { totals: ['', 'Итого', '', '', String(totalCount(supply.goods))] });
  if (supply.comment) writer.text(`Комментарий: ${supply.comment}`, { size: 9 });
  writer.text('Товар принимается по количеству мест; поштучная приёмка и расхождения оформляются отдельным актом.', { size: 9, gapAfter: 4 });
  writer.signatures(['Сдал (поставщик)', 'Принял (склад)']);
  return end();
}

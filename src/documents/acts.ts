/**
 * Handover act (акт приёма-передачи) per company and warehouse, and the waybill (транспортная
 * накладная) for companies that ask for counts of bags, boxes or pallets.
 */
import { formatAddress, formatParty } from './format.js';
import { PAGE_MARGIN, PageWriter, type TableColumn } from './page-writer.js';
import { A4, formatDate, formatMoney, formatWeight, openDocument } from './pdf.js';
import type { ActOrder, HandoverActInput, PickupActInput, WaybillInput } from './types.js';

function sum(orders: readonly ActOrder[], pick: (order: ActOrder) => number): number {
  return orders.reduce((total, order) => total + pick(order), 0);
}

/** Weights are summed in grams so that 0.1 + 0.2 prints as 0.3. */
function totalWeightKg(orders: readonly ActOrder[]): number {
  return sum(orders, (order) => Math.round(order.weightKg * 1000)) / 1000;
}

const ORDER_COLUMNS: TableColumn<ActOrder>[] = [
  { header: '№', share: 4, align: 'right', value: (_order, index) => String(index + 1) },
  {
    header: 'Заказ',
    share: 11,
    value: (order) => (order.cmsId ? `${order.orderId}\n${order.cmsId}` : String(order.orderId)),
  },
  { header: 'Трек-номер', share: 17, value: (order) => order.trackNumber },
  {
    header: 'Получатель',
    share: 24,
    value: (order) => (order.city ? `${order.recipientName}\n${order.city}` : order.recipientName),
  },
  { header: 'Мест', share: 6, align: 'right', value: (order) => String(order.places) },
  { header: 'Вес', share: 10, align: 'right', value: (order) => formatWeight(order.weightKg) },
  {
    header: 'Объявленная ценность',
    share: 14,
    align: 'right',
    value: (order) => formatMoney(order.declaredValueKopecks),
  },
  { header: 'Наложенный платёж', share: 14, align: 'right', value: (order) => formatMoney(order.codKopecks) },
];

function totalsRow(orders: readonly ActOrder[]): string[] {
  return [
    '',
    'Итого',
    `${orders.length} заказ(ов)`,
    '',
    String(sum(orders, (order) => order.places)),
    formatWeight(totalWeightKg(orders)),
    formatMoney(sum(orders, (order) => order.declaredValueKopecks)),
    formatMoney(sum(orders, (order) => order.codKopecks)),
  ];
}

function header(writer: PageWriter, title: string, act: HandoverActInput): void {
  writer.heading(`${title} № ${act.number} от ${formatDate(act.date)}`);
  writer.fields([
    ['Отправитель', formatParty(act.sender)],
    ['Склад отгрузки', `${act.warehouse.name}, ${formatAddress(act.warehouse.address)}`],
    ['Служба доставки', act.company.name],
  ]);
}

/** The act a courier signs when taking the orders of one company from one warehouse. */
export async function renderHandoverAct(act: HandoverActInput): Promise<Buffer> {
  const { doc, end } = openDocument({
    size: [A4.width, A4.height],
    margin: PAGE_MARGIN,
    title: `Акт приёма-передачи № ${act.number}`,
  });
  const writer = new PageWriter(doc);
  header(writer, 'Акт приёма-передачи отправлений', act);
  writer.text('Отправитель передал, а служба доставки приняла следующие отправления:', { size: 10, gapAfter: 6 });
  writer.table(ORDER_COLUMNS, act.orders, { totals: totalsRow(act.orders) });
  writer.text(
    `Всего передано заказов: ${act.orders.length}, мест: ${sum(act.orders, (order) => order.places)}, общий вес: ${formatWeight(totalWeightKg(act.orders))}. ` +
      'Отправления приняты без вскрытия, по количеству мест; претензий к упаковке нет, если не указано иное.',
    { size: 9, gapAfter: 4 },
  );
  writer.signatures(['Сдал (отправитель)', `Принял (${act.company.name})`]);
  return end();
}

/** The waybill: same orders, with the transport units the company asked to count. */
export async function renderWaybill(waybill: WaybillInput): Promise<Buffer> {
  const { doc, end } = openDocument({
    size: [A4.width, A4.height],
    margin: PAGE_MARGIN,
    title: `Транспортная накладная № ${waybill.number}`,
  });
  const writer = new PageWriter(doc);
  header(writer, 'Транспортная накладная', waybill);
  const units: Array<[string, number | null | undefined]> = [
    ['Мешков', waybill.containers.bags],
    ['Коробов', waybill.containers.boxes],
    ['Паллет', waybill.containers.pallets],
  ];
  writer.fields(units.filter(([, count]) => typeof count === 'number').map(([label, count]) => [label, String(count)]));
  writer.table(ORDER_COLUMNS, waybill.orders, { totals: totalsRow(waybill.orders) });
  writer.signatures(['Груз сдал', 'Груз принял (водитель-экспедитор)']);
  return end();
}

/**
 * The handover act of a pickup: the orders the courier takes, each track number also as a
 * Code128 to scan at collection, with signature lines for the sender and the courier.
 */
export async function renderPickupAct(act: PickupActInput): Promise<Buffer> {
  const { doc, end } = openDocument({
    size: [A4.width, A4.height],
    margin: PAGE_MARGIN,
    title: `Акт передачи курьеру № ${act.number}`,
  });
  const writer = new PageWriter(doc);
  writer.heading(`Акт приёма-передачи отправлений курьеру № ${act.number} от ${formatDate(act.date)}`);
  writer.fields([
    ['Отправитель', formatParty(act.sender)],
    ['Склад отгрузки', `${act.warehouse.name}, ${formatAddress(act.warehouse.address)}`],
    [
      'Забор',
      act.type === 3 ? `консолидированный забор (${act.company.name})` : `курьер службы доставки ${act.company.name}`,
    ],
    ['Номер заявки', act.pickupNumber ?? 'ещё не присвоен'],
    ['Интервал', act.time ? `${formatDate(act.date)}, ${act.time.from}–${act.time.to}` : formatDate(act.date)],
  ]);
  writer.table(ORDER_COLUMNS, act.orders, { totals: totalsRow(act.orders) });
  writer.text(
    `Всего передано заказов: ${act.orders.length}, мест: ${sum(act.orders, (order) => order.places)}, общий вес: ${formatWeight(totalWeightKg(act.orders))}.`,
    { size: 9, gapAfter: 4 },
  );
  writer.signatures(['Сдал (отправитель)', 'Принял (курьер)']);
  writer.gap(10);
  writer.text('Трек-номера для сканера', { size: 11, bold: true, gapAfter: 6 });
  for (const order of act.orders)
    writer.barcode(
      order.trackNumber,
      `Заказ ${order.orderId}${order.cmsId ? ` (${order.cmsId})` : ''}, мест: ${order.places}`,
    );
  return end();
}

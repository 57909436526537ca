/**
 * POST /v2/products/movement-report: per fulfilment warehouse holding the goods, an xlsx of
 * each product's days (opening, received, shipped, returned, written off, closing) and
 * totals; a ZIP of them when there are several. Movements are read page by page (keyset)
 * and the workbook is streamed into the file store: neither the movements nor the file are
 * held whole (exceljs keeps a worksheet's XML until it is zipped: documents/movement-report.ts).
 */
import { requireShopAccess, type Scope } from '../../platform/auth.js';
import { addDays, startOfDay } from '../../platform/clock.js';
import { FieldErrorCollector, forbidden, unprocessable } from '../../platform/errors.js';
import type { FileStore } from '../../platform/files.js';
import {
  writeMovementReport,
  writeMovementReportZip,
  type MovementReportRow,
  type MovementReportSheet,
} from '../../documents/movement-report.js';
import type { ProductService } from '../products/service.js';
import type { ShopService } from '../shops/service.js';
import { WAREHOUSE_TYPE } from '../warehouses/schemas.js';
import type { WarehouseService } from '../warehouses/service.js';
import type { MovementReportBody } from './schemas.js';
import type { MovementKind, StockStore } from './stock-store.js';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const MAX_DAYS = 366;

type Totals = Pick<MovementReportRow, 'received' | 'shipped' | 'returned' | 'writtenOff' | 'defective'>;

/** Where a movement counts in the report; reservations do not change what is on hand; the defect stock is a column of its own. */
function addTo(totals: Totals, kind: MovementKind, delta: number, defectiveDelta: number): void {
  if (kind === 'supply' || (kind === 'correction' && delta > 0)) totals.received += delta;
  else if (kind === 'ship') totals.shipped -= delta;
  else if (kind === 'return') totals.returned += delta;
  else if (kind === 'defect') totals.defective += defectiveDelta;
  else if (kind === 'write_off' || (kind === 'correction' && delta < 0)) totals.writtenOff -= delta;
}

const empty = (): Totals => ({ received: 0, shipped: 0, returned: 0, writtenOff: 0, defective: 0 });

export class MovementReportService {
  constructor(
    private readonly stock: StockStore,
    private readonly products: ProductService,
    private readonly warehouses: WarehouseService,
    private readonly shops: ShopService,
    private readonly files: FileStore,
  ) {}

  async report(scope: Scope, body: MovementReportBody): Promise<{ file: string }> {
    const problems = new FieldErrorCollector();
    const { from, to } = body.date;
    if (to < from) problems.add('date.to', 'must not be before date.from');
    else if (addDays(from, MAX_DAYS - 1) < to)
      problems.add('date.to', `must be at most ${MAX_DAYS} days after date.from`);
    const ids = [...new Set(body.ids)].sort((a, b) => a - b);
    const catalogue = await this.products.getMany(scope, ids);
    body.ids.forEach((id, index) => {
      if (!catalogue.has(id)) problems.add(`ids[${index}]`, `product ${id} does not exist in this account`);
    });
    problems.throwIfAny();

    const held = await this.stock.warehousesOf(scope.accountId, ids);
    let warehouseIds = [...held.keys()];
    if (scope.shopKeyShopId !== null) {
      requireShopAccess(scope, scope.shopKeyShopId);
      const warehouse = (await this.shops.get(scope, scope.shopKeyShopId)).warehouse;
      if (warehouse.type !== WAREHOUSE_TYPE.fulfilment)
        throw forbidden(
          `This API key belongs to shop ${scope.shopKeyShopId}, which keeps no goods at a fulfilment warehouse.`,
        );
      warehouseIds = warehouseIds.filter((id) => id === warehouse.fulfilmentWarehouseId);
    }
    if (warehouseIds.length === 0)
      throw unprocessable(
        'no_fulfilment_stock',
        'None of these products has ever been at a fulfilment warehouse: there is nothing to report.',
        [{ field: 'ids', message: 'no stock at any fulfilment warehouse' }],
      );

    const names = new Map((await this.warehouses.fulfilmentWarehouses()).map((item) => [item.id, item.name]));
    // day boundaries in the account's zone, as instants: a movement's day is found by comparing its time
    const days: string[] = [];
    for (let day = from; day <= to; day = addDays(day, 1)) days.push(day);
    const starts = [...days.map((day) => startOfDay(day, scope.timeZone)), startOfDay(addDays(to, 1), scope.timeZone)];
    const sheetOf = (warehouseId: number): MovementReportSheet => ({
      warehouseName: names.get(warehouseId) ?? `Склад ${warehouseId}`,
      from,
      to,
      rows: this.rows(scope.accountId, warehouseId, held.get(warehouseId) ?? [], catalogue, days, starts),
    });
    const stamp = `${from}_${to}`;
    const file =
      warehouseIds.length === 1
        ? await this.files.putStreamed(
            scope.accountId,
            { contentType: XLSX, extension: 'xlsx', downloadName: `movements-${warehouseIds[0]}-${stamp}.xlsx` },
            (out) => writeMovementReport(out, sheetOf(warehouseIds[0])),
          )
        : await this.files.putStreamed(
            scope.accountId,
            { contentType: 'application/zip', extension: 'zip', downloadName: `movements-${stamp}.zip` },
            (out) =>
              writeMovementReportZip(
                out,
                warehouseIds.map((id) => ({ fileName: `movements-${id}-${stamp}.xlsx`, sheet: sheetOf(id) })),
              ),
          );
    return { file: file.url };
  }

  /** Each product's days with movements, then its total row; products without movements get their total row only. */
  private async *rows(
    accountId: number,
    warehouseId: number,
    ids: number[],
    catalogue: Map<number, { vendorCode: string; name: string }>,
    days: string[],
    starts: string[],
  ): AsyncGenerator<MovementReportRow> {
    const opening = await this.stock.balancesBefore(accountId, warehouseId, ids, starts[0]);
    const movements = this.stock
      .onHandMovements(accountId, warehouseId, ids, starts[0], starts[starts.length - 1])
      [Symbol.asyncIterator]();
    let next = await movements.next();
    for (const productId of ids) {
      const product = catalogue.get(productId);
      const base = { productId, vendorCode: product?.vendorCode ?? '', name: product?.name ?? '' };
      const start = opening.get(productId) ?? 0;
      let balance = start;
      const total = empty();
      let dayIndex = 0;
      while (!next.done && next.value.productId === productId) {
        while (next.value.at >= starts[dayIndex + 1]) dayIndex += 1;
        const day = empty();
        const dayOpening = balance;
        const dayEnd = starts[dayIndex + 1];
        while (!next.done && next.value.productId === productId && next.value.at < dayEnd) {
          addTo(day, next.value.kind, next.value.delta, next.value.defectiveDelta);
          addTo(total, next.value.kind, next.value.delta, next.value.defectiveDelta);
          balance += next.value.delta;
          next = await movements.next();
        }
        yield { ...base, date: days[dayIndex], opening: dayOpening, ...day, closing: balance };
      }
      yield { ...base, date: null, opening: start, ...total, closing: balance };
    }
  }
}

/**
 * Analytical reports (contract 4.8): an xlsx per request, made from the same stored facts the
 * API answers (orders as GET shows them, stock movements). Orders are read in keyset pages
 * and written row by row with backpressure, so a million orders are never held.
 *
 * Sync or job: the rows are estimated with a count query first; up to REPORT_SYNC_ROWS
 * (50,000) the file is written in the request; above it a job writes it under a file name
 * chosen now, and the answer's `file` is that URL, which answers 202 with Retry-After until
 * the file is there (404 if the job failed for good).
 */
import { requireAccountWide, type Scope } from '../../platform/auth.js';
import { addDays, startOfDay, wallClockIn } from '../../platform/clock.js';
import { FieldErrorCollector } from '../../platform/errors.js';
import { newFileName, type FileStore } from '../../platform/files.js';
import type { JobQueue, JobWorker } from '../../platform/jobs.js';
import { toKopecks } from '../../platform/money.js';
import type { Page, Paging } from '../../platform/paging.js';
import { formatDate } from '../../documents/pdf.js';
import {
  COD_COLUMNS,
  COMPANY_COLUMNS,
  MARK_CODE_COLUMNS,
  ORDER_COLUMNS,
  reportSheet,
  STOCK_COLUMNS,
  type CodReportRow,
  type CompanyReportRow,
  type MarkCodeReportRow,
  type OrderReportRow,
  type StockReportRow,
} from '../../documents/report-sheets.js';
import { writeWorkbook, XLSX_CONTENT_TYPE, type XlsxSheet } from '../../documents/xlsx.js';
import type { StockService } from '../fulfilment/stock-service.js';
import type { MovementKind } from '../fulfilment/stock-store.js';
import { declaredValueKopecks, type OrderDoc } from '../orders/document.js';
import type { OrderService, ReportOrderFilter } from '../orders/service.js';
import { LIST_CANCELED, LIST_DELIVERED, LIST_RETURNS, listOfStatus } from '../orders/state.js';
import type { ProductService } from '../products/service.js';
import type { WarehouseService } from '../warehouses/service.js';
import { codCommissionKopecks, collectedKopecks, deliveredAt, paidBy } from './rules.js';
import type { AnalyticalBody, AnalyticalQuery, AnalyticalReportView } from './schemas.js';
import type { ReportStore } from './store.js';

export const ANALYTICAL_JOB = 'reports.analytical';
/** The longest period a report may cover. */
const MAX_DAYS = 3660;
const TYPE_NAMES: Record<number, string> = {
  1: 'Заказы',
  2: 'Доставки по службам',
  3: 'Возвраты',
  4: 'Наложенный платёж',
  5: 'Остатки на складах',
  6: 'Списание кодов маркировки',
};
/** Stage of the marking-code write-off (type 6) -> the stock movements it lists. */
const STAGE_MOVEMENTS: Record<number, { kind: MovementKind; name: string }> = {
  1: { kind: 'ship', name: 'отгружено получателям' },
  2: { kind: 'write_off', name: 'списано на складе' },
  3: { kind: 'return', name: 'возвращено на склад' },
};

export type AnalyticalReport = AnalyticalReportView;

interface AnalyticalJob {
  accountId: number;
  timeZone: string;
  id: number;
  fileName: string;
  body: AnalyticalBody;
}

/** A scope for work outside a request: the account's own view (a job writing a report asked for with an account token). */
function accountScope(accountId: number, timeZone: string): Scope {
  return { accountId, timeZone, kind: 'account', shopKeyShopId: null, employeeId: null };
}

/** What every order row starts with: the order, when it was made (account's wall clock), its status and company. */
function orderIdentity(scope: Scope, order: OrderDoc & { id: number }) {
  return {
    id: order.id,
    cmsId: order.cmsId,
    createdAt: wallClockIn(scope.timeZone, order.creationDate),
    status: order.status,
    statusName: order.statusHistory[0]?.name ?? '',
    company: order.delivery.company.name ?? String(order.delivery.company.id),
  };
}

export class AnalyticalReportService {
  constructor(
    private readonly store: ReportStore,
    private readonly files: FileStore,
    private readonly orders: OrderService,
    private readonly stock: StockService,
    private readonly products: ProductService,
    private readonly warehouses: WarehouseService,
    private readonly jobs: JobQueue,
    private readonly options: { syncRows: number },
  ) {}

  registerJobs(worker: JobWorker): void {
    worker.register<AnalyticalJob>(ANALYTICAL_JOB, async (job) => {
      const { accountId, timeZone, id, fileName, body } = job.payload;
      try {
        await this.write(accountScope(accountId, timeZone), body, fileName);
        await this.store.setAnalyticalStatus(accountId, id, 'ready');
      } catch (error) {
        if (job.attempts >= job.maxAttempts) await this.store.setAnalyticalStatus(accountId, id, 'failed');
        throw error;
      }
    });
  }

  async create(scope: Scope, body: AnalyticalBody): Promise<{ file: string }> {
    requireAccountWide(scope, "make the account's analytical reports");
    await this.check(body);
    const fileName = newFileName('xlsx');
    const filters = {
      fulfilmentWarehouseId: body.fulfilmentWarehouseId ?? null,
      onlyMarkCodes: body.onlyMarkCodes ?? null,
      stage: body.stage ?? null,
    };
    const record = {
      type: body.type,
      from: body.date.from,
      to: body.date.to,
      filters,
      fileName,
      file: this.files.urlOf(fileName),
    };
    const now = new Date().toISOString();
    if ((await this.estimateRows(scope, body)) <= this.options.syncRows) {
      await this.write(scope, body, fileName);
      await this.store.insertAnalytical(scope.accountId, { ...record, status: 'ready' }, now);
    } else {
      const id = await this.store.insertAnalytical(scope.accountId, { ...record, status: 'pending' }, now);
      await this.jobs.enqueue<AnalyticalJob>(
        scope.accountId,
        ANALYTICAL_JOB,
        { accountId: scope.accountId, timeZone: scope.timeZone, id, fileName, body },
        { maxAttempts: 3 },
      );
    }
    return { file: record.file };
  }

  async list(scope: Scope, query: AnalyticalQuery, at: Paging): Promise<Page<AnalyticalReport>> {
    requireAccountWide(scope, "read the account's analytical reports");
    const range = {
      from: query.from ? startOfDay(query.from, scope.timeZone) : undefined,
      to: query.to ? startOfDay(addDays(query.to, 1), scope.timeZone) : undefined,
      type: query.type,
    };
    const page = await this.store.listAnalytical(scope.accountId, range, at);
    return {
      total: page.total,
      items: page.items.map((item) => ({
        id: item.id,
        date: item.date,
        type: item.type as AnalyticalBody['type'],
        file: item.file,
        status: item.status as AnalyticalReport['status'],
      })),
    };
  }

  /** A report file a job has yet to write: its URL answers 202 with Retry-After meanwhile. */
  async isPendingFile(fileName: string): Promise<boolean> {
    return (await this.store.analyticalStatusOfFile(fileName)) === 'pending';
  }

  private async check(body: AnalyticalBody): Promise<void> {
    const problems = new FieldErrorCollector();
    const { from, to } = body.date;
    if (to < from) problems.add('date.to', 'must not be before date.from');
    else if (addDays(from, MAX_DAYS) < to) problems.add('date.to', `must be at most ${MAX_DAYS} days after date.from`);
    if (body.type === 6) {
      if (body.fulfilmentWarehouseId === undefined)
        problems.add('fulfilmentWarehouseId', 'is required for the marking-code write-off report (type 6)');
      if (body.onlyMarkCodes === undefined)
        problems.add('onlyMarkCodes', 'is required for the marking-code write-off report (type 6)');
      if (body.stage === undefined)
        problems.add(
          'stage',
          'is required for the marking-code write-off report (type 6): 1 shipped, 2 written off, 3 returned',
        );
    }
    if (body.fulfilmentWarehouseId !== undefined) {
      const known = (await this.warehouses.fulfilmentWarehouses()).some(
        (warehouse) => warehouse.id === body.fulfilmentWarehouseId,
      );
      if (!known)
        problems.add(
          'fulfilmentWarehouseId',
          `${body.fulfilmentWarehouseId} is not a fulfilment warehouse of the service (GET /v2/warehouses?hold=1)`,
        );
    }
    problems.throwIfAny();
  }

  private ordersFilter(scope: Scope, body: AnalyticalBody): ReportOrderFilter {
    const created = {
      createdFrom: startOfDay(body.date.from, scope.timeZone),
      createdBefore: startOfDay(addDays(body.date.to, 1), scope.timeZone),
    };
    if (body.type === 3) return { ...created, list: LIST_RETURNS };
    if (body.type === 4) return { ...created, withCod: true };
    return created;
  }

  /**
   * Rows the report will read, from a count query: orders (types 1-4: type 2 writes a row per
   * company but reads every order), stock lines (5, at most), the stage's movements (6).
   */
  private async estimateRows(scope: Scope, body: AnalyticalBody): Promise<number> {
    if (body.type <= 4) return this.orders.countForReport(scope.accountId, this.ordersFilter(scope, body));
    if (body.type === 5) return this.stock.countStockLines(scope.accountId, body.fulfilmentWarehouseId);
    return this.stock.countMovementsBetween(
      scope.accountId,
      ...this.markCodePeriod(scope, body),
      this.markCodeMovements(body),
    );
  }

  /** The period of a marking-code report as instants: from the first day's start to the day after the last. */
  private markCodePeriod(scope: Scope, body: AnalyticalBody): [string, string] {
    return [startOfDay(body.date.from, scope.timeZone), startOfDay(addDays(body.date.to, 1), scope.timeZone)];
  }

  /** The movements a marking-code report lists: its stage's kind at its warehouse. */
  private markCodeMovements(body: AnalyticalBody): { kinds: MovementKind[]; fulfilmentWarehouseId: number } {
    return {
      kinds: [STAGE_MOVEMENTS[body.stage ?? 1].kind],
      fulfilmentWarehouseId: body.fulfilmentWarehouseId as number,
    };
  }

  private async write(scope: Scope, body: AnalyticalBody, fileName: string): Promise<void> {
    const sheet = await this.sheetOf(scope, body);
    await this.files.putStreamed(
      scope.accountId,
      {
        name: fileName,
        contentType: XLSX_CONTENT_TYPE,
        extension: 'xlsx',
        downloadName: `report-${body.type}-${body.date.from}_${body.date.to}.xlsx`,
      },
      (out) => writeWorkbook(out, [sheet]),
    );
  }

  private async filtersOf(body: AnalyticalBody): Promise<string[]> {
    const lines = [
      `Период: ${formatDate(body.date.from)} — ${formatDate(body.date.to)}`,
      `Отчёт: ${body.type} ${TYPE_NAMES[body.type]}`,
    ];
    if (body.fulfilmentWarehouseId !== undefined)
      lines.push(`Склад фулфилмента: ${await this.warehouseName(body.fulfilmentWarehouseId)}`);
    if (body.onlyMarkCodes !== undefined)
      lines.push(`Только товары с маркировкой: ${body.onlyMarkCodes ? 'да' : 'нет'}`);
    if (body.stage !== undefined) lines.push(`Этап: ${body.stage} ${STAGE_MOVEMENTS[body.stage].name}`);
    return lines;
  }

  private async warehouseName(id: number): Promise<string> {
    return (await this.warehouseNames())(id);
  }

  /** The names of the service's fulfilment warehouses, read once for a whole sheet. */
  private async warehouseNames(): Promise<(id: number) => string> {
    const names = new Map(
      (await this.warehouses.fulfilmentWarehouses()).map((warehouse) => [warehouse.id, warehouse.name]),
    );
    return (id) => names.get(id) ?? `Склад ${id}`;
  }

  private async sheetOf(scope: Scope, body: AnalyticalBody): Promise<XlsxSheet> {
    const spec = {
      name: TYPE_NAMES[body.type],
      title: `${TYPE_NAMES[body.type]} за ${formatDate(body.date.from)} — ${formatDate(body.date.to)}`,
      filters: await this.filtersOf(body),
    };
    const orders = () => this.orders.scanForReport(scope.accountId, this.ordersFilter(scope, body));
    switch (body.type) {
      case 1:
      case 3:
        return reportSheet({ ...spec, columns: ORDER_COLUMNS }, this.orderRows(scope, orders()));
      case 2:
        return reportSheet({ ...spec, columns: COMPANY_COLUMNS }, this.companyRows(orders()));
      case 4:
        return reportSheet({ ...spec, columns: COD_COLUMNS }, this.codRows(scope, orders()));
      case 5:
        return reportSheet({ ...spec, columns: STOCK_COLUMNS }, this.stockRows(scope, body));
      default:
        return reportSheet({ ...spec, columns: MARK_CODE_COLUMNS }, this.markCodeRows(scope, body));
    }
  }

  private async *orderRows(
    scope: Scope,
    orders: AsyncIterable<OrderDoc & { id: number }>,
  ): AsyncGenerator<OrderReportRow> {
    for await (const order of orders) {
      yield {
        ...orderIdentity(scope, order),
        deliveryType: order.delivery.type,
        trackNumber: order.trackNumber,
        recipient: order.recipient.fullName,
        city: order.deliveryAddress.city.name,
        declared: declaredValueKopecks(order.products, order.priceDeclared),
        cod: toKopecks(order.priceCod),
        totalPrice: order.delivery.totalPrice === null ? null : toKopecks(order.delivery.totalPrice),
        factPrice: order.delivery.factPrice === null ? null : toKopecks(order.delivery.factPrice),
      };
    }
  }

  /** One row per company: the only report that aggregates, over a map as small as the companies. */
  private async *companyRows(orders: AsyncIterable<OrderDoc & { id: number }>): AsyncGenerator<CompanyReportRow> {
    const companies = new Map<number | string, CompanyReportRow>();
    for await (const order of orders) {
      const id = order.delivery.company.id;
      let row = companies.get(id);
      if (!row) {
        row = {
          companyId: id,
          company: order.delivery.company.name ?? String(id),
          orders: 0,
          delivered: 0,
          returned: 0,
          canceled: 0,
          cod: 0,
          totalPrice: 0,
          factPrice: 0,
        };
        companies.set(id, row);
      }
      row.orders += 1;
      // the lists of GET /v2/orders?list=: delivered (5), returns (7), canceled (8)
      const list = listOfStatus(order.status);
      if (list === LIST_DELIVERED) row.delivered += 1;
      if (list === LIST_RETURNS) row.returned += 1;
      if (list === LIST_CANCELED) row.canceled += 1;
      row.cod += collectedKopecks(order);
      row.totalPrice += toKopecks(order.delivery.totalPrice ?? 0);
      row.factPrice += toKopecks(order.delivery.factPrice ?? 0);
    }
    // companies of the service by number, then own methods by their string ids
    yield* [...companies.values()].sort((a, b) =>
      String(a.companyId).localeCompare(String(b.companyId), 'en', { numeric: true }),
    );
  }

  private async *codRows(scope: Scope, orders: AsyncIterable<OrderDoc & { id: number }>): AsyncGenerator<CodReportRow> {
    for await (const order of orders) {
      const delivered = deliveredAt(order);
      // a partial buyout collected for its bought lines only
      const cod = collectedKopecks(order);
      const commission = delivered ? codCommissionKopecks(order) : 0;
      yield {
        ...orderIdentity(scope, order),
        cod,
        paidBy: delivered ? paidBy(order) : null,
        deliveredAt: delivered ? wallClockIn(scope.timeZone, delivered) : null,
        commission,
        due: delivered ? cod - commission : 0,
      };
    }
  }

  private async *stockRows(scope: Scope, body: AnalyticalBody): AsyncGenerator<StockReportRow> {
    const balances = await this.stock.onHandBefore(
      scope.accountId,
      startOfDay(addDays(body.date.to, 1), scope.timeZone),
      body.fulfilmentWarehouseId,
    );
    const catalogue = await this.products.getMany(
      scope,
      balances.map((row) => row.productId),
    );
    const warehouseName = await this.warehouseNames();
    for (const row of balances) {
      const product = catalogue.get(row.productId);
      yield {
        warehouse: warehouseName(row.fulfilmentWarehouseId),
        productId: row.productId,
        vendorCode: product?.vendorCode ?? '',
        name: product?.name ?? '',
        markCodeRequired: product?.markCodeRequired === true,
        quantity: row.quantity,
      };
    }
  }

  private async *markCodeRows(scope: Scope, body: AnalyticalBody): AsyncGenerator<MarkCodeReportRow> {
    const known = new Map<number, { vendorCode: string; name: string; markCodeRequired: boolean }>();
    const warehouseName = await this.warehouseName(body.fulfilmentWarehouseId as number);
    const movements = this.stock.movementsBetween(
      scope.accountId,
      ...this.markCodePeriod(scope, body),
      this.markCodeMovements(body),
    );
    for await (const movement of movements) {
      let product = known.get(movement.productId);
      if (!product) {
        const found = (await this.products.getMany(scope, [movement.productId])).get(movement.productId);
        product = {
          vendorCode: found?.vendorCode ?? '',
          name: found?.name ?? '',
          markCodeRequired: found?.markCodeRequired === true,
        };
        known.set(movement.productId, product);
      }
      if (body.onlyMarkCodes && !product.markCodeRequired) continue;
      yield {
        date: wallClockIn(scope.timeZone, movement.at).slice(0, 10),
        warehouse: warehouseName,
        productId: movement.productId,
        ...product,
        orderId: movement.orderId,
        quantity: Math.abs(movement.delta),
      };
    }
  }
}

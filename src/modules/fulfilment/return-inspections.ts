/**
 * Back on the shelf once: a returned parcel reaching a fulfilment warehouse (a refused order,
 * the refused lines of a partial buyout, a buyer's return parcel) waits in a queue until the
 * warehouse staff inspect it; each line then goes back to stock, to the defect stock, or is
 * written off, with a reason. Nothing is restocked on arrival any more.
 *
 * Exactly once, at the database: the queue has one row per parcel (unique account and order),
 * an inspection is finished by a compare-and-set (`waiting` → `done`) in the transaction that
 * writes its outcomes and stock movements, each outcome row is unique per parcel, product and
 * outcome, and each stock movement carries its outcome's id under a unique key. A repeated
 * scan, a repeated submit or two submits at once record each line once; the same outcomes
 * sent again answer the inspection, other outcomes are a 409.
 */
import { processScope, requireShopAccess, type Scope } from '../../platform/auth.js';
import { conflict, FieldErrorCollector, forbidden, notFound } from '../../platform/errors.js';
import { identifyAuditCaller } from '../../platform/audit.js';
import type { Page, Paging } from '../../platform/paging.js';
import { outboxRows, writeOrderEvents } from '../events/outbox.js';
import type { ProductService } from '../products/service.js';
import type {
  AccountReturnInspectionQuery,
  InspectionBody,
  ReturnInspection,
  ReturnInspectionQuery,
} from './schemas.js';
import type { Db, InspectionRecord, OutcomeRecord, ReturnInspectionStore } from './return-inspection-store.js';
import type { StockStore } from './stock-store.js';
import type { Operator } from './supply-service.js';

export type { InspectionOutcome, ReturnSource } from './return-inspection-store.js';

/** A parcel that came back to a fulfilment warehouse (the agreed interface of the returns and buyout work). */
export interface ReturnedParcel {
  accountId: number;
  /** The parcel that arrived (a refused order, or a return parcel order). */
  orderId: number;
  source: 'refusal' | 'partial-buyout' | 'return';
  /** Set when source === 'return'. */
  returnId: number | null;
  /**
   * The order whose goods these are, when not the parcel itself (a return parcel carries goods
   * of the delivered order): the warehouse they left is found by it.
   */
  goodsOrderId?: number;
  lines: { productId: number; count: number }[];
}

/** Units per product, positive counts only, in product order. */
export function mergeLines(lines: ReadonlyArray<{ productId: number; count: number }>): Array<{
  productId: number;
  count: number;
}> {
  const counts = new Map<number, number>();
  for (const line of lines)
    if (line.count > 0) counts.set(line.productId, (counts.get(line.productId) ?? 0) + line.count);
  return [...counts].sort((a, b) => a[0] - b[0]).map(([productId, count]) => ({ productId, count }));
}

/** Why an inspection body does not account for the parcel exactly (field errors), none when it does. Pure. */
export function inspectionProblems(
  parcel: ReadonlyArray<{ productId: number; count: number }>,
  lines: InspectionBody['lines'],
): Array<{ field: string; message: string }> {
  const problems: Array<{ field: string; message: string }> = [];
  const expected = new Map(parcel.map((line) => [line.productId, line.count]));
  const given = new Map<number, number>();
  const seen = new Set<string>();
  lines.forEach((line, index) => {
    const key = `${line.productId}:${line.outcome}`;
    if (!expected.has(line.productId))
      problems.push({
        field: `lines[${index}].productId`,
        message: `product ${line.productId} did not come back in this parcel`,
      });
    else if (seen.has(key))
      problems.push({
        field: `lines[${index}].outcome`,
        message: `product ${line.productId} has the outcome ${line.outcome} twice: give it once with the whole count`,
      });
    if (line.reason.trim() === '') problems.push({ field: `lines[${index}].reason`, message: 'must say why' });
    seen.add(key);
    given.set(line.productId, (given.get(line.productId) ?? 0) + line.count);
  });
  for (const [productId, count] of expected) {
    const got = given.get(productId) ?? 0;
    if (got !== count)
      problems.push({
        field: 'lines',
        message: `product ${productId}: ${count} unit${count === 1 ? '' : 's'} came back, the outcomes account for ${got}`,
      });
  }
  return problems;
}

/** Whether stored outcomes are what a body says (a repeated submit), whatever the order of its lines. */
export function sameOutcomes(stored: OutcomeRecord[], lines: InspectionBody['lines']): boolean {
  const key = (line: { productId: number; outcome: string; count: number; reason: string }) =>
    `${line.productId}|${line.outcome}|${line.count}|${line.reason.trim()}`;
  const a = stored.map(key).sort();
  const b = lines.map(key).sort();
  return a.length === b.length && a.every((item, index) => item === b[index]);
}

export class ReturnInspectionService {
  constructor(
    private readonly store: ReturnInspectionStore,
    private readonly stock: StockStore,
    /** The catalogue, built after stock (its products show stock): read only once requests run. */
    private readonly products: () => ProductService,
  ) {}

  /**
   * The parcel joins its warehouse's queue, in the caller's transaction. Idempotent per
   * (account, order): a repeated arrival adds nothing (false). The warehouse is the one its
   * goods left (their stock rows), else the fulfilment warehouse of the order's sender
   * warehouse; a parcel with neither, or with nothing to inspect, is not queued.
   */
  async enqueueReturnedParcel(parcel: ReturnedParcel, trx: Db): Promise<boolean> {
    const lines = mergeLines(parcel.lines);
    if (lines.length === 0) return false;
    const facts = await this.store.orderFacts(trx, parcel.accountId, parcel.orderId);
    if (!facts) return false;
    const goodsOrderId = parcel.goodsOrderId ?? parcel.orderId;
    const goodsFacts =
      goodsOrderId === parcel.orderId ? facts : await this.store.orderFacts(trx, parcel.accountId, goodsOrderId);
    const allocations = await this.stock.allocationsOf(trx, parcel.accountId, { orderId: goodsOrderId });
    const warehouse =
      allocations[0]?.fulfilmentWarehouseId ??
      (goodsFacts?.warehouseId === null || goodsFacts?.warehouseId === undefined
        ? null
        : await this.store.fulfilmentWarehouseOf(trx, parcel.accountId, goodsFacts.warehouseId));
    if (warehouse === null) return false;
    return this.store.insert(trx, {
      accountId: parcel.accountId,
      orderId: parcel.orderId,
      shopId: facts.shopId,
      fulfilmentWarehouseId: warehouse,
      source: parcel.source,
      returnId: parcel.source === 'return' ? parcel.returnId : null,
      trackNumber: facts.trackNumber,
      lines,
      arrivedAt: new Date().toISOString(),
    });
  }

  // ---------------------------------------------------------------- the staff

  /** The parcels at the staff's warehouse, oldest first; `search` is a scanned order id or track number. */
  async operatorList(operator: Operator, query: ReturnInspectionQuery, at: Paging): Promise<Page<ReturnInspection>> {
    const code = query.search?.trim();
    const orderId = code && /^\d{1,15}$/.test(code) ? Number(code) : null;
    const page = await this.store.list(
      {
        fulfilmentWarehouseId: operator.fulfilmentWarehouseId,
        status: query.status ?? 'waiting',
        ...(code ? { search: { orderId, code } } : {}),
      },
      at,
    );
    return { total: page.total, items: await this.present(page.items) };
  }

  /** One parcel at the staff's warehouse (another warehouse's is not found). */
  async operatorGet(operator: Operator, orderId: number): Promise<ReturnInspection> {
    const record = await this.store.atWarehouse(operator.fulfilmentWarehouseId, orderId);
    if (!record) throw notFound('Returned parcel', orderId);
    return (await this.present([record]))[0];
  }

  /**
   * The staff's inspection of a parcel: every unit that came back gets an outcome and a reason.
   * Checked first (400, nothing written); then written once (see the file's comment).
   */
  async inspect(operator: Operator, orderId: number, body: InspectionBody): Promise<ReturnInspection> {
    const record = await this.store.atWarehouse(operator.fulfilmentWarehouseId, orderId);
    if (!record) throw notFound('Returned parcel', orderId);
    // the warehouse serves many accounts: the inspection is the returned order's account's change
    identifyAuditCaller({ accountId: record.accountId });
    const problems = new FieldErrorCollector();
    for (const problem of inspectionProblems(record.lines, body.lines)) problems.add(problem.field, problem.message);
    problems.throwIfAny();
    const actor = `operator:${operator.id}`;
    const wrote = await this.stock.transaction(async (trx) => {
      const at = new Date().toISOString();
      if (!(await this.store.finish(trx, record.id, actor, at))) return false;
      const allocations = await this.stock.allocationsOf(trx, record.accountId, { orderId: record.orderId });
      const facts = await this.store.orderFacts(trx, record.accountId, record.orderId);
      const ordered = [...body.lines].sort((a, b) => a.productId - b.productId || a.outcome.localeCompare(b.outcome));
      for (const line of ordered) {
        const reason = line.reason.trim();
        const lineId = await this.store.insertOutcome(trx, record.accountId, record.id, { ...line, reason }, actor, at);
        // back where the goods left from (their batch); a return parcel's goods to the product's plain row
        const allocation = allocations.find(
          (item) => item.productId === line.productId && item.fulfilmentWarehouseId === record.fulfilmentWarehouseId,
        );
        const row = allocation
          ? {
              id: allocation.stockId,
              fulfilmentWarehouseId: allocation.fulfilmentWarehouseId,
              productId: line.productId,
            }
          : await this.stock.plainRow(trx, record.accountId, record.fulfilmentWarehouseId, line.productId);
        await this.stock.inspected(trx, record.accountId, row, line.outcome, line.count, {
          actor,
          employeeId: null,
          orderId: record.orderId,
          reason: `returned parcel of order ${record.orderId} inspected (${line.outcome}): ${reason}`.slice(0, 600),
          inspectionLineId: lineId,
        });
      }
      const status = facts?.status ?? null;
      await writeOrderEvents(
        trx,
        outboxRows(
          record.accountId,
          record.shopId,
          record.orderId,
          [
            {
              type: 'fulfilment.return_received',
              statusFrom: status,
              statusTo: status,
              payload: {
                cmsId: facts?.cmsId ?? null,
                trackNumber: record.trackNumber,
                source: record.source,
                fulfilmentWarehouseId: record.fulfilmentWarehouseId,
                returned: ordered.map((line) => ({
                  productId: line.productId,
                  outcome: line.outcome,
                  count: line.count,
                  reason: line.reason.trim(),
                })),
              },
            },
          ],
          at,
        ),
      );
      return true;
    });
    const after = await this.store.get(this.store.db, record.accountId, record.orderId);
    const inspection = (await this.present([after as InspectionRecord]))[0];
    if (!wrote) {
      // inspected before (a repeated scan or submit, or another one at the same moment): the same outcomes are that inspection
      const stored = (await this.store.outcomesOf([record.id])).get(record.id) ?? [];
      if (!sameOutcomes(stored, body.lines))
        throw conflict(
          'inspection_done',
          `The returned parcel of order ${orderId} was inspected already, with other outcomes; each line is recorded once. / Возврат заказа ${orderId} уже осмотрен с другими решениями: каждая строка учитывается один раз.`,
          [{ id: orderId, message: 'inspected already' }],
        );
    }
    return inspection;
  }

  // ---------------------------------------------------------------- the account

  async list(scope: Scope, query: AccountReturnInspectionQuery, at: Paging): Promise<Page<ReturnInspection>> {
    const page = await this.store.list(
      { accountId: scope.accountId, shopId: scope.shopKeyShopId, ...(query.status ? { status: query.status } : {}) },
      at,
    );
    return { total: page.total, items: await this.present(page.items) };
  }

  async get(scope: Scope, orderId: number): Promise<ReturnInspection> {
    const record = await this.store.get(this.store.db, scope.accountId, orderId);
    if (!record) throw notFound('Returned parcel', orderId);
    if (scope.shopKeyShopId !== null) {
      if (record.shopId === null) throw forbidden(`Order ${orderId} is not an order of shop ${scope.shopKeyShopId}.`);
      requireShopAccess(scope, record.shopId);
    }
    return (await this.present([record]))[0];
  }

  // ---------------------------------------------------------------- helpers

  private async present(records: InspectionRecord[]): Promise<ReturnInspection[]> {
    const outcomes = await this.store.outcomesOf(
      records.filter((record) => record.status === 'done').map((record) => record.id),
    );
    const names = new Map<string, { vendorCode: string | null; name: string | null }>();
    const byAccount = new Map<number, Set<number>>();
    for (const record of records)
      for (const line of record.lines)
        byAccount.set(record.accountId, (byAccount.get(record.accountId) ?? new Set()).add(line.productId));
    for (const [accountId, ids] of byAccount) {
      const products = await this.products().getMany(processScope(accountId), [...ids]);
      for (const [id, product] of products)
        names.set(`${accountId}:${id}`, { vendorCode: product.vendorCode, name: product.name });
    }
    return records.map((record) => ({
      id: record.id,
      accountId: record.accountId,
      orderId: record.orderId,
      shopId: record.shopId,
      fulfilmentWarehouseId: record.fulfilmentWarehouseId,
      source: record.source,
      returnId: record.returnId,
      trackNumber: record.trackNumber,
      status: record.status,
      arrivedAt: record.arrivedAt,
      inspectedAt: record.inspectedAt,
      lines: record.lines.map((line) => ({
        productId: line.productId,
        vendorCode: names.get(`${record.accountId}:${line.productId}`)?.vendorCode ?? null,
        name: names.get(`${record.accountId}:${line.productId}`)?.name ?? null,
        count: line.count,
      })),
      outcomes: (outcomes.get(record.id) ?? []).map((outcome) => ({
        productId: outcome.productId,
        outcome: outcome.outcome,
        count: outcome.count,
        reason: outcome.reason,
        at: outcome.at,
      })),
    }));
  }
}

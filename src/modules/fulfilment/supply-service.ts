/**
 * Supplies of goods to the service's fulfilment warehouses (contract 2.10, 4.11): the shop
 * makes a Draft with its act, confirms it, and the warehouse receives it: Arrived, then
 * Accepted with what was counted, which alone enters stock. The warehouse side is its staff
 * (operator tokens, extension endpoints) or, for the built-in warehouses, a clock that
 * accepts exactly what was declared (FULFILMENT_ACCEPT_SECONDS), as the delivery journey is
 * simulated for the built-in companies.
 */
import { requireShopAccess, type Scope } from '../../platform/auth.js';
import { hashToken, newToken } from '../../platform/crypto.js';
import { AppError, conflict, FieldErrorCollector, forbidden, notFound } from '../../platform/errors.js';
import { identifyAuditCaller } from '../../platform/audit.js';
import type { FileStore } from '../../platform/files.js';
import type { Job, JobQueue, JobWorker } from '../../platform/jobs.js';
import type { Page, Paging } from '../../platform/paging.js';
import { renderSupplyAct } from '../../documents/index.js';
import { supplyProductLabels, thermalFile } from '../../documents/thermal-labels.js';
import type { AccountService } from '../accounts/service.js';
import type { OrderService } from '../orders/service.js';
import type { ProductService } from '../products/service.js';
import type { ShopService } from '../shops/service.js';
import type { WarehouseService } from '../warehouses/service.js';
import type { FulfilmentWarehouseRecord } from '../warehouses/store.js';
import { WAREHOUSE_TYPE } from '../warehouses/schemas.js';
import { discrepancyOf } from './rules.js';
import {
  SUPPLY_STATUS,
  SUPPLY_STATUS_NAMES,
  type AcceptanceBody,
  type OperatorSupplyQuery,
  type Supply,
  type SupplyInput,
  type SupplyLabelsBody,
  type SupplyListQuery,
  type SupplyStatusItem,
} from './schemas.js';
import { outboxRows, writeOrderEvents } from '../events/outbox.js';
import type { Db, MovementNote } from './stock-store.js';
import type { StockService } from './stock-service.js';
import type { StoredLine, SupplyRecord, SupplyStore } from './supply-store.js';

export const SUPPLY_ARRIVES_JOB = 'fulfilment.supply-arrives';
export const SUPPLY_ACCEPTED_JOB = 'fulfilment.supply-accepted';
export const AUTO_RESERVE_JOB = 'fulfilment.auto-reserve';

/** A member of a fulfilment warehouse's staff, from an operator token. */
export interface Operator {
  id: number;
  fulfilmentWarehouseId: number;
}

export interface SupplyOptions {
  /** Seconds after confirmation until a built-in warehouse takes the supply in (arrived), and again until it is accepted; 0: only staff do. */
  acceptSeconds: number;
}

function historyItem(status: number, comment: string | null = null): SupplyStatusItem {
  return { status, name: SUPPLY_STATUS_NAMES[status] ?? String(status), date: new Date().toISOString(), comment };
}

function lineKey(productId: number, batch: string | null | undefined): string {
  return `${productId}\u0000${batch ?? ''}`;
}

export class SupplyService {
  constructor(
    private readonly store: SupplyStore,
    private readonly stock: StockService,
    private readonly products: ProductService,
    private readonly warehouses: WarehouseService,
    private readonly shops: ShopService,
    private readonly accounts: AccountService,
    private readonly files: FileStore,
    private readonly orders: OrderService,
    private readonly jobs: JobQueue,
    private readonly options: SupplyOptions,
  ) {}

  registerJobs(worker: JobWorker): void {
    worker.register<{ supplyId: number }>(SUPPLY_ARRIVES_JOB, (job) => this.arrivesByItself(job));
    worker.register<{ supplyId: number }>(SUPPLY_ACCEPTED_JOB, (job) => this.acceptedByItself(job));
    worker.register<{ fulfilmentWarehouseId: number }>(AUTO_RESERVE_JOB, async (job) => {
      const accountId = job.accountId as number;
      await this.orders.autoReserve(
        accountId,
        await this.warehouses.autoReservingAt(accountId, job.payload.fulfilmentWarehouseId),
      );
    });
  }

  // ---------------------------------------------------------------- the shop's side

  async create(scope: Scope, input: SupplyInput): Promise<{ id: number; file: string }> {
    const warehouse = await this.reachable(scope, input.fulfilmentWarehouseId, 'fulfilmentWarehouseId');
    const problems = new FieldErrorCollector();
    const live = await this.products.existingIds(
      scope,
      input.products.map((line) => line.id),
    );
    const catalogue = await this.products.getMany(scope, [...live]);
    const seen = new Set<string>();
    const lines: StoredLine[] = [];
    input.products.forEach((line, index) => {
      const field = `products[${index}]`;
      const product = catalogue.get(line.id);
      if (!product || !live.has(line.id)) {
        problems.add(`${field}.id`, `product ${line.id} does not exist in this account`);
        return;
      }
      const batch = product.batchAccounting ? (line.batch?.trim() ?? '') : '';
      const expires = product.batchAccounting ? (line.expires ?? null) : null;
      if (product.batchAccounting && batch === '')
        problems.add(`${field}.batch`, `is required: ${product.vendorCode} is kept by batch (batchAccounting)`);
      if (product.batchAccounting && expires === null)
        problems.add(`${field}.expires`, `is required: ${product.vendorCode} is kept by batch (batchAccounting)`);
      const key = lineKey(line.id, batch);
      if (seen.has(key))
        problems.add(
          `${field}.id`,
          `product ${line.id}${batch ? ` batch ${batch}` : ''} is already on an earlier line; give its total count once`,
        );
      seen.add(key);
      lines.push({
        id: line.id,
        name: product.name,
        vendorCode: product.vendorCode,
        barcodes: product.barcodes,
        batch: batch || null,
        expires,
        count: line.count,
        accepted: null,
        damaged: null,
      });
    });
    const employeeId = input.employeeId ?? null;
    if (employeeId !== null && (await this.accounts.unknownEmployeeIds(scope, [employeeId])).length > 0)
      problems.add('employeeId', `${employeeId} is not an employee of this account`);
    problems.throwIfAny();

    const id = await this.store.insert(scope.accountId, {
      fulfilmentWarehouseId: warehouse.id,
      date: input.date,
      type: input.type,
      places: input.places,
      status: SUPPLY_STATUS.draft,
      statusHistory: [historyItem(SUPPLY_STATUS.draft)],
      lines,
      employeeId,
    });
    const sender =
      employeeId !== null
        ? (await this.accounts.employeesOf(scope.accountId)).find((employee) => employee.id === employeeId)?.name
        : undefined;
    const shop = scope.shopKeyShopId !== null ? await this.shops.get(scope, scope.shopKeyShopId) : null;
    const pdf = await renderSupplyAct({
      supplyId: id,
      date: input.date,
      type: input.type,
      places: input.places,
      sender: { name: shop?.name ?? sender ?? `Аккаунт № ${scope.accountId}` },
      warehouse: {
        name: warehouse.name,
        address: {
          city: warehouse.address.city.name,
          street: warehouse.address.street,
          house: warehouse.address.house,
          bulk: warehouse.address.bulk,
          region: warehouse.address.city.region,
        },
      },
      goods: lines.map((line) => ({
        name: line.name,
        vendorCode: line.vendorCode,
        barcodes: line.barcodes,
        count: line.count,
        batch: line.batch,
        expires: line.expires,
      })),
    });
    const file = await this.files.put(scope.accountId, {
      bytes: pdf,
      contentType: 'application/pdf',
      extension: 'pdf',
      downloadName: `supply-${id}-${input.date}.pdf`,
    });
    await this.store.setFile(scope.accountId, id, file.url);
    return { id, file: file.url };
  }

  /** Product labels of the supply's lines for the warehouse's thermal printer. */
  async productLabels(scope: Scope, id: number, body: SupplyLabelsBody): Promise<{ file: string }> {
    const supply = await this.find(scope, id);
    const labels = supplyProductLabels(
      {
        supplyId: supply.id,
        date: supply.date,
        type: supply.type,
        places: supply.places,
        sender: { name: '' },
        warehouse: { name: '', address: '' },
        goods: supply.lines.map((line) => ({
          name: line.name,
          vendorCode: line.vendorCode,
          barcodes: line.barcodes,
          count: line.count,
          batch: line.batch,
          expires: line.expires,
        })),
      },
      body.perUnit ?? true,
      body.dpi ?? 203,
    );
    const file = await thermalFile(labels, body.format ?? 'zpl');
    const stored = await this.files.put(scope.accountId, {
      bytes: file.bytes,
      contentType: file.contentType,
      extension: file.extension,
      downloadName: `supply-${supply.id}-labels.${file.extension}`,
    });
    return { file: stored.url };
  }

  async list(scope: Scope, query: SupplyListQuery, paging: Paging): Promise<Page<Supply>> {
    let fulfilmentWarehouseId = query.fulfilmentWarehouseId;
    if (scope.shopKeyShopId !== null) {
      const own = await this.shopFulfilmentWarehouse(scope);
      if (own === null)
        throw forbidden(
          `This API key belongs to shop ${scope.shopKeyShopId}, which keeps no goods at a fulfilment warehouse.`,
        );
      if (fulfilmentWarehouseId !== undefined && fulfilmentWarehouseId !== own)
        throw this.outsideShop(scope, fulfilmentWarehouseId);
      fulfilmentWarehouseId = own;
    }
    const page = await this.store.list(scope.accountId, { fulfilmentWarehouseId, status: query.status }, paging);
    return { items: await this.present(page.items), total: page.total };
  }

  async get(scope: Scope, id: number): Promise<Supply> {
    return (await this.present([await this.find(scope, id)]))[0];
  }

  async confirm(scope: Scope, id: number): Promise<void> {
    const supply = await this.find(scope, id);
    this.requireDraft(supply, 'confirmed');
    await this.store.db.transaction().execute(async (trx) => {
      if (
        !(await this.store.move(trx, scope.accountId, id, SUPPLY_STATUS.draft, {
          status: SUPPLY_STATUS.confirmed,
          statusHistory: [historyItem(SUPPLY_STATUS.confirmed), ...supply.statusHistory],
        }))
      )
        throw this.moved(id);
      if (this.options.acceptSeconds > 0) {
        await this.jobs.enqueue(
          scope.accountId,
          SUPPLY_ARRIVES_JOB,
          { supplyId: id },
          { runAt: new Date(Date.now() + this.options.acceptSeconds * 1000), uniqueKey: `supply-arrives:${id}` },
          trx,
        );
      }
    });
  }

  /** DELETE: a Draft is cancelled (5); it stays listed with its history. */
  async delete(scope: Scope, id: number): Promise<void> {
    const supply = await this.find(scope, id);
    this.requireDraft(supply, 'deleted');
    const moved = await this.store.move(this.store.db, scope.accountId, id, SUPPLY_STATUS.draft, {
      status: SUPPLY_STATUS.canceled,
      statusHistory: [historyItem(SUPPLY_STATUS.canceled, 'Deleted by the sender'), ...supply.statusHistory],
    });
    if (!moved) throw this.moved(id);
  }

  // ---------------------------------------------------------------- the warehouse's side

  /** A new token for the staff of a fulfilment warehouse (CLI); shown once, stored hashed. */
  async createOperatorToken(fulfilmentWarehouseId: number, name: string): Promise<{ id: number; token: string }> {
    if (!(await this.warehouses.fulfilmentWarehouses()).some((item) => item.id === fulfilmentWarehouseId))
      throw notFound('Fulfilment warehouse', fulfilmentWarehouseId);
    const token = newToken('opr');
    return { id: await this.store.insertOperatorToken(fulfilmentWarehouseId, name, hashToken(token)), token };
  }

  /** The operator of an `Authorization: Bearer opr_...` header; 401 otherwise. */
  async operatorOf(header: string | undefined): Promise<Operator> {
    const token = /^Bearer\s+(opr_\S+)\s*$/i.exec(header ?? '')?.[1];
    const operator = token ? await this.store.operatorByTokenHash(hashToken(token)) : undefined;
    if (!operator)
      throw new AppError(
        401,
        'invalid_operator_token',
        'This endpoint is for the staff of a fulfilment warehouse: send "Authorization: Bearer opr_..." (npm run cli -- fulfilment operator-token).',
      );
    identifyAuditCaller({ actor: { kind: 'operator', id: String(operator.id) } });
    return operator;
  }

  async operatorList(
    operator: Operator,
    query: OperatorSupplyQuery,
    paging: Paging,
  ): Promise<Page<{ accountId: number; supply: Supply }>> {
    const statuses = query.status !== undefined ? [query.status] : [SUPPLY_STATUS.confirmed, SUPPLY_STATUS.arrived];
    const page = await this.store.listAtWarehouse(operator.fulfilmentWarehouseId, statuses, paging);
    const supplies = await this.present(page.items);
    return {
      items: page.items.map((record, index) => ({ accountId: record.accountId, supply: supplies[index] })),
      total: page.total,
    };
  }

  async arrived(operator: Operator, id: number): Promise<void> {
    const supply = await this.atWarehouse(operator, id);
    if (supply.status !== SUPPLY_STATUS.confirmed)
      throw conflict(
        'supply_state',
        `Supply ${id} is ${SUPPLY_STATUS_NAMES[supply.status]}: only a confirmed supply arrives.`,
      );
    await this.markArrived(supply, `Received by operator ${operator.id}`);
  }

  async accept(operator: Operator, id: number, body: AcceptanceBody): Promise<void> {
    const supply = await this.atWarehouse(operator, id);
    if (supply.status !== SUPPLY_STATUS.arrived)
      throw conflict(
        'supply_state',
        `Supply ${id} is ${SUPPLY_STATUS_NAMES[supply.status]}: only an arrived supply is accepted.`,
      );
    const problems = new FieldErrorCollector();
    const counted = new Map<string, { accepted: number; damaged: number }>();
    const declared = new Set(supply.lines.map((line) => lineKey(line.id, line.batch)));
    body.products.forEach((line, index) => {
      const key = lineKey(line.id, line.batch?.trim() || null);
      if (!declared.has(key))
        problems.add(
          `products[${index}].id`,
          `product ${line.id}${line.batch ? ` batch ${line.batch}` : ''} is not on the act of supply ${id}`,
        );
      else if (counted.has(key)) problems.add(`products[${index}].id`, 'is counted on an earlier line already');
      counted.set(key, { accepted: line.accepted, damaged: line.damaged ?? 0 });
    });
    problems.throwIfAny();
    await this.acceptCounted(
      supply,
      (line) => counted.get(lineKey(line.id, line.batch)) ?? { accepted: 0, damaged: 0 },
      { actor: `operator:${operator.id}`, employeeId: null },
      body.comment ?? null,
    );
  }

  // ---------------------------------------------------------------- the built-in warehouses' clock

  private async arrivesByItself(job: Job<{ supplyId: number }>): Promise<void> {
    const accountId = job.accountId as number;
    const supply = await this.store.get(accountId, job.payload.supplyId);
    if (!supply || supply.status !== SUPPLY_STATUS.confirmed) return;
    // Arrived and the acceptance that follows commit together: a retry of this job finds the supply arrived and would queue nothing
    await this.markArrived(supply, 'Received by the warehouse', (trx) =>
      this.jobs.enqueue(
        accountId,
        SUPPLY_ACCEPTED_JOB,
        { supplyId: supply.id },
        { runAt: new Date(Date.now() + this.options.acceptSeconds * 1000), uniqueKey: `supply-accepted:${supply.id}` },
        trx,
      ),
    );
  }

  private async acceptedByItself(job: Job<{ supplyId: number }>): Promise<void> {
    const supply = await this.store.get(job.accountId as number, job.payload.supplyId);
    if (!supply || supply.status !== SUPPLY_STATUS.arrived) return;
    await this.acceptCounted(
      supply,
      (line) => ({ accepted: line.count, damaged: 0 }),
      { actor: `process:${SUPPLY_ACCEPTED_JOB}`, employeeId: null },
      'Counted as declared',
    );
  }

  // ---------------------------------------------------------------- helpers

  private async markArrived(
    supply: SupplyRecord,
    comment: string,
    followUp?: (trx: Db) => Promise<unknown>,
  ): Promise<boolean> {
    return this.store.db.transaction().execute(async (trx) => {
      const moved = await this.store.move(trx, supply.accountId, supply.id, SUPPLY_STATUS.confirmed, {
        status: SUPPLY_STATUS.arrived,
        statusHistory: [historyItem(SUPPLY_STATUS.arrived, comment), ...supply.statusHistory],
      });
      if (moved) await followUp?.(trx);
      return moved;
    });
  }

  /**
   * Accepted: the counted good units enter stock with the supply as their document, the
   * supply keeps the count beside the act, and preorders waiting for goods there are served
   * (a job, after the commit).
   */
  private async acceptCounted(
    supply: SupplyRecord,
    countOf: (line: StoredLine) => { accepted: number; damaged: number },
    who: { actor: string; employeeId: number | null },
    comment: string | null,
  ): Promise<void> {
    const lines = supply.lines.map((line) => ({ ...line, ...countOf(line) }));
    const note: MovementNote = { ...who, supplyId: supply.id, reason: `supply ${supply.id} accepted` };
    // deliveryAcceptedForFulfillment: one event for each shop kept at the warehouse (read before the transaction)
    const shops = await this.stock.shopsAt(supply.accountId, supply.fulfilmentWarehouseId);
    const hasDiscrepancies = lines.some((line) => {
      const found = discrepancyOf({ declared: line.count, accepted: line.accepted ?? 0, damaged: line.damaged ?? 0 });
      return found.short + found.surplus + found.damaged > 0;
    });
    await this.stock.store.transaction(async (trx) => {
      const moved = await this.store.move(trx, supply.accountId, supply.id, SUPPLY_STATUS.arrived, {
        status: SUPPLY_STATUS.accepted,
        statusHistory: [historyItem(SUPPLY_STATUS.accepted, comment), ...supply.statusHistory],
        lines,
      });
      if (!moved) throw this.moved(supply.id);
      for (const line of lines) {
        if ((line.accepted ?? 0) <= 0) continue;
        await this.stock.store.receive(
          trx,
          supply.accountId,
          {
            fulfilmentWarehouseId: supply.fulfilmentWarehouseId,
            productId: line.id,
            batch: line.batch ?? '',
            expires: line.expires,
          },
          line.accepted as number,
          note,
        );
      }
      const now = new Date().toISOString();
      for (const shop of shops) {
        const payload = {
          cmsId: null,
          trackNumber: null,
          supplyId: supply.id,
          hasDiscrepancies,
          fulfilmentWarehouseId: supply.fulfilmentWarehouseId,
        };
        // an event of no order: order id 0
        await writeOrderEvents(
          trx,
          outboxRows(
            supply.accountId,
            shop.id,
            0,
            [{ type: 'fulfilment.supply_accepted', statusFrom: null, statusTo: null, payload }],
            now,
          ),
        );
      }
      await this.jobs.enqueue(
        supply.accountId,
        AUTO_RESERVE_JOB,
        { fulfilmentWarehouseId: supply.fulfilmentWarehouseId },
        {},
        trx,
      );
    });
  }

  private async present(records: SupplyRecord[]): Promise<Supply[]> {
    if (records.length === 0) return [];
    const warehouses = new Map((await this.warehouses.fulfilmentWarehouses()).map((item) => [item.id, item]));
    return records.map((record) => {
      const warehouse = warehouses.get(record.fulfilmentWarehouseId);
      const products = record.lines.map((line) => {
        const counted = line.accepted !== null;
        const discrepancy = counted
          ? discrepancyOf({ declared: line.count, accepted: line.accepted as number, damaged: line.damaged ?? 0 })
          : null;
        return {
          ...line,
          short: discrepancy?.short ?? null,
          surplus: discrepancy?.surplus ?? null,
          damaged: counted ? (line.damaged ?? 0) : null,
        };
      });
      return {
        id: record.id,
        date: record.date,
        type: record.type,
        warehouse: {
          id: record.fulfilmentWarehouseId,
          name: warehouse?.name ?? '',
          address: warehouse?.address ?? null,
        },
        status: record.status,
        statusHistory: record.statusHistory,
        countPlaces: record.places,
        products,
        file: record.file,
        employeeId: record.employeeId,
        hasDiscrepancies: products.some((line) => (line.short ?? 0) + (line.surplus ?? 0) + (line.damaged ?? 0) > 0),
      };
    });
  }

  private async find(scope: Scope, id: number): Promise<SupplyRecord> {
    const supply = await this.store.get(scope.accountId, id);
    if (!supply) throw notFound('Supply', id);
    if (scope.shopKeyShopId !== null) {
      const own = await this.shopFulfilmentWarehouse(scope);
      if (supply.fulfilmentWarehouseId !== own) throw this.outsideShop(scope, supply.fulfilmentWarehouseId);
    }
    return supply;
  }

  private async atWarehouse(operator: Operator, id: number): Promise<SupplyRecord> {
    const supply = await this.store.atWarehouse(operator.fulfilmentWarehouseId, id);
    if (!supply) throw notFound('Supply', id);
    // the warehouse serves many accounts: the change is the supply's account's
    identifyAuditCaller({ accountId: supply.accountId });
    return supply;
  }

  /** The fulfilment warehouse a caller may send goods to: any for an account token, its shop's for a shop key. */
  private async reachable(
    scope: Scope,
    fulfilmentWarehouseId: number,
    field: string,
  ): Promise<FulfilmentWarehouseRecord> {
    const warehouse = (await this.warehouses.fulfilmentWarehouses()).find((item) => item.id === fulfilmentWarehouseId);
    if (!warehouse)
      throw new AppError(
        400,
        'validation_failed',
        `${field}: ${fulfilmentWarehouseId} is not a fulfilment warehouse of the service.`,
        [{ field, message: `${fulfilmentWarehouseId} is not one of GET /v2/warehouses?hold=1` }],
      );
    if (scope.shopKeyShopId !== null && (await this.shopFulfilmentWarehouse(scope)) !== fulfilmentWarehouseId)
      throw this.outsideShop(scope, fulfilmentWarehouseId);
    return warehouse;
  }

  /** A shop key's shop keeps its goods at one fulfilment warehouse (none: its supplies are none of its business). */
  private async shopFulfilmentWarehouse(scope: Scope): Promise<number | null> {
    const shopId = scope.shopKeyShopId as number;
    requireShopAccess(scope, shopId);
    const warehouse = (await this.shops.get(scope, shopId)).warehouse;
    return warehouse.type === WAREHOUSE_TYPE.fulfilment ? warehouse.fulfilmentWarehouseId : null;
  }

  private outsideShop(scope: Scope, fulfilmentWarehouseId: number): AppError {
    return forbidden(
      `This API key belongs to shop ${scope.shopKeyShopId}, whose goods are not kept at fulfilment warehouse ${fulfilmentWarehouseId}.`,
    );
  }

  private requireDraft(supply: SupplyRecord, what: string): void {
    if (supply.status !== SUPPLY_STATUS.draft) {
      throw conflict(
        'supply_state',
        `Supply ${supply.id} is ${SUPPLY_STATUS_NAMES[supply.status]}: only a draft can be ${what}.`,
        [{ id: supply.id, message: `status ${supply.status}` }],
      );
    }
  }

  private moved(id: number): AppError {
    return conflict('supply_changed', `Supply ${id} was changed by another request at the same time; read it again.`);
  }
}

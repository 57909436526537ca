/**
 * Bills and agent reports: made once per billing period of each account by a job, never
 * changed afterwards; payments of bills recorded by the service's billing operators.
 *
 * A sweep job (every SWEEP_MINUTES, one per slot across processes) finds the accounts whose
 * last ended period is not closed and queues one close job per account and period (unique
 * key). Closing writes the lines of every charge source to drafts, renders the files from
 * them, and writes the period, the bill and the agent reports in one transaction: the unique index on (account,
 * period start) makes a second process doing the same work write nothing.
 */
import { randomUUID } from 'node:crypto';
import type { BillingPeriodKind } from '../../config.js';
import { requireAccountWide, type Scope } from '../../platform/auth.js';
import { addDays, startOfDay, todayIn, wallClockIn } from '../../platform/clock.js';
import { hashToken, newToken } from '../../platform/crypto.js';
import { AppError, fieldError, notFound, unprocessable } from '../../platform/errors.js';
import { identifyAuditCaller } from '../../platform/audit.js';
import type { FileStore } from '../../platform/files.js';
import type { JobQueue, JobWorker } from '../../platform/jobs.js';
import { toKopecks, toRoubles } from '../../platform/money.js';
import type { Page, Paging } from '../../platform/paging.js';
import { renderBill } from '../../documents/bill.js';
import {
  REMITTANCE_COLUMNS,
  reportSheet,
  SERVICE_COLUMNS,
  type RemittanceReportRow,
} from '../../documents/report-sheets.js';
import { writeWorkbook, XLSX_CONTENT_TYPE } from '../../documents/xlsx.js';
import type { AccountService } from '../accounts/service.js';
import type { OrderService } from '../orders/service.js';
import type { BillingRates, ChargeLine, ChargePeriod, ChargeSource } from './charges.js';
import { instantsOf, lastDayOf, lastEndedPeriod, periodContaining, type BillingPeriod } from './periods.js';
import { deliveredAt, deliveredByTheShop, remittanceLineOf } from './rules.js';
import type { AgentReportQuery, AgentReportView, BillPaymentBody, BillQuery, BillView } from './schemas.js';
import type { AgentReportRow, ReportStore } from './store.js';

export const CLOSE_DUE_JOB = 'reports.close-due';
export const CLOSE_PERIOD_JOB = 'reports.close-period';
const SWEEP_MINUTES = 15;
/** Bill lines written to the drafts per statement while a period is closed. */
const DRAFT_BATCH = 1000;
/** Drafts older than this belong to a run whose process died mid-close. */
const DRAFT_LIFETIME_MS = 24 * 3600_000;

export const PAY_STATUS = { unpaid: 0, partly: 1, paid: 2 } as const;
export const AGENT_REPORT = { codRemittance: 1, servicesRendered: 2 } as const;

export type Bill = BillView;
export type AgentReport = AgentReportView;

interface ClosePeriodPayload {
  accountId: number;
  start: string;
  end: string;
}

/** A billing operator of the service, from an `opr_` token of the billing scope. */
export interface BillingOperator {
  id: number;
}

function payStatusOf(sum: number, paid: number): BillView['payStatus'] {
  if (paid <= 0) return PAY_STATUS.unpaid;
  return paid >= sum ? PAY_STATUS.paid : PAY_STATUS.partly;
}

function billOf(row: { id: number; date: string; sum: number; paySum: number; file: string }): Bill {
  return {
    id: row.id,
    date: row.date,
    sum: toRoubles(row.sum),
    payStatus: payStatusOf(row.sum, row.paySum),
    paySum: toRoubles(row.paySum),
    file: row.file,
  };
}

function agentReportOf(row: AgentReportRow): AgentReport {
  return {
    ...row,
    type: row.type === AGENT_REPORT.codRemittance ? AGENT_REPORT.codRemittance : AGENT_REPORT.servicesRendered,
    sum: toRoubles(row.sum),
  };
}

export class BillingService {
  constructor(
    private readonly store: ReportStore,
    private readonly files: FileStore,
    private readonly accounts: AccountService,
    private readonly orders: OrderService,
    private readonly jobs: JobQueue,
    private readonly options: { period: BillingPeriodKind; rates: BillingRates },
    /** Where bill lines come from (deliveries, fulfilment, storage here; pickups by their area), declared where the services are wired. */
    private readonly sources: readonly ChargeSource[],
  ) {}

  registerJobs(worker: JobWorker): void {
    worker.register(CLOSE_DUE_JOB, async () => {
      try {
        await this.store.purgeDraftLines(new Date(Date.now() - DRAFT_LIFETIME_MS).toISOString());
        await this.closeDuePeriods(new Date());
      } finally {
        await this.scheduleSweep(new Date(Date.now() + SWEEP_MINUTES * 60_000));
      }
    });
    worker.register<ClosePeriodPayload>(CLOSE_PERIOD_JOB, async (job) => {
      await this.closePeriod(job.payload, new Date());
    });
  }

  /** Makes sure a sweep is due (each sweep schedules the next; one per slot across processes). */
  async scheduleSweep(at = new Date()): Promise<void> {
    const slot = Math.floor(at.getTime() / (SWEEP_MINUTES * 60_000));
    await this.jobs.enqueue(
      null,
      CLOSE_DUE_JOB,
      {},
      { runAt: at, uniqueKey: `reports-close-due:${slot}`, maxAttempts: 1 },
    );
  }

  /** Queues the closing of each account's last ended period (in its zone) not closed yet. Answers how many were queued. */
  async closeDuePeriods(now: Date): Promise<number> {
    let queued = 0;
    let batch: Array<{ id: number; period: BillingPeriod }> = [];
    const flush = async () => {
      const byStart = new Map<string, Array<{ id: number; period: BillingPeriod }>>();
      for (const item of batch) byStart.set(item.period.start, [...(byStart.get(item.period.start) ?? []), item]);
      for (const [start, items] of byStart) {
        const closed = await this.store.closedAmong(
          items.map((item) => item.id),
          start,
        );
        for (const item of items) {
          if (closed.has(item.id)) continue;
          await this.jobs.enqueue<ClosePeriodPayload>(
            item.id,
            CLOSE_PERIOD_JOB,
            { accountId: item.id, ...item.period },
            { uniqueKey: `${item.id}:${item.period.start}`, runAt: now },
          );
          queued += 1;
        }
      }
      batch = [];
    };
    for await (const account of this.accounts.accountsCreatedBefore(now.toISOString())) {
      const period = lastEndedPeriod(now, account.timeZone, this.options.period);
      // an account made after the period ended had nothing in it
      if (account.createdAt >= startOfDay(period.end, account.timeZone)) continue;
      batch.push({ id: account.id, period });
      if (batch.length >= 500) await flush();
    }
    await flush();
    return queued;
  }

  /**
   * Makes the period's bill and agent reports, unless another process (or an earlier run) did.
   * Nothing is held whole: the lines are written to drafts in batches as the sources yield
   * them (count and sum kept as they go), the PDF and the services xlsx are written into the
   * file store from the drafts read back in pages, and the closing transaction copies the
   * drafts into the bill's lines with one statement.
   */
  async closePeriod(payload: ClosePeriodPayload, now: Date): Promise<boolean> {
    if ((await this.store.closedAmong([payload.accountId], payload.start)).size > 0) return false;
    const timeZone = await this.accounts.timeZoneOf(payload.accountId);
    const period: ChargePeriod = {
      accountId: payload.accountId,
      timeZone,
      start: payload.start,
      end: payload.end,
      ...instantsOf(payload, timeZone),
    };
    const date = lastDayOf(payload);
    const number = `${payload.accountId}-${payload.start.replaceAll('-', '')}`;
    const run = randomUUID();
    try {
      const agentReports: Array<{ type: number; sum: number; file: string }> = [];
      let bill: { sum: number; file: string; run: string } | null = null;
      const { count, sum } = await this.draftLinesOf(period, run, now);
      if (count > 0) {
        const lines = () => this.store.draftLines(run, payload.accountId);
        const file = await this.files.putStreamed(
          payload.accountId,
          { contentType: 'application/pdf', extension: 'pdf', downloadName: `bill-${number}.pdf` },
          async (out) =>
            renderBill(out, {
              number,
              date,
              periodFirstDay: payload.start,
              periodLastDay: date,
              service: this.options.rates.service,
              customer: { accountId: payload.accountId, name: await this.accounts.nameOf(payload.accountId) },
              lines: lines(),
              count,
              sum,
            }),
        );
        bill = { sum, file: file.url, run };
        const services = await this.files.putStreamed(
          payload.accountId,
          { contentType: XLSX_CONTENT_TYPE, extension: 'xlsx', downloadName: `services-${number}.xlsx` },
          (out) =>
            writeWorkbook(out, [
              reportSheet(
                {
                  name: 'Оказанные услуги',
                  title: `Отчёт агента об оказанных услугах № ${number}`,
                  filters: this.periodLines(payload, date),
                  columns: SERVICE_COLUMNS,
                },
                lines(),
              ),
            ]),
        );
        agentReports.push({ type: AGENT_REPORT.servicesRendered, sum, file: services.url });
      }
      const remittance = await this.writeRemittance(period, number, date);
      if (remittance) agentReports.push({ type: AGENT_REPORT.codRemittance, ...remittance });
      return await this.store.closePeriod(
        { accountId: payload.accountId, start: payload.start, end: payload.end, date, bill, agentReports },
        now.toISOString(),
      );
    } finally {
      await this.store.deleteDraftLines(run);
    }
  }

  /**
   * The sandbox's "close now" (modules/sandbox): the account's current period, cut short at the
   * end of today, closed at once as its end would close it. The period then counts as closed:
   * what the account is charged later in it goes in no bill (a sandbox account ships nothing real).
   */
  async closeCurrentPeriodNow(accountId: number, now: Date): Promise<{ start: string; lastDay: string }> {
    const timeZone = await this.accounts.timeZoneOf(accountId);
    const today = todayIn(timeZone, now);
    const current = periodContaining(today, this.options.period);
    const payload: ClosePeriodPayload = { accountId, start: current.start, end: addDays(today, 1) };
    if (!(await this.closePeriod(payload, now))) {
      throw new AppError(
        409,
        'period_closed',
        `The billing period from ${current.start} is closed already; the next one starts on ${current.end}.`,
      );
    }
    return { start: payload.start, lastDay: today };
  }

  /** Writes the lines of every charge source to the drafts of `run`, DRAFT_BATCH a statement; answers their count and sum. */
  private async draftLinesOf(period: ChargePeriod, run: string, now: Date): Promise<{ count: number; sum: number }> {
    let count = 0;
    let sum = 0;
    let batch: ChargeLine[] = [];
    const flush = async () => {
      await this.store.insertDraftLines(run, period.accountId, batch, count - batch.length + 1, now.toISOString());
      batch = [];
    };
    for (const source of this.sources) {
      for await (const line of source.chargesIn(period)) {
        batch.push(line);
        count += 1;
        sum += line.amount;
        if (batch.length >= DRAFT_BATCH) await flush();
      }
    }
    await flush();
    return { count, sum };
  }

  /** The COD remittance xlsx of the period, written as its orders are read; null (no file) when there are none. */
  private async writeRemittance(
    period: ChargePeriod,
    number: string,
    date: string,
  ): Promise<{ sum: number; file: string } | null> {
    const lines = this.remittanceOf(period)[Symbol.asyncIterator]();
    const first = await lines.next();
    if (first.done) return null;
    let due = 0;
    async function* rows(): AsyncGenerator<RemittanceReportRow> {
      for (let next = first; !next.done; next = await lines.next()) {
        due += next.value.due;
        yield { ...next.value, deliveredAt: wallClockIn(period.timeZone, next.value.deliveredAt) };
      }
    }
    const file = await this.files.putStreamed(
      period.accountId,
      { contentType: XLSX_CONTENT_TYPE, extension: 'xlsx', downloadName: `cod-remittance-${number}.xlsx` },
      (out) =>
        writeWorkbook(out, [
          reportSheet(
            {
              name: 'Наложенный платёж',
              title: `Отчёт агента о перечислении наложенного платежа № ${number}`,
              filters: this.periodLines(period, date),
              columns: REMITTANCE_COLUMNS,
            },
            rows(),
          ),
        ]),
    );
    return { sum: due, file: file.url };
  }

  private periodLines(period: BillingPeriod, lastDay: string): string[] {
    return [
      `Период: ${period.start.split('-').reverse().join('.')} — ${lastDay.split('-').reverse().join('.')}`,
      `Расчётный период: ${this.options.period}`,
    ];
  }

  /** Orders delivered (44, 47) in the period with cash on delivery: what was collected, withheld and is due. */
  private async *remittanceOf(period: ChargePeriod) {
    for await (const order of this.orders.scanForReport(period.accountId, {
      delivered: { from: period.from, to: period.to },
      withCod: true,
    })) {
      const at = deliveredAt(order);
      if (at === null || deliveredByTheShop(order)) continue;
      yield remittanceLineOf(order, at);
    }
  }

  async listBills(scope: Scope, query: BillQuery, at: Paging): Promise<Page<Bill>> {
    requireAccountWide(scope, "read the account's bills");
    const page = await this.store.listBills(scope.accountId, query, at);
    return { total: page.total, items: page.items.map(billOf) };
  }

  async listAgentReports(scope: Scope, query: AgentReportQuery, at: Paging): Promise<Page<AgentReport>> {
    requireAccountWide(scope, "read the account's agent reports");
    const page = await this.store.listAgentReports(scope.accountId, query, at);
    return { total: page.total, items: page.items.map(agentReportOf) };
  }

  async acceptAgentReport(scope: Scope, id: number): Promise<void> {
    requireAccountWide(scope, "accept the account's agent reports");
    if (!(await this.store.acceptAgentReport(scope.accountId, id, new Date().toISOString())))
      throw notFound('Agent report', id);
  }

  /** The operator of an `Authorization: Bearer opr_...` header of the billing scope; 401 otherwise. */
  async operatorOf(header: string | undefined): Promise<BillingOperator> {
    const token = /^Bearer\s+(opr_\S+)\s*$/i.exec(header ?? '')?.[1];
    const operator = token ? await this.store.operatorByTokenHash(hashToken(token)) : undefined;
    if (!operator)
      throw new AppError(
        401,
        'invalid_operator_token',
        'This endpoint is for the service\'s billing operators: send "Authorization: Bearer opr_..." of the billing scope (npm run cli -- billing operator-token).',
      );
    identifyAuditCaller({ actor: { kind: 'operator', id: `billing:${operator.id}` } });
    return operator;
  }

  async issueOperatorToken(name: string): Promise<{ id: number; token: string }> {
    const token = newToken('opr');
    const id = await this.store.insertOperatorToken(name, hashToken(token), new Date().toISOString());
    return { id, token };
  }

  /** Records a payment of a bill (partial payments allowed, never more than the bill's sum). */
  async recordPayment(operator: BillingOperator, billId: number, body: BillPaymentBody): Promise<Bill> {
    const bill = await this.store.billById(billId);
    if (!bill) throw notFound('Bill', billId);
    identifyAuditCaller({ accountId: bill.accountId });
    const sum = toKopecks(body.sum);
    if (Math.abs(sum - body.sum * 100) > 1e-6) throw fieldError('sum', 'must be whole kopecks (at most 2 decimals)');
    const date = body.date ?? todayIn(await this.accounts.timeZoneOf(bill.accountId));
    const paid = await this.store.addPayment(bill, { sum, date, operatorId: operator.id }, new Date().toISOString());
    if (paid === null) {
      throw unprocessable(
        'overpayment',
        `Bill ${billId} is for ${toRoubles(bill.sum).toFixed(2)} and ${toRoubles(bill.paySum).toFixed(2)} is paid already: a payment of ${body.sum.toFixed(2)} would pay more than it.`,
        [{ field: 'sum', message: `must be at most ${toRoubles(bill.sum - bill.paySum).toFixed(2)}` }],
      );
    }
    return billOf({ ...bill, paySum: paid });
  }
}

/** SQL of reports: bills, their lines and payments, agent and analytical reports; scoped by account. */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { DatabaseKind } from '../../platform/db/database.js';
import type { Tables } from '../../platform/db/tables.js';
import { flag, fromJson, isUniqueViolation, toJson } from '../../platform/db/values.js';
import type { Page, Paging } from '../../platform/paging.js';
import type { ChargeLine } from './charges.js';
import { outboxRows, writeOrderEvents } from '../events/outbox.js';
import { toRoubles } from '../../platform/money.js';

export interface BillRow {
  id: number;
  accountId: number;
  date: string;
  sum: number;
  paySum: number;
  file: string;
}

export interface AgentReportRow {
  id: number;
  date: string;
  type: number;
  sum: number;
  accepted: boolean;
  file: string;
}

export interface AnalyticalReportRow {
  id: number;
  date: string;
  type: number;
  file: string;
  status: string;
  filters: Record<string, unknown>;
}

/** What closing a period writes, all in one transaction. */
export interface ClosedPeriod {
  accountId: number;
  start: string;
  end: string;
  date: string;
  /** The bill: its lines are the drafts of `run` (`insertDraftLines`), copied as they are. */
  bill: { sum: number; file: string; run: string } | null;
  agentReports: Array<{ type: number; sum: number; file: string }>;
}

export class ReportStore {
  constructor(
    private readonly db: Kysely<Tables>,
    private readonly kind: DatabaseKind,
  ) {}

  /** Which of these accounts have closed the period starting on `start`. */
  async closedAmong(accountIds: number[], start: string): Promise<Set<number>> {
    if (accountIds.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('billing_periods')
      .select('account_id')
      .where('account_id', 'in', accountIds)
      .where('period_start', '=', start)
      .execute();
    return new Set(rows.map((row) => row.account_id));
  }

  /**
   * Records a closed period with its bill and agent reports. Answers false when the period
   * was closed already (another process got there first: the unique index says so) and
   * writes nothing then.
   */
  async closePeriod(closed: ClosedPeriod, now: string): Promise<boolean> {
    try {
      await this.db.transaction().execute(async (trx) => {
        await trx
          .insertInto('billing_periods')
          .values({ account_id: closed.accountId, period_start: closed.start, period_end: closed.end, closed_at: now })
          .execute();
        if (closed.bill) await this.insertBill(trx, closed, closed.bill, now);
        for (const report of closed.agentReports) {
          await trx
            .insertInto('agent_reports')
            .values({
              account_id: closed.accountId,
              type: report.type,
              period_start: closed.start,
              period_end: closed.end,
              date: closed.date,
              sum: report.sum,
              accepted: false,
              accepted_at: null,
              file: report.file,
              created_at: now,
            })
            .execute();
        }
      });
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  private async insertBill(
    trx: Transaction<Tables>,
    closed: ClosedPeriod,
    bill: NonNullable<ClosedPeriod['bill']>,
    now: string,
  ): Promise<void> {
    const { id } = await trx
      .insertInto('bills')
      .values({
        account_id: closed.accountId,
        period_start: closed.start,
        period_end: closed.end,
        date: closed.date,
        sum: bill.sum,
        file: bill.file,
        created_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const event = {
      type: 'bill.issued' as const,
      statusFrom: null,
      statusTo: null,
      payload: { cmsId: null, trackNumber: null, billId: id, date: closed.date, sum: toRoubles(bill.sum) },
    };
    await writeOrderEvents(trx, outboxRows(closed.accountId, null, 0, [event], now));
    // one statement: the lines go from table to table, never through the process
    await trx
      .insertInto('bill_lines')
      .columns(['account_id', 'bill_id', 'position', 'source', 'description', 'order_id', 'quantity', 'amount'])
      .expression(
        trx
          .selectFrom('bill_line_drafts')
          .select((eb) => [
            'account_id',
            eb.val(id).as('bill_id'),
            'position',
            'source',
            'description',
            'order_id',
            'quantity',
            'amount',
          ])
          .where('run', '=', bill.run)
          .where('account_id', '=', closed.accountId),
      )
      .execute();
  }

  /** Adds lines to the drafts of a closing run, numbered from `firstPosition`, in one statement. */
  async insertDraftLines(
    run: string,
    accountId: number,
    lines: readonly ChargeLine[],
    firstPosition: number,
    now: string,
  ): Promise<void> {
    if (lines.length === 0) return;
    const values = lines.map((line, index) => ({
      run,
      account_id: accountId,
      position: firstPosition + index,
      source: line.source,
      description: line.description,
      order_id: line.orderId,
      quantity: line.quantity,
      amount: line.amount,
      created_at: now,
    }));
    await this.db.insertInto('bill_line_drafts').values(values).execute();
  }

  /** The drafts of a closing run in their order, read in keyset pages of `pageSize`. */
  async *draftLines(run: string, accountId: number, pageSize = 1000): AsyncGenerator<ChargeLine> {
    for (let after = 0; ; ) {
      const rows = await this.db
        .selectFrom('bill_line_drafts')
        .select(['position', 'source', 'description', 'order_id', 'quantity', 'amount'])
        .where('run', '=', run)
        .where('account_id', '=', accountId)
        .where('position', '>', after)
        .orderBy('position')
        .limit(pageSize)
        .execute();
      for (const row of rows)
        yield {
          source: row.source,
          description: row.description,
          orderId: row.order_id === null ? null : Number(row.order_id),
          quantity: Number(row.quantity),
          amount: Number(row.amount),
        };
      if (rows.length < pageSize) return;
      after = rows[rows.length - 1].position;
    }
  }

  async deleteDraftLines(run: string): Promise<void> {
    await this.db.deleteFrom('bill_line_drafts').where('run', '=', run).execute();
  }

  /** Deletes the drafts of runs that died before cleaning up (their process stopped mid-close). */
  async purgeDraftLines(before: string): Promise<void> {
    await this.db.deleteFrom('bill_line_drafts').where('created_at', '<', before).execute();
  }

  private paid() {
    return this.db
      .selectFrom('bill_payments')
      .select(['bill_id', sql<number>`sum(sum)`.as('paid')])
      .groupBy('bill_id')
      .as('paid');
  }

  async listBills(accountId: number, range: { from?: string; to?: string }, at: Paging): Promise<Page<BillRow>> {
    let base = this.db.selectFrom('bills').where('bills.account_id', '=', accountId);
    if (range.from) base = base.where('bills.date', '>=', range.from);
    if (range.to) base = base.where('bills.date', '<=', range.to);
    const total = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
    const rows = await base
      .leftJoin(this.paid(), 'paid.bill_id', 'bills.id')
      .select(['bills.id', 'bills.account_id', 'bills.date', 'bills.sum', 'bills.file', 'paid.paid'])
      .orderBy('bills.id', 'desc')
      .limit(at.perPage)
      .offset(at.offset)
      .execute();
    return {
      total: Number(total.total),
      items: rows.map((row) => ({
        id: row.id,
        accountId: row.account_id,
        date: row.date,
        sum: Number(row.sum),
        paySum: Number(row.paid ?? 0),
        file: row.file,
      })),
    };
  }

  /** Service-wide (the billing operator's side): a bill by id, whatever its account. */
  async billById(id: number): Promise<BillRow | undefined> {
    const row = await this.db
      .selectFrom('bills')
      .leftJoin(this.paid(), 'paid.bill_id', 'bills.id')
      .select(['bills.id', 'bills.account_id', 'bills.date', 'bills.sum', 'bills.file', 'paid.paid'])
      .where('bills.id', '=', id)
      .executeTakeFirst();
    return row
      ? {
          id: row.id,
          accountId: row.account_id,
          date: row.date,
          sum: Number(row.sum),
          paySum: Number(row.paid ?? 0),
          file: row.file,
        }
      : undefined;
  }

  async billLines(accountId: number, billId: number): Promise<ChargeLine[]> {
    const rows = await this.db
      .selectFrom('bill_lines')
      .select(['source', 'description', 'order_id', 'quantity', 'amount'])
      .where('account_id', '=', accountId)
      .where('bill_id', '=', billId)
      .orderBy('position')
      .execute();
    return rows.map((row) => ({
      source: row.source,
      description: row.description,
      orderId: row.order_id,
      quantity: Number(row.quantity),
      amount: Number(row.amount),
    }));
  }

  /**
   * Adds a payment unless it would pay more than the bill's sum: the check and the insert are
   * one transaction, the bill row locked on PostgreSQL, so two payments cannot both pass it.
   * Answers the bill's paid sum after it, or null when refused.
   */
  async addPayment(
    bill: { id: number; accountId: number; sum: number },
    payment: { sum: number; date: string; operatorId: number },
    now: string,
  ): Promise<number | null> {
    return this.db.transaction().execute(async (trx) => {
      let lock = trx.selectFrom('bills').select('id').where('id', '=', bill.id);
      if (this.kind === 'postgres') lock = lock.forUpdate();
      await lock.executeTakeFirst();
      const paid = await trx
        .selectFrom('bill_payments')
        .select(sql<number>`coalesce(sum(sum), 0)`.as('paid'))
        .where('bill_id', '=', bill.id)
        .executeTakeFirstOrThrow();
      const after = Number(paid.paid) + payment.sum;
      if (after > bill.sum) return null;
      await trx
        .insertInto('bill_payments')
        .values({
          account_id: bill.accountId,
          bill_id: bill.id,
          sum: payment.sum,
          date: payment.date,
          operator_id: payment.operatorId,
          created_at: now,
        })
        .execute();
      return after;
    });
  }

  async listAgentReports(
    accountId: number,
    filter: { from?: string; to?: string; type?: number },
    at: Paging,
  ): Promise<Page<AgentReportRow>> {
    let base = this.db.selectFrom('agent_reports').where('account_id', '=', accountId);
    if (filter.from) base = base.where('date', '>=', filter.from);
    if (filter.to) base = base.where('date', '<=', filter.to);
    if (filter.type !== undefined) base = base.where('type', '=', filter.type);
    const total = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
    const rows = await base
      .select(['id', 'date', 'type', 'sum', 'accepted', 'file'])
      .orderBy('id', 'desc')
      .limit(at.perPage)
      .offset(at.offset)
      .execute();
    return {
      total: Number(total.total),
      items: rows.map((row) => ({
        id: row.id,
        date: row.date,
        type: row.type,
        sum: Number(row.sum),
        accepted: flag(row.accepted),
        file: row.file,
      })),
    };
  }

  /** Marks an agent report accepted (the first time only); false when the account has no such report. */
  async acceptAgentReport(accountId: number, id: number, now: string): Promise<boolean> {
    await this.db
      .updateTable('agent_reports')
      .set({ accepted: true, accepted_at: now })
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .where('accepted', '=', false)
      .execute();
    const row = await this.db
      .selectFrom('agent_reports')
      .select('id')
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row !== undefined;
  }

  async insertAnalytical(
    accountId: number,
    report: {
      type: number;
      from: string;
      to: string;
      filters: Record<string, unknown>;
      fileName: string;
      file: string;
      status: string;
    },
    now: string,
  ): Promise<number> {
    const row = await this.db
      .insertInto('analytical_reports')
      .values({
        account_id: accountId,
        type: report.type,
        date_from: report.from,
        date_to: report.to,
        filters: toJson(report.filters),
        file_name: report.fileName,
        file: report.file,
        status: report.status,
        created_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async setAnalyticalStatus(accountId: number, id: number, status: string): Promise<void> {
    await this.db
      .updateTable('analytical_reports')
      .set({ status })
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .execute();
  }

  /** Service-wide by the file name alone (the name is the capability, like the file route's lookup). */
  async analyticalStatusOfFile(fileName: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('analytical_reports')
      .select('status')
      .where('file_name', '=', fileName)
      .executeTakeFirst();
    return row?.status;
  }

  async listAnalytical(
    accountId: number,
    filter: { from?: string; to?: string; type?: number },
    at: Paging,
  ): Promise<Page<AnalyticalReportRow>> {
    let base = this.db.selectFrom('analytical_reports').where('account_id', '=', accountId);
    if (filter.from) base = base.where('created_at', '>=', filter.from);
    if (filter.to) base = base.where('created_at', '<', filter.to);
    if (filter.type !== undefined) base = base.where('type', '=', filter.type);
    const total = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
    const rows = await base
      .select(['id', 'created_at', 'type', 'file', 'status', 'filters'])
      .orderBy('id', 'desc')
      .limit(at.perPage)
      .offset(at.offset)
      .execute();
    return {
      total: Number(total.total),
      items: rows.map((row) => ({
        id: row.id,
        date: new Date(row.created_at).toISOString(),
        type: row.type,
        file: row.file,
        status: row.status,
        filters: fromJson<Record<string, unknown>>(row.filters),
      })),
    };
  }

  async insertOperatorToken(name: string, tokenHash: string, now: string): Promise<number> {
    const row = await this.db
      .insertInto('billing_operator_tokens')
      .values({ name, token_hash: tokenHash, created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async operatorByTokenHash(tokenHash: string): Promise<{ id: number } | undefined> {
    return this.db
      .selectFrom('billing_operator_tokens')
      .select('id')
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst();
  }
}

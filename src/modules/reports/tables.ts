import type { DateText, Flag, Id, Instant, Json } from '../../platform/db/column-types.js';

export interface ReportTables {
  /** A billing period of an account that was closed (its bill and agent reports made, or nothing to make). */
  billing_periods: {
    id: Id;
    account_id: number;
    period_start: DateText;
    /** The day after the period (exclusive). */
    period_end: DateText;
    closed_at: Instant;
  };
  /** Issued bills: never changed after insertion (payments are their own table). */
  bills: {
    id: Id;
    account_id: number;
    period_start: DateText;
    period_end: DateText;
    /** The issue date: the period's last day. */
    date: DateText;
    /** Kopecks: the sum of the lines, exactly. */
    sum: number;
    /** URL of the PDF. */
    file: string;
    created_at: Instant;
  };
  bill_lines: {
    id: Id;
    account_id: number;
    bill_id: number;
    position: number;
    /** The charge source: delivery | service | fulfilment | storage | pickup. */
    source: string;
    description: string;
    order_id: number | null;
    quantity: number;
    /** Kopecks. */
    amount: number;
  };
  /** Lines of a bill being made by one closing run: written in batches, read back in pages, copied into bill_lines on commit, then deleted. */
  bill_line_drafts: {
    id: Id;
    /** The closing run (random): two processes closing the same period keep apart. */
    run: string;
    account_id: number;
    position: number;
    source: string;
    description: string;
    order_id: number | null;
    quantity: number;
    amount: number;
    created_at: Instant;
  };
  bill_payments: {
    id: Id;
    account_id: number;
    bill_id: number;
    /** Kopecks, above zero. */
    sum: number;
    date: DateText;
    operator_id: number;
    created_at: Instant;
  };
  agent_reports: {
    id: Id;
    account_id: number;
    /** 1 cash on delivery remittance, 2 services rendered. */
    type: number;
    period_start: DateText;
    period_end: DateText;
    date: DateText;
    /** Kopecks: the sum due to the shop (1) or the total of the services (2). */
    sum: number;
    accepted: Flag;
    accepted_at: Instant | null;
    file: string;
    created_at: Instant;
  };
  analytical_reports: {
    id: Id;
    account_id: number;
    /** 1 orders, 2 deliveries by company, 3 returns, 4 cash on delivery, 5 stock balance, 6 marking-code write-off. */
    type: number;
    date_from: DateText;
    date_to: DateText;
    /** The request as made (fulfilmentWarehouseId, onlyMarkCodes, stage). */
    filters: Json;
    /** The file store name, chosen when the report was asked for. */
    file_name: string;
    file: string;
    /** ready | pending (a job writes it) | failed */
    status: string;
    created_at: Instant;
  };
  /** Tokens of the service's billing operators (opr_…, scope billing): they record payments of bills. */
  billing_operator_tokens: {
    id: Id;
    name: string;
    token_hash: string;
    created_at: Instant;
  };
}

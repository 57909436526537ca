import Type, { type Static } from 'typebox';
import { PagingQueryFields } from '../../platform/paging.js';
import { CodeId, DateText, DayText } from '../../platform/schemas.js';

export const BillQuery = Type.Object({
  from: Type.Optional(DayText('Bills dated on or after this day, YYYY-MM-DD')),
  to: Type.Optional(DayText('Bills dated on or before this day, YYYY-MM-DD')),
  ...PagingQueryFields,
});
export type BillQuery = Static<typeof BillQuery>;

export const PAY_STATUS_DESCRIPTION = 'Payment status: 0 unpaid, 1 partly paid, 2 paid';

export const Bill = Type.Object(
  {
    id: Type.Integer(),
    date: Type.String({ description: 'Issue date, YYYY-MM-DD: the last day of the billing period' }),
    sum: Type.Number({ description: 'Roubles: the sum of every line of the bill, exactly' }),
    payStatus: Type.Enum([0, 1, 2], { description: PAY_STATUS_DESCRIPTION }),
    paySum: Type.Number({ description: 'Roubles paid so far (the sum of the recorded payments)' }),
    file: Type.String({
      description: "URL of the bill (PDF): every line, the totals, the service's and the account's details",
    }),
  },
  { description: 'Bill' },
);
export type BillView = Static<typeof Bill>;

const AGENT_TYPE_DESCRIPTION = 'Agent report type: 1 cash on delivery remittance, 2 services rendered';

export const AgentReportQuery = Type.Object({
  from: Type.Optional(DayText('Reports dated on or after this day, YYYY-MM-DD')),
  to: Type.Optional(DayText('Reports dated on or before this day, YYYY-MM-DD')),
  type: Type.Optional(Type.Enum([1, 2], { description: AGENT_TYPE_DESCRIPTION })),
  ...PagingQueryFields,
});
export type AgentReportQuery = Static<typeof AgentReportQuery>;

export const AgentReport = Type.Object(
  {
    id: Type.Integer(),
    date: Type.String({ description: 'YYYY-MM-DD: the last day of the billing period it covers' }),
    type: Type.Enum([1, 2], { description: AGENT_TYPE_DESCRIPTION }),
    sum: Type.Number({
      description:
        'Roubles: 1 the sum due to the shop (collected less the commissions withheld); 2 the total of the services',
    }),
    accepted: Type.Boolean(),
    file: Type.String({ description: 'URL of the report (xlsx)' }),
  },
  { description: 'AgentReport' },
);
export type AgentReportView = Static<typeof AgentReport>;

const ANALYTICAL_TYPE_DESCRIPTION =
  'Analytical report type: 1 orders, 2 deliveries by company, 3 returns, 4 cash on delivery, 5 stock balance, 6 marking-code write-off';
const STAGE_DESCRIPTION =
  'Marking-code write-off stage (type 6): 1 shipped to recipients (orders), 2 written off at the warehouse (damage, loss), 3 returned to the warehouse (codes back in circulation)';

export const AnalyticalQuery = Type.Object({
  from: Type.Optional(DayText('Reports asked for on or after this day (account time zone), YYYY-MM-DD')),
  to: Type.Optional(DayText('Reports asked for on or before this day (account time zone), YYYY-MM-DD')),
  type: Type.Optional(Type.Enum([1, 2, 3, 4, 5, 6], { description: ANALYTICAL_TYPE_DESCRIPTION })),
  ...PagingQueryFields,
});
export type AnalyticalQuery = Static<typeof AnalyticalQuery>;

export const AnalyticalBody = Type.Object({
  date: Type.Object({ from: DateText, to: DateText }),
  type: Type.Enum([1, 2, 3, 4, 5, 6], { description: ANALYTICAL_TYPE_DESCRIPTION }),
  fulfilmentWarehouseId: Type.Optional(
    CodeId(
      'Fulfilment warehouse of the service (GET /v2/warehouses?hold=1); required for type 6, optional filter of type 5',
    ),
  ),
  onlyMarkCodes: Type.Optional(
    Type.Boolean({
      description: 'Type 6 (required): only goods whose marking codes must be withdrawn (markCodeRequired)',
    }),
  ),
  stage: Type.Optional(Type.Enum([1, 2, 3], { description: STAGE_DESCRIPTION })),
});
export type AnalyticalBody = Static<typeof AnalyticalBody>;

export const AnalyticalReport = Type.Object(
  {
    id: Type.Integer(),
    date: Type.String({ description: 'When it was asked for (RFC 3339)' }),
    type: Type.Enum([1, 2, 3, 4, 5, 6], { description: ANALYTICAL_TYPE_DESCRIPTION }),
    file: Type.String({ description: 'URL of the xlsx (answers 202 with Retry-After while a job still writes it)' }),
    status: Type.Enum(['ready', 'pending', 'failed'], {
      description: 'Extension: ready, pending (a job writes it), failed',
    }),
  },
  { description: 'AnalyticalReport' },
);
export type AnalyticalReportView = Static<typeof AnalyticalReport>;

export const AnalyticalFile = Type.Object({
  file: Type.String({
    description:
      'URL of the xlsx; for a large report made by a job, the URL where it will appear (202 with Retry-After until then)',
  }),
});

export const BillPaymentBody = Type.Object({
  sum: Type.Number({ minimum: 0.01, maximum: 100_000_000, description: 'Roubles paid, to the kopeck' }),
  date: Type.Optional(DayText("Day of the payment, YYYY-MM-DD (default: today in the account's time zone)")),
});
export type BillPaymentBody = Static<typeof BillPaymentBody>;

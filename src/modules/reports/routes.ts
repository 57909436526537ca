import type { App } from '../../platform/http.js';
import { paging, PAGING_HEADERS, sendPage } from '../../platform/paging.js';
import { errorResponses, IdParams, NoContent } from '../../platform/schemas.js';
import type { AnalyticalReportService } from './analytical-service.js';
import type { BillingService } from './billing-service.js';
import {
  AgentReport,
  AgentReportQuery,
  AnalyticalBody,
  AnalyticalFile,
  AnalyticalQuery,
  AnalyticalReport,
  Bill,
  BillPaymentBody,
  BillQuery,
} from './schemas.js';
import Type from 'typebox';

const tags = ['Reports'];
const ACCOUNT_WIDE = "Reports are the account's: a shop API key is refused (403).";

/** The services these routes use, and no other. */
export interface ReportsRouteServices {
  analyticalReports: AnalyticalReportService;
  billing: BillingService;
}
export function reportRoutes(app: App, services: ReportsRouteServices): void {
  app.get(
    '/v2/reports/bill',
    {
      schema: {
        operation: { id: 'listBills', contract: '4.8' },
        tags,
        summary: 'List bills',
        description: `One bill per billing period (BILLING_PERIOD, a calendar month by default, in the account's time zone), made at its end; newest first. ${ACCOUNT_WIDE}`,
        querystring: BillQuery,
        response: { 200: { ...Type.Array(Bill), headers: PAGING_HEADERS }, ...errorResponses(403) },
      },
    },
    async (request, reply) => {
      const at = paging(request.query);
      return sendPage(reply, await services.billing.listBills(request.scope, request.query, at), at);
    },
  );

  app.get(
    '/v2/reports/agent',
    {
      schema: {
        operation: { id: 'listAgentReports', contract: '4.8' },
        tags,
        summary: 'List agent reports',
        description: `Made with each period's bill: 1 the cash-on-delivery remittance (orders delivered in the period), 2 the services rendered. Newest first. ${ACCOUNT_WIDE}`,
        querystring: AgentReportQuery,
        response: { 200: { ...Type.Array(AgentReport), headers: PAGING_HEADERS }, ...errorResponses(403) },
      },
    },
    async (request, reply) => {
      const at = paging(request.query);
      return sendPage(reply, await services.billing.listAgentReports(request.scope, request.query, at), at);
    },
  );

  app.put(
    '/v2/reports/agent-accept/:id',
    {
      schema: {
        operation: { id: 'acceptAgentReport', contract: '4.8' },
        tags,
        summary: 'Accept an agent report',
        description: `Marks it accepted; accepting it again changes nothing (204). ${ACCOUNT_WIDE}`,
        params: IdParams,
        response: { 204: NoContent, ...errorResponses(403, 404) },
      },
    },
    async (request, reply) => {
      await services.billing.acceptAgentReport(request.scope, request.params.id);
      return reply.code(204).send();
    },
  );

  app.get(
    '/v2/reports/analytical',
    {
      schema: {
        operation: { id: 'listAnalyticalReports', contract: '4.8' },
        tags,
        summary: 'List analytical reports',
        description: `Newest first; from/to filter the day they were asked for (account's time zone). Extension: each item's \`status\` (ready, pending while a job writes it, failed). ${ACCOUNT_WIDE}`,
        querystring: AnalyticalQuery,
        response: { 200: { ...Type.Array(AnalyticalReport), headers: PAGING_HEADERS }, ...errorResponses(403) },
      },
    },
    async (request, reply) => {
      const at = paging(request.query);
      return sendPage(reply, await services.analyticalReports.list(request.scope, request.query, at), at);
    },
  );

  app.post(
    '/v2/reports/analytical',
    {
      schema: {
        operation: { id: 'createAnalyticalReport', contract: '4.8' },
        tags,
        summary: 'Make an analytical report (xlsx)',
        description:
          "Types: 1 orders, 2 deliveries by company, 3 returns, 4 cash on delivery (orders created in the period, days of the account's time zone, as GET /v2/orders dateFrom/dateTo), 5 stock balance at the end of date.to, 6 marking-code write-off (needs fulfilmentWarehouseId, onlyMarkCodes and stage). " +
          `Up to REPORT_SYNC_ROWS estimated rows (50,000) the file is written before the answer; larger reports are written by a job and \`file\` answers 202 with Retry-After until it is there. ${ACCOUNT_WIDE}`,
        body: AnalyticalBody,
        response: { 200: AnalyticalFile, ...errorResponses(403) },
      },
    },
    async (request) => services.analyticalReports.create(request.scope, request.body),
  );

  app.post(
    '/v2/operator/bills/:id/payments',
    {
      config: { public: true },
      schema: {
        operation: { id: 'recordBillPayment' },
        tags: ['Billing operators (extension)'],
        summary: 'Record a payment of a bill',
        description:
          'For the service\'s billing operators: send "Authorization: Bearer opr_..." of the billing scope (`npm run cli -- billing operator-token`); account tokens, shop keys and warehouse staff tokens are refused (401). Partial payments are allowed; paying more than the bill\'s sum is refused (422 overpayment). Answers the bill after the payment.',
        params: IdParams,
        body: BillPaymentBody,
        security: [{ bearer: [] }],
        response: { 200: Bill, ...errorResponses(401, 404, 422) },
      },
    },
    async (request) =>
      services.billing.recordPayment(
        await services.billing.operatorOf(request.headers.authorization),
        request.params.id,
        request.body,
      ),
  );
}

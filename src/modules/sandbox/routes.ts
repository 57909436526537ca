import type { App } from '../../platform/http.js';
import { errorResponses, IdParams, NoContent } from '../../platform/schemas.js';
import type { SandboxService } from './service.js';

/** The services these routes use, and no other. */
export interface SandboxRouteServices {
  sandbox: SandboxService;
}
import { AdvancedOrder, PartialBuyoutBody, ClosedPeriod } from './schemas.js';
import { HistoryBody, HistoryResult } from '../delivery-promises/schemas.js';

const tags = ['Sandbox (extension)'];
const WHO =
  'Account tokens only; refused (422 live_contract) for an account with a live contract with a real delivery company. The same from the command line: `npm run cli -- sandbox ...`.';

export function sandboxRoutes(app: App, services: SandboxRouteServices): void {
  app.post(
    '/v2/sandbox/billing-period/close',
    {
      schema: {
        operation: { id: 'closeSandboxBillingPeriod' },
        tags,
        summary: 'Close the current billing period now',
        description:
          "The account's current billing period is cut short at the end of today and closed at once: its bill (when anything was charged) and agent reports are made as at the end of a period. " +
          'The period then counts as closed: later charges in it go in no bill; a second close in the same period is 409 period_closed. ' +
          WHO,
        response: { 200: ClosedPeriod, ...errorResponses(403, 409, 422) },
      },
    },
    async (request) => services.sandbox.closeBillingPeriod(request.scope),
  );

  app.post(
    '/v2/sandbox/pickups/:id/collect',
    {
      schema: {
        operation: { id: 'collectSandboxPickup' },
        tags,
        summary: 'Have a booked pickup collected now',
        description:
          "A built-in company's Scheduled pickup (2) is collected at once instead of at the start of its interval: it becomes Done (3) with the orders it covers, and they are handed over (14) and start their journey. " +
          'A pickup still New (the company answers a booking after PICKUP_SIMULATION_SECONDS) or finished: 409; a company of a contract: 422 not_simulated. ' +
          WHO,
        params: IdParams,
        response: { 204: NoContent, ...errorResponses(403, 404, 409, 422) },
      },
    },
    async (request, reply) => {
      await services.sandbox.collectPickup(request.scope, request.params.id);
      return reply.code(204).send();
    },
  );

  app.post(
    '/v2/sandbox/delivery-history',
    {
      schema: {
        operation: { id: 'generateSandboxDeliveryHistory' },
        tags,
        summary: 'Make a history of delivered parcels to learn delivery promises from',
        description:
          "Writes `parcels` parcels (default 2,000, at most 20,000) delivered over the last `days` days (default 180) by the built-in companies, from the cities of the account's warehouses to the country's 60 biggest localities, each with days from the simulated companies' delay model (route-dependent, a day lost at a hub now and then, Friday hand-overs). " +
          'They count in the delivery promises at once (calculator `promise`) and in GET /v2/reports/delivery-times, each with the promise the parcels before it taught (the first ones the declaration); no order is made. The account needs a warehouse (422 no_warehouse). ' +
          WHO,
        body: HistoryBody,
        response: { 200: HistoryResult, ...errorResponses(400, 403, 422) },
      },
    },
    async (request) => services.sandbox.generateDeliveryHistory(request.scope, request.body),
  );

  app.post(
    '/v2/sandbox/orders/:id/advance',
    {
      schema: {
        operation: { id: 'advanceSandboxOrder' },
        tags,
        summary: 'Move an order to its next simulated status now',
        description:
          'A registered order of a built-in company takes the next step of its simulated journey at once (41, 411, 412, 42 or 43, 44; some refused and returned) instead of after SIMULATION_STEP_SECONDS; the journey goes on from there. ' +
          "Not registered yet, waiting for its pickup, or at its journey's end: 409; another company, or the simulation off: 422 not_simulated. " +
          WHO,
        params: IdParams,
        response: { 200: AdvancedOrder, ...errorResponses(403, 404, 409, 422) },
      },
    },
    async (request) => ({
      id: request.params.id,
      status: await services.sandbox.advanceOrder(request.scope, request.params.id),
    }),
  );

  app.post(
    '/v2/sandbox/orders/:id/partial-buyout',
    {
      schema: {
        operation: { id: 'partialBuyoutSandboxOrder' },
        tags,
        summary: 'The recipient takes part of an order at the point now (partial buyout)',
        description:
          "An order of a built-in company waiting at the pickup point (42), whose point allows a partial buyout and which is paid on delivery, becomes 47 (partly delivered) with the lines taken: the cash on delivery is collected for them only (order.partialBuyout), and the refused lines travel back (71, then 74 partly returned; at a fulfilment warehouse they wait for the staff's inspection). " +
          "Not at the point: 409 order_state; a point or payment that does not allow it: 409 partial_buyout_refused; lines that are not the order's, or all or nothing taken: 422 partial_buyout_refused; another company, or the simulation off: 422 not_simulated. " +
          WHO,
        params: IdParams,
        body: PartialBuyoutBody,
        response: { 200: AdvancedOrder, ...errorResponses(403, 404, 409, 422) },
      },
    },
    async (request) => ({
      id: request.params.id,
      status: await services.sandbox.partialBuyout(request.scope, request.params.id, request.body),
    }),
  );
}

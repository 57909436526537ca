/** The returns' API (extension): list, read, approve, refuse, cancel, the shop's own return, the shop's return rules. */
import Type from 'typebox';
import type { App } from '../../platform/http.js';
import { PAGING_HEADERS, paging, sendPage } from '../../platform/paging.js';
import { errorResponses, IdParams } from '../../platform/schemas.js';
import {
  RefuseBody,
  ReturnCreateBody,
  ReturnListQuery,
  ReturnSchema,
  ReturnSettingsSchema,
  ReturnSettingsView,
} from './schemas.js';
import type { ReturnService } from './service.js';

/** The services these routes use, and no other. */
export interface ReturnRouteServices {
  returns: ReturnService;
}

const tags = ['Returns (extension)'];

/** The docs page's examples (the security sweep sends them too). */
const SETTINGS_EXAMPLE = {
  enabled: true,
  windowDays: 14,
  ways: [
    { way: 'point', companyIds: [1] },
    { way: 'courier', companyIds: [1] },
  ],
  payer: 'buyer_unless_fault',
  autoApprove: { reasons: ['defective', 'wrong_item'], maxGoodsValue: 5000, withinDays: 7 },
};
const REFUSE_EXAMPLE = { reason: 'Товар был в употреблении' };
const RETURN_EXAMPLE = {
  orderId: 1,
  lines: [{ line: 0, count: 1, reason: 'did_not_fit', comment: 'Мал на размер' }],
  way: 'courier',
  companyId: 1,
};

export function returnRoutes(app: App, services: ReturnRouteServices): void {
  const returns = services.returns;

  app.get(
    '/v2/returns',
    {
      schema: {
        operation: { id: 'listReturns' },
        tags,
        summary: 'Returns of goods of delivered orders, newest first',
        description:
          'Filters: status, shopId, orderId, dateFrom/dateTo (the day each was started, the account’s time zone). A shop API key sees only its shop’s.',
        querystring: ReturnListQuery,
        response: { 200: { ...Type.Array(ReturnSchema), headers: PAGING_HEADERS }, ...errorResponses(400, 403) },
      },
    },
    async (request, reply) => {
      const at = paging(request.query);
      return sendPage(reply, await returns.list(request.scope, request.query, at), at);
    },
  );

  app.get(
    '/v2/returns/:id',
    {
      schema: {
        operation: { id: 'getReturn' },
        tags,
        summary: 'A return',
        params: IdParams,
        response: { 200: ReturnSchema, ...errorResponses(403, 404) },
      },
    },
    async (request) => returns.get(request.scope, request.params.id),
  );

  app.post(
    '/v2/returns',
    {
      schema: {
        operation: {
          id: 'createReturn',
          examples: { return: { summary: 'One unit of the first line, collected by courier', value: RETURN_EXAMPLE } },
        },
        tags,
        summary: "The shop's own return of goods of a delivered order (approved at once: its parcel is made)",
        description:
          'Lines (the order’s line index, units, a reason from the closed list, a comment), the way back (point or post with one of the company’s points near the buyer, or courier), optional photos (base64 JPEG/PNG/WebP/HEIC, at most 5 of 5 MB, checked as pictures). Units are at most those delivered less those in the order’s other returns. The shop’s window and ways bind the buyer’s page, not the shop. The return parcel is an order in the reverse direction (its returnOf names the return), registered with the company, its statuses moving the return (return.in_transit, return.received).',
        body: ReturnCreateBody,
        response: { 201: ReturnSchema, ...errorResponses(400, 403, 404, 409, 422) },
      },
    },
    async (request, reply) => reply.code(201).send(await returns.create(request.scope, request.body)),
  );

  for (const [action, id, summary] of [
    ['approve', 'approveReturn', 'Approve a requested return: its parcel is made and registered with the company'],
    ['cancel', 'cancelReturn', 'Cancel a return not yet on its way (its parcel is cancelled with the company)'],
  ] as const)
    app.post(
      `/v2/returns/:id/${action}`,
      {
        schema: {
          operation: { id },
          tags,
          summary,
          params: IdParams,
          response: { 200: ReturnSchema, ...errorResponses(403, 404, 409, 422) },
        },
      },
      async (request) =>
        action === 'approve'
          ? returns.approve(request.scope, request.params.id, 'shop')
          : returns.cancel(request.scope, request.params.id),
    );

  app.post(
    '/v2/returns/:id/refuse',
    {
      schema: {
        operation: {
          id: 'refuseReturn',
          examples: { refusal: { summary: 'Refuse, saying why', value: REFUSE_EXAMPLE } },
        },
        tags,
        summary: 'Refuse a requested return, saying why (the buyer reads it)',
        params: IdParams,
        body: RefuseBody,
        response: { 200: ReturnSchema, ...errorResponses(400, 403, 404, 409) },
      },
    },
    async (request) => returns.refuse(request.scope, request.params.id, request.body.reason),
  );

  app.get(
    '/v2/shops/:id/return-settings',
    {
      schema: {
        operation: { id: 'getReturnSettings' },
        tags,
        summary: "The shop's return rules: window, ways back, who pays, auto-approval",
        description:
          'A shop that never saved any: returns on, 14 days, the points of the delivered order’s own company, the buyer pays unless the reason is the shop’s fault, the shop approves each.',
        params: IdParams,
        response: { 200: ReturnSettingsView, ...errorResponses(403, 404) },
      },
    },
    async (request) => returns.settings(request.scope, request.params.id),
  );

  app.put(
    '/v2/shops/:id/return-settings',
    {
      schema: {
        operation: {
          id: 'setReturnSettings',
          examples: {
            rules: { summary: 'Points and courier of company 1, auto-approval of faults', value: SETTINGS_EXAMPLE },
          },
        },
        tags,
        summary: "Replace the shop's return rules",
        description:
          'Each company must be one the account ships with and fit its way (post: a post company; point: one that takes parcels at its points; courier: one whose courier collects).',
        params: IdParams,
        body: ReturnSettingsSchema,
        response: { 200: ReturnSettingsView, ...errorResponses(400, 403, 404) },
      },
    },
    async (request) => returns.saveSettings(request.scope, request.params.id, request.body),
  );
}

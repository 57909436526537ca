import Type from 'typebox';
import type { App } from '../../platform/http.js';
import { paging, PAGING_HEADERS, sendPage } from '../../platform/paging.js';
import { Created, errorResponses, IdParams, NoContent } from '../../platform/schemas.js';
import type { PickupService } from './service.js';
import { PickupCompanyOffer } from '../companies/schemas.js';
import { FileResult, ThermalLabelsFields } from '../documents/schemas.js';
import { Pickup, PickupCompaniesQuery, PickupIdBody, PickupInput, PickupListQuery } from './schemas.js';

const tags = ['Pickups'];

/** The services these routes use, and no other. */
export interface PickupsRouteServices {
  pickups: PickupService;
}
export function pickupRoutes(app: App, services: PickupsRouteServices): void {
  app.get(
    '/v2/pickups',
    {
      schema: {
        operation: { id: 'listPickups', contract: '4.10' },
        tags,
        summary: 'List pickups',
        description:
          'Current pickups by default (New or Scheduled, or dated today or later); `archive=1`: ended ones (Done, Canceled, Error) dated before today. Newest first. ' +
          "A shop API key sees its shop's warehouse's pickups only.",
        querystring: PickupListQuery,
        response: { 200: { ...Type.Array(Pickup), headers: PAGING_HEADERS }, ...errorResponses(403) },
      },
    },
    async (request, reply) => {
      const at = paging(request.query);
      return sendPage(reply, await services.pickups.list(request.scope, request.query, at), at);
    },
  );

  app.post(
    '/v2/pickups/:id/act-labels',
    {
      schema: {
        operation: { id: 'createPickupActLabels' },
        tags,
        summary: "The handover act's barcodes for a thermal printer (extension)",
        description:
          "100x150 mm pages: the act's heading, then each order's track number as Code 128 with the order and its places, as on the PDF act, for the courier's scanner.",
        params: IdParams,
        body: Type.Object(ThermalLabelsFields),
        response: { 200: FileResult, ...errorResponses(403, 404, 409) },
      },
    },
    async (request) => services.pickups.actLabels(request.scope, request.params.id, request.body),
  );

  app.get(
    '/v2/pickups/companies',
    {
      schema: {
        operation: { id: 'listPickupCompanies', contract: '4.10' },
        tags,
        summary: 'Companies that can collect from a warehouse',
        description:
          'From the same reference data as GET /v2/warehouses/shipment: type 3 lists the companies going through the consolidated pickup (its price and free threshold), type 4 the companies with a courier of their own there.',
        querystring: PickupCompaniesQuery,
        response: { 200: Type.Array(PickupCompanyOffer), ...errorResponses(403, 404) },
      },
    },
    async (request) => services.pickups.companyOffers(request.scope, request.query),
  );

  app.get(
    '/v2/pickups/:id',
    {
      schema: {
        operation: { id: 'getPickup' },
        tags,
        summary: 'Get a pickup (extension)',
        params: IdParams,
        response: { 200: Pickup, ...errorResponses(403, 404) },
      },
    },
    async (request) => services.pickups.get(request.scope, request.params.id),
  );

  app.post(
    '/v2/pickups',
    {
      schema: {
        operation: { id: 'createPickup', contract: '4.10' },
        tags,
        summary: 'Book a pickup',
        description:
          'New (1), then booked with the company by a job: Scheduled (2) with its `number` and `time`, or Error (5) with `error`. ' +
          'The date must be today or later and a working day of the warehouse; the company one of GET /v2/pickups/companies; an identical pickup (same warehouse, company, type and date, not canceled) is a 409 `pickup_exists`.',
        body: PickupInput,
        response: { 201: Created, ...errorResponses(403, 404, 409) },
      },
    },
    async (request, reply) => reply.code(201).send(await services.pickups.create(request.scope, request.body)),
  );

  app.post(
    '/v2/pickups/cancel',
    {
      schema: {
        operation: { id: 'cancelPickup', contract: '4.10' },
        tags,
        summary: 'Cancel a pickup',
        description: 'Only a New or Scheduled pickup (409 otherwise); a booked one is called off with the company too.',
        body: PickupIdBody,
        response: { 204: NoContent, ...errorResponses(403, 404, 409) },
      },
    },
    async (request, reply) => {
      await services.pickups.cancel(request.scope, request.body.id);
      return reply.code(204).send();
    },
  );
}

/**
 * Statuses moved by hand rather than reported by a company: the sandbox's "next status now" and
 * partial buyout of a built-in company's parcel, and a shop's statuses of its own delivery
 * methods. Each goes through the tracking service's one way of applying a status (history,
 * hold dates, payment, partial buyout sums, events, fulfilment goods).
 */
import type { Scope } from '../../platform/auth.js';
import { AppError, conflict, unprocessable } from '../../platform/errors.js';
import type { TrackingEvent } from '../../carriers/types.js';
import type { ReferenceData } from '../companies/reference.js';
import { parseDoc } from './document.js';
import { PARTIAL_RETURN_LEG_START } from './journey.js';
import { boughtPerLine, buyoutReportOf, partialBuyoutRefusal } from './partial-buyout.js';
import type { OwnStatusBody } from './schemas.js';
import { isOwnMethodOrder, type OrderService } from './service.js';
import { acceptsCarrierStatus, STATUS } from './state.js';
import type { OrderRecord } from './store.js';
import type { TrackingService } from './tracking.js';

/** The sandbox's partial buyout: the lines taken, by position, and how they were paid. */
export interface SandboxBuyout {
  lines: Array<{ index: number; count: number }>;
  paymentMethod?: 'cash' | 'card';
}

/** Why a reported partial buyout does not fit the order (its lines), or null. */
export function buyoutProblem(record: OrderRecord, event: TrackingEvent): string | null {
  if (event.statusCode !== STATUS.partlyDelivered || !event.buyout) return null;
  const bought = boughtPerLine(parseDoc(record.doc).products, event.buyout.lines);
  return typeof bought === 'string' ? `the partial buyout does not fit the order: ${bought}` : null;
}

export class StatusMoves {
  constructor(
    private readonly tracking: Pick<TrackingService, 'apply' | 'scheduleJourney' | 'simulated' | 'stepJourney'>,
    private readonly orders: OrderService,
    private readonly reference: ReferenceData,
  ) {}

  /**
   * The sandbox's "next status now" (modules/sandbox): a built-in company's parcel takes the
   * next step of its journey at once; the job waiting for that step then finds it taken.
   * Answers the order's new status.
   */
  async advanceNow(scope: Scope, orderId: number): Promise<number> {
    const record = await this.orders.accessibleRecord(scope, orderId);
    if (this.reference.registry.get(record.companyId)?.driver.code !== 'tariff') {
      throw new AppError(
        422,
        'not_simulated',
        `Order ${orderId} is not with a built-in company: its statuses come from its company.`,
      );
    }
    if (!this.tracking.simulated(record.companyId))
      throw new AppError(
        422,
        'not_simulated',
        'The simulated journeys are off on this service (SIMULATION_STEP_SECONDS=0).',
      );
    if (record.journeyStep < 0) {
      const why =
        record.status < STATUS.prepared || record.status === STATUS.error
          ? 'it is not registered yet: confirm it first'
          : record.status === STATUS.prepared
            ? 'it waits for its pickup to collect it (POST /v2/sandbox/pickups/{id}/collect)'
            : 'its journey has ended';
      throw conflict('order_state', `Order ${orderId} has no next status: ${why}.`, [{ id: orderId, message: why }]);
    }
    const outcome = await this.tracking.stepJourney(record);
    if (outcome === 'raced')
      throw conflict('order_changed', `Order ${orderId} was changed at the same time; try again.`, [
        { id: orderId, message: 'changed concurrently' },
      ]);
    return (await this.orders.accessibleRecord(scope, orderId)).status;
  }

  /**
   * The sandbox's partial buyout (modules/sandbox): a built-in company's order waiting at the
   * point (42) is bought in part now (47) where its point and payment allow it; its journey then
   * goes on with the refused lines' way back (71, 74). Answers the order's new status.
   */
  async partialBuyoutNow(scope: Scope, orderId: number, body: SandboxBuyout): Promise<number> {
    const record = await this.orders.accessibleRecord(scope, orderId);
    if (
      this.reference.registry.get(record.companyId)?.driver.code !== 'tariff' ||
      !this.tracking.simulated(record.companyId)
    )
      throw new AppError(
        422,
        'not_simulated',
        `Order ${orderId} is not with a built-in company whose journey is simulated: its statuses come from its company.`,
      );
    const doc = parseDoc(record.doc);
    if (record.status !== STATUS.atPoint) {
      const why = `it is ${record.status}, not waiting at the pickup point (42)`;
      throw conflict('order_state', `Order ${orderId} cannot be bought in part: ${why}.`, [
        { id: orderId, message: why },
      ]);
    }
    const refusal = partialBuyoutRefusal(doc);
    if (refusal)
      throw conflict('partial_buyout_refused', `Order ${orderId} cannot be bought in part: ${refusal}.`, [
        { id: orderId, message: refusal },
      ]);
    const bought = boughtPerLine(doc.products, body.lines);
    if (typeof bought === 'string')
      throw unprocessable('partial_buyout_refused', `Order ${orderId}: ${bought}.`, [
        { field: 'lines', message: bought },
      ]);
    const event: TrackingEvent = {
      trackNumber: record.trackNumber ?? '',
      statusCode: STATUS.partlyDelivered,
      at: new Date().toISOString(),
      description: 'Partly delivered: the recipient took part of the order, the rest was refused',
      buyout: { lines: body.lines },
    };
    if (body.paymentMethod) event.paymentMethod = body.paymentMethod;
    const step = PARTIAL_RETURN_LEG_START;
    const outcome = await this.tracking.apply(record, doc, event, { journeyStep: step }, (trx) =>
      this.tracking.scheduleJourney(record.accountId, orderId, step, trx),
    );
    if (outcome !== 'applied')
      throw conflict('order_changed', `Order ${orderId} was changed at the same time; try again.`, [
        { id: orderId, message: 'changed concurrently' },
      ]);
    return STATUS.partlyDelivered;
  }

  /**
   * The shop moves an order of its own delivery method (extension): only such orders, only
   * from Ready for shipment (13) on, along the life a company's statuses follow
   * (acceptsCarrierStatus), 42 only to a pickup point and 43 only to a door. History, hold
   * dates, payment, events and fulfilment goods follow as for a company's status.
   */
  async setOwnStatus(scope: Scope, id: number, body: OwnStatusBody): Promise<void> {
    const record = await this.orders.accessibleRecord(scope, id);
    const doc = parseDoc(record.doc);
    const refuse = (message: string) =>
      conflict('order_state', `Order ${id} cannot move to ${body.code}: ${message}.`, [{ id, message }]);
    if (!isOwnMethodOrder(doc))
      throw unprocessable(
        'not_own_delivery',
        `Order ${id} is delivered by ${doc.delivery.company.name ?? 'a delivery company'}, whose statuses come from the company; a shop sets statuses only of its own delivery methods.`,
        [{ id, message: 'not an own delivery method' }],
      );
    if (body.code === STATUS.atPoint && doc.delivery.type !== 1)
      throw refuse('only a delivery to a pickup point (type 1) waits at a point');
    if (body.code === STATUS.outForDelivery && doc.delivery.type === 1)
      throw refuse('a delivery to a pickup point is not taken out to a door');
    if (!acceptsCarrierStatus(record.status, body.code)) {
      throw refuse(
        record.status < STATUS.prepared || record.status === STATUS.error
          ? 'confirm it first (it must be ready for shipment, 13)'
          : `it is ${record.status} now, and that does not lead to ${body.code}`,
      );
    }
    const event: TrackingEvent = {
      trackNumber: record.trackNumber ?? '',
      statusCode: body.code,
      at: new Date().toISOString(),
      description: body.description ?? '',
    };
    if (body.paymentMethod) event.paymentMethod = body.paymentMethod;
    if (body.buyout && body.code === STATUS.partlyDelivered) {
      event.buyout = buyoutReportOf(body.buyout);
      const problem = buyoutProblem(record, event);
      if (problem)
        throw unprocessable('partial_buyout_refused', `Order ${id}: ${problem}.`, [
          { field: 'buyout', message: problem },
        ]);
    }
    const outcome = await this.tracking.apply(record, doc, event);
    if (outcome === 'raced')
      throw conflict(
        'order_changed',
        `Order ${id} was changed by another request at the same time; read it again and retry.`,
        [{ id, message: 'changed concurrently' }],
      );
    if (outcome === 'refused') throw refuse(`it is ${record.status} now`);
  }
}

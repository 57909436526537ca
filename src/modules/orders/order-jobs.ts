/**
 * The jobs a change of an order queues for tracking.ts to run: registration with its company,
 * a cancel sent to the company, a longer hold asked of it. Registration is queued from two
 * use cases (a confirmed order, and a confirmed order whose goods are now reserved), so it is
 * queued here, once. Apart from service.ts so that reservations.ts queues it without
 * importing the service that builds it.
 */
import type { JobQueue } from '../../platform/jobs.js';
import type { Db } from './store.js';

export const REGISTER_JOB = 'orders.register';
export const CARRIER_CANCEL_JOB = 'orders.carrier-cancel';
export const EXTEND_HOLD_JOB = 'orders.extend-hold';

/** Registration of a confirmed order with its company, queued in the transaction that made it due. */
export async function queueRegistration(jobs: JobQueue, accountId: number, orderId: number, trx: Db): Promise<void> {
  await jobs.enqueue(accountId, REGISTER_JOB, { orderId }, { uniqueKey: `register:${accountId}:${orderId}` }, trx);
}

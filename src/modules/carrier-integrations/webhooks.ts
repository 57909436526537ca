/**
 * Status webhooks of real companies (CDEK's ORDER_STATUS): each account's contract gets its
 * own unguessable address, `/v2/carrier-webhooks/{code}/{accountId}-{HMAC}` (the HMAC of the
 * account and company under a secret derived from the instance secret; nothing stored), and
 * the subscription with the company is made by a job once the contract is connected, and
 * deleted by another once it is disconnected (the contract's sealed credentials are kept,
 * retired, until that job ran or gave up, so a company that is down fails no disconnect).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Transaction } from 'kysely';
import { eventOfWebhook } from '../../carriers/cdek/mapper.js';
import { CDEK_ID } from '../../carriers/contracts.js';
import type { CarrierDriver, TrackingEvent } from '../../carriers/types.js';
import { notFound } from '../../platform/errors.js';
import { identifyAuditCaller } from '../../platform/audit.js';
import type { Tables } from '../../platform/db/tables.js';
import type { JobQueue, JobWorker } from '../../platform/jobs.js';
import type { TrackingService } from '../orders/tracking.js';
import type { PushResult } from '../orders/schemas.js';
import type { CarrierIntegrationService, DisconnectFollowUp } from './service.js';

export const WEBHOOK_SUBSCRIBE_JOB = 'carriers.webhook-subscribe';
export const WEBHOOK_UNSUBSCRIBE_JOB = 'carriers.webhook-unsubscribe';
/** Attempts of the unsubscription: with the queue's back-off (5 s doubling, at most an hour) some 8 hours of a company being down. */
const UNSUBSCRIBE_ATTEMPTS = 12;

/** Companies whose webhooks we receive, by the code in the address, with their body's reader. */
const WEBHOOK_READERS: Record<string, { companyId: number; eventOf: (body: unknown) => TrackingEvent | null }> = {
  cdek: { companyId: CDEK_ID, eventOf: eventOfWebhook },
};

export class CarrierWebhooks implements DisconnectFollowUp {
  constructor(
    private readonly integrations: CarrierIntegrationService,
    private readonly tracking: TrackingService,
    private readonly jobs: JobQueue,
    private readonly options: { publicUrl: string; secret: string },
  ) {}

  private signature(accountId: number, companyId: number): string {
    return createHmac('sha256', this.options.secret).update(`carrier-webhook:${accountId}:${companyId}`).digest('hex');
  }

  /** The address a company sends an account's status updates to. */
  urlOf(accountId: number, companyId: number): string | null {
    const code = Object.keys(WEBHOOK_READERS).find((key) => WEBHOOK_READERS[key].companyId === companyId);
    return code
      ? `${this.options.publicUrl}/v2/carrier-webhooks/${code}/${accountId}-${this.signature(accountId, companyId)}`
      : null;
  }

  registerJobs(worker: JobWorker): void {
    worker.register<{ accountId: number; companyId: number }>(WEBHOOK_SUBSCRIBE_JOB, async (job, signal) => {
      await this.subscribe(job.payload.accountId, job.payload.companyId, signal);
    });
    worker.register<{ retiredId: number }>(WEBHOOK_UNSUBSCRIBE_JOB, async (job, signal) => {
      const accountId = job.accountId as number;
      try {
        await this.unsubscribe(accountId, job.payload.retiredId, signal);
      } catch (error) {
        // the last attempt erases the credentials all the same: they are not kept for ever
        if (job.attempts >= job.maxAttempts) await this.integrations.forgetRetired(accountId, job.payload.retiredId);
        throw error;
      }
    });
  }

  /** A disconnected contract has a subscription to delete where the company sends webhooks. */
  needed(accountId: number, companyId: number): boolean {
    return this.urlOf(accountId, companyId) !== null;
  }

  /** Queues the deletion of a disconnected contract's subscription, in the disconnect's transaction. */
  async queue(retired: { id: number; accountId: number; companyId: number }, trx: Transaction<Tables>): Promise<void> {
    await this.jobs.enqueue(
      retired.accountId,
      WEBHOOK_UNSUBSCRIBE_JOB,
      { retiredId: retired.id },
      { uniqueKey: `carrier-webhook-unsubscribe:${retired.id}`, maxAttempts: UNSUBSCRIBE_ATTEMPTS },
      trx,
    );
  }

  /**
   * Deletes a disconnected contract's subscription with the company, then erases the
   * contract's credentials. An account that connected the company again meanwhile keeps it:
   * the address is the same, and the new contract's subscription is made once, not twice.
   */
  async unsubscribe(
    accountId: number,
    retiredId: number,
    signal: AbortSignal = AbortSignal.timeout(60_000),
  ): Promise<void> {
    const retired = await this.integrations.retiredDriver(accountId, retiredId);
    if (!retired) return;
    const url = this.urlOf(accountId, retired.companyId);
    if (
      url &&
      retired.driver.unsubscribeStatusWebhook &&
      !(await this.integrations.isConnected(accountId, retired.companyId))
    ) {
      await retired.driver.unsubscribeStatusWebhook(url, signal);
    }
    await this.integrations.forgetRetired(accountId, retiredId);
  }

  /** Queues the subscription of a newly connected contract (companies without webhooks: nothing). */
  async queueSubscription(accountId: number, companyId: number, db?: Transaction<Tables>): Promise<void> {
    if (!this.urlOf(accountId, companyId)) return;
    await this.jobs.enqueue(
      accountId,
      WEBHOOK_SUBSCRIBE_JOB,
      { accountId, companyId },
      { uniqueKey: `carrier-webhook:${accountId}:${companyId}`, maxAttempts: 6 },
      db,
    );
  }

  /** Subscribes the account's address with the company through its contract (a retried job does not subscribe twice). */
  async subscribe(
    accountId: number,
    companyId: number,
    signal: AbortSignal = AbortSignal.timeout(60_000),
  ): Promise<boolean> {
    const url = this.urlOf(accountId, companyId);
    const driver = await this.integrations.contractDriver(accountId, companyId);
    if (!url || !driver?.subscribeStatusWebhook) return false;
    await driver.subscribeStatusWebhook(url, signal);
    return true;
  }

  /**
   * A company's status update for one account's contract. An address that is not one we gave
   * (wrong company, account or signature, or a contract since disconnected) is 404; updates
   * of other types, unknown statuses and others' parcels are answered 200 and ignored (a
   * company retries anything else).
   */
  async receive(code: string, token: string, body: unknown): Promise<PushResult> {
    const reader = WEBHOOK_READERS[code];
    const match = /^(\d{1,15})-([0-9a-f]{64})$/.exec(token);
    if (!reader || !match) throw notFound('Webhook address', token);
    const accountId = Number(match[1]);
    const expected = Buffer.from(this.signature(accountId, reader.companyId));
    if (!timingSafeEqual(expected, Buffer.from(match[2]))) throw notFound('Webhook address', token);
    const driver = await this.integrations.contractDriver(accountId, reader.companyId);
    if (!driver) throw notFound('Webhook address', token);
    identifyAuditCaller({ actor: { kind: 'carrier', id: String(reader.companyId) }, accountId });
    const event = reader.eventOf(body);
    if (!event) return { applied: 0, ignored: [] };
    return this.tracking.applyEvents(reader.companyId, [await this.handedOver(event, driver)], accountId);
  }

  /**
   * A webhook's "delivered" does not say what was handed over: the order is read from the
   * company, whose answer tells a partial delivery (47 with the lines bought) from a whole one.
   * When the company cannot be read now, the webhook's own status stands.
   */
  private async handedOver(event: TrackingEvent, driver: Pick<CarrierDriver, 'track'>): Promise<TrackingEvent> {
    if (event.statusCode !== 44) return event;
    try {
      const read = await driver.track([event.trackNumber], AbortSignal.timeout(10_000));
      return read.find((item) => item.statusCode === 47 && item.trackNumber === event.trackNumber) ?? event;
    } catch {
      return event;
    }
  }
}

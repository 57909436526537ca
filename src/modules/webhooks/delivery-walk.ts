/**
 * The sending side of webhooks and CMS callbacks: one sender at a time per endpoint (a lease on
 * the endpoint row) walks the endpoint's pending deliveries in id order, which is event order,
 * signing webhooks and addressing CMS plugins as it goes. A failure stops the walk and retries
 * its oldest delivery after an exponential back-off with jitter; an endpoint failing for longer
 * than the disable window is disabled and its account told. Apart from service.ts because it
 * runs in the pump, on the clock and the receivers' answers, not on an account's request.
 */
import type { SecretBox } from '../../platform/crypto.js';
import type { JobQueue } from '../../platform/jobs.js';
import { flag, fromJson } from '../../platform/db/values.js';
import type { NotificationService } from '../notifications/service.js';
import { cmsAccepted, cmsHeaders, cmsUrl, formBody, type CmsResource } from './cms-callbacks.js';
import type { CmsTargets } from './cms-targets.js';
import { call, describeCallFailure } from './ssrf-guard.js';
import { signedHeaders } from './signing.js';
import type { DeliveryRow, EndpointRow, RecordedAttempt, WebhookStore } from './store.js';

export const DELIVER_JOB = 'webhooks.deliver';
/** A sender stops starting new sends after this long, so one busy endpoint does not keep a slot. */
export const TURN_MS = 5_000;
const RESPONSE_HEAD_BYTES = 500;
/** Deliveries read, and successes recorded, at a time. */
const RECORD_EVERY = 100;

export interface WebhookOptions {
  /** Back-off after the first failure; doubles per failure, with ±20 % jitter, up to `retryMaxSeconds`. */
  retryFirstSeconds: number;
  retryMaxSeconds: number;
  /** An endpoint failing without a success for this long is disabled. */
  disableAfterHours: number;
  /** Let URLs resolve to loopback/private addresses (self-hosted shops, tests). */
  allowPrivateTargets: boolean;
  timeoutMs: number;
  /** After a rotation, the old secret signs too for this long. */
  secretGraceHours: number;
}

export interface DeliverJob {
  endpointId: number;
}

/** PUT with enabled: true on a disabled endpoint, or with another URL, starts it afresh. */
export const RECOVERED = {
  disabled_reason: null,
  failing_since: null,
  consecutive_failures: 0,
  retry_at: null,
} as const;
/** The state of a new endpoint: no rotation under way, no failures, nobody sending. */
export const FRESH = { ...RECOVERED, previous_secret: null, previous_secret_until: null, lease_until: null } as const;

/** Queues a turn of the endpoint's sender; the reason makes the job's key, so one cause queues one turn. */
export async function queueTurn(jobs: JobQueue, accountId: number, endpointId: number, reason: string): Promise<void> {
  await jobs.enqueue(
    accountId,
    DELIVER_JOB,
    { endpointId },
    { uniqueKey: `webhook:${endpointId}:${reason}`, maxAttempts: 50 },
  );
}

interface Outcome {
  delivered: boolean;
  httpStatus: number | null;
  error: string | null;
  head: string | null;
}

export class DeliveryWalk {
  constructor(
    private readonly store: WebhookStore,
    private readonly notifications: NotificationService,
    private readonly secretBox: SecretBox,
    private readonly options: WebhookOptions,
    private readonly cms: Pick<CmsTargets, 'addressOf'>,
  ) {}

  /**
   * One turn of an endpoint's sender: its deliveries in order until none is left, the turn
   * is over, or one fails. Answers when the endpoint wants another turn (null: nothing owed
   * now; a new delivery brings its own job).
   */
  async runEndpoint(accountId: number, endpointId: number, now?: Date): Promise<Date | null> {
    const clock = () => now ?? new Date();
    const endpoint = await this.store.endpoint(accountId, endpointId);
    if (!endpoint || !flag(endpoint.enabled)) return null;
    if (endpoint.retry_at && Date.parse(endpoint.retry_at) > clock().getTime()) return new Date(endpoint.retry_at);
    // Another sender has the endpoint. It looks for pending deliveries again after letting it
    // go, so what was queued before this job ran is its; come back only when its lease ends
    // (it may have died: then the lease is what frees the endpoint). Every job in that state
    // asks for the same time, so they are one job.
    if (!(await this.store.takeLease(accountId, endpointId, clock(), TURN_MS + this.options.timeoutMs + 15_000))) {
      return endpoint.lease_until ? new Date(endpoint.lease_until) : new Date(clock().getTime() + 1000);
    }
    const next = await this.turn(endpoint, clock);
    await this.store.releaseLease(accountId, endpointId);
    if (next !== null) return next;
    // deliveries queued while this turn was ending were left to it by their jobs: another turn
    // (a disabled endpoint has none: disabling gave them up)
    return (await this.store.pending(accountId, endpointId, 1)).length > 0 ? clock() : null;
  }

  /** Sends the endpoint's pending deliveries in order while the turn lasts; when to come back. */
  private async turn(endpoint: EndpointRow, clock: () => Date): Promise<Date | null> {
    const accountId = endpoint.account_id;
    const endpointId = endpoint.id;
    const turnEnds = Date.now() + TURN_MS;
    // successes are recorded a run at a time (a crash before the record sends them again: at least once)
    let done: RecordedAttempt[] = [];
    let failures = endpoint.consecutive_failures;
    let failingSince = endpoint.failing_since;
    let stateChanged = false;
    const record = async (retryAt: Date | null = null) => {
      const patch =
        stateChanged || retryAt
          ? { failing_since: failingSince, consecutive_failures: failures, retry_at: retryAt?.toISOString() ?? null }
          : null;
      await this.store.recordAttempts(accountId, endpointId, done, patch);
      done = [];
      stateChanged = false;
    };
    try {
      for (;;) {
        const batch = await this.store.pending(accountId, endpointId, RECORD_EVERY);
        if (batch.length === 0) {
          await record();
          return null;
        }
        for (const delivery of batch) {
          if (Date.now() > turnEnds) {
            await record();
            return clock();
          }
          const at = clock();
          const started = Date.now();
          const outcome = await this.send(endpoint, delivery);
          done.push({
            delivery,
            at: at.toISOString(),
            durationMs: Date.now() - started,
            httpStatus: outcome.httpStatus,
            error: outcome.error,
            responseHead: outcome.head,
            delivered: outcome.delivered,
          });
          if (outcome.delivered) {
            if (failures > 0) stateChanged = true;
            failures = 0;
            failingSince = null;
            continue;
          }
          // a failure stops the walk: what follows waits behind it, in order
          failures += 1;
          failingSince ??= at.toISOString();
          if (at.getTime() - Date.parse(failingSince) >= this.options.disableAfterHours * 3_600_000) {
            stateChanged = true;
            await record();
            await this.disable(endpoint, delivery, failingSince, outcome);
            return null;
          }
          const retryAt = new Date(at.getTime() + this.backOffMs(failures));
          await record(retryAt);
          return retryAt;
        }
        await record();
      }
    } catch (error) {
      await this.store.releaseLease(accountId, endpointId);
      throw error;
    }
  }

  /** first * 2^(n-1), capped, times 0.8..1.2 so receivers coming back are not hit by every sender at once. */
  backOffMs(failures: number): number {
    const base =
      Math.min(this.options.retryFirstSeconds * 2 ** Math.min(failures - 1, 40), this.options.retryMaxSeconds) * 1000;
    return Math.round(base * (0.8 + Math.random() * 0.4));
  }

  private async send(endpoint: EndpointRow, delivery: DeliveryRow): Promise<Outcome> {
    try {
      const request =
        endpoint.kind === 'cms' ? await this.cmsRequest(endpoint, delivery) : this.webhookRequest(endpoint, delivery);
      const answer = await call({
        method: 'POST',
        ...request,
        timeoutMs: this.options.timeoutMs,
        allowPrivate: this.options.allowPrivateTargets,
        keepBytes: RESPONSE_HEAD_BYTES,
      });
      const delivered =
        endpoint.kind === 'cms' ? cmsAccepted(answer.status, answer.head) : answer.status >= 200 && answer.status < 300;
      return {
        delivered,
        httpStatus: answer.status,
        error: delivered ? null : `HTTP ${answer.status}`,
        head: answer.head,
      };
    } catch (error) {
      return { delivered: false, httpStatus: null, error: describeCallFailure(error).slice(0, 500), head: null };
    }
  }

  private webhookRequest(
    endpoint: EndpointRow,
    delivery: DeliveryRow,
  ): { url: string; headers: Record<string, string>; body: string } {
    const secrets = [this.secretBox.open(endpoint.secret)];
    if (
      endpoint.previous_secret &&
      endpoint.previous_secret_until &&
      Date.parse(endpoint.previous_secret_until) > Date.now()
    )
      secrets.push(this.secretBox.open(endpoint.previous_secret));
    // signed at the real time of sending: receivers refuse timestamps far from their clock
    const headers = signedHeaders(secrets, delivery.message_id, new Date(), delivery.body);
    return {
      url: endpoint.url,
      headers: { 'content-type': 'application/json', 'user-agent': 'delivery-service-webhooks/1', ...headers },
      body: delivery.body,
    };
  }

  private async cmsRequest(
    endpoint: EndpointRow,
    delivery: DeliveryRow,
  ): Promise<{ url: string; headers: Record<string, string>; body: string }> {
    const address = await this.cms.addressOf(endpoint);
    return {
      url: cmsUrl(endpoint.url, delivery.resource as CmsResource),
      headers: { ...cmsHeaders(address), 'content-type': 'application/x-www-form-urlencoded' },
      body: formBody(fromJson<Record<string, string>>(delivery.body)),
    };
  }

  private async disable(
    endpoint: EndpointRow,
    delivery: DeliveryRow,
    failingSince: string,
    outcome: Outcome,
  ): Promise<void> {
    const reason = `Failing since ${failingSince} (last: ${outcome.error ?? 'no answer'}); disabled after ${this.options.disableAfterHours} h without a success.`;
    await this.store.transaction(async (trx) => {
      await this.store.updateEndpoint(
        endpoint.account_id,
        endpoint.id,
        {
          enabled: false,
          disabled_reason: reason,
          retry_at: null,
          consecutive_failures: 0,
          failing_since: failingSince,
        },
        trx,
      );
      await this.store.failPending(endpoint.account_id, endpoint.id, trx);
    });
    const what =
      endpoint.kind === 'cms'
        ? `The CMS callbacks of shop ${endpoint.shop_id} (${endpoint.url})`
        : `Webhook endpoint ${endpoint.id} (${endpoint.url})`;
    await this.notifications.notifyOwner(endpoint.account_id, {
      type: 'webhookDisabled',
      key: delivery.id,
      shopId: endpoint.shop_id,
      text: `${what} was disabled: ${reason} Fix the receiver, enable it again, and send the failed deliveries again.`,
    });
  }
}

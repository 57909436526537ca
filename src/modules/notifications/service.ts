/**
 * Notifications: a job reads new order events (as a consumer of the events stream), makes
 * one notification per person the order's shop wants told, and e-mails them when SMTP is
 * configured (buyers hear of their delivery from modules/buyer-messages). E-mails are
 * jobs of their own: a failing SMTP server is retried by the job table and never holds up
 * an order change or the other notifications.
 */
import type { Scope } from '../../platform/auth.js';
import { AppError, forbidden } from '../../platform/errors.js';
import type { Job, JobQueue, JobWorker } from '../../platform/jobs.js';
import type { Mailer } from '../../platform/mail.js';
import type { Page, Paging } from '../../platform/paging.js';
import { nowIso } from '../../platform/db/values.js';
import type { AccountService } from '../accounts/service.js';
import type { EventService } from '../events/service.js';
import type { AccountEvent } from '../events/types.js';
import type { OrderStatusDirectory } from '../lists/order-statuses.js';
import type { OrderService } from '../orders/service.js';
import type { ShopService } from '../shops/service.js';
import { notificationText, notificationTypeOf, recipientsOf, type Employee, type AccountNoticeType } from './rules.js';
import type { NotificationListQuery, NotificationView } from './schemas.js';
import type { NewNotification, NotificationRow, NotificationStore } from './store.js';

export const DISPATCH_JOB = 'notifications.dispatch';
export const EMAIL_JOB = 'notifications.email';
export const CUSTOMER_EMAIL_JOB = 'notifications.customer-email';
/** The consumer name of the dispatcher in `event_consumers`. */
export const CONSUMER = 'notifications';
const BATCH = 200;

export interface NotificationOptions {
  /** Seconds between dispatcher runs (0: only when called). */
  dispatchSeconds: number;
}

interface CustomerMailJob {
  orderId: number;
  eventId: number;
  to: string;
  subject: string;
  text: string;
}

export class NotificationService {
  constructor(
    private readonly store: NotificationStore,
    private readonly events: EventService,
    private readonly shops: ShopService,
    private readonly accounts: AccountService,
    private readonly orders: OrderService,
    private readonly statuses: OrderStatusDirectory,
    private readonly jobs: JobQueue,
    private readonly mailer: Mailer | null,
    private readonly options: NotificationOptions,
  ) {}

  registerJobs(worker: JobWorker): void {
    worker.register(DISPATCH_JOB, async () => {
      try {
        await this.dispatch();
      } finally {
        await this.scheduleDispatch(new Date(Date.now() + this.options.dispatchSeconds * 1000));
      }
    });
    worker.register<{ notificationId: number }>(EMAIL_JOB, (job) => this.emailNotification(job));
    // a buyer's e-mail queued before buyer-messages made them is still sent
    worker.register<CustomerMailJob>(CUSTOMER_EMAIL_JOB, async (job) => {
      if (this.mailer)
        await this.mailer.send({ to: job.payload.to, subject: job.payload.subject, text: job.payload.text });
    });
  }

  /** Makes sure a dispatcher run is due (each run schedules the next, one per time slot across processes). */
  async scheduleDispatch(at = new Date()): Promise<void> {
    if (this.options.dispatchSeconds <= 0) return;
    const slot = Math.floor(at.getTime() / (this.options.dispatchSeconds * 1000));
    await this.jobs.enqueue(
      null,
      DISPATCH_JOB,
      {},
      { runAt: at, uniqueKey: `notifications-dispatch:${slot}`, maxAttempts: 1 },
    );
  }

  /** Handles every event not handled yet; the number of events read. */
  dispatch(): Promise<number> {
    return this.events.consume(
      CONSUMER,
      BATCH,
      (events) => this.plan(events),
      async ({ notifications }, trx) => {
        const added = await this.store.insert(notifications, trx);
        if (this.mailer)
          for (const row of added)
            if (row.email_to) await this.jobs.enqueue(row.account_id, EMAIL_JOB, { notificationId: row.id }, {}, trx);
      },
    );
  }

  /** The notifications of a batch of events (buyers' messages are modules/buyer-messages). */
  private async plan(events: AccountEvent[]): Promise<{ notifications: NewNotification[] }> {
    const notifications: NewNotification[] = [];
    const byAccount = new Map<number, AccountEvent[]>();
    for (const event of events)
      if (event.shopId !== null) byAccount.set(event.accountId, [...(byAccount.get(event.accountId) ?? []), event]);
    const now = nowIso();
    for (const [accountId, accountEvents] of byAccount) {
      const shops = await this.shops.notificationSettingsOf(
        accountId,
        accountEvents.map((event) => event.shopId as number),
      );
      let employees: Employee[] | null = null;
      for (const event of accountEvents) {
        const shop = shops.get(event.shopId as number);
        if (!shop) continue;
        const type = notificationTypeOf(event, shop.notifications);
        if (!type) continue;
        employees ??= await this.accounts.employeesOf(accountId);
        const text = notificationText(type, event, shop.name, (code) => this.statuses.name(code, 'en'));
        const shopId = event.shopId as number;
        // a manager hears only of the shops given to them
        const withAccess = employees.filter(
          (employee) => employee.shopIds === null || employee.shopIds.includes(shopId),
        );
        for (const person of recipientsOf(shop.notifications, withAccess)) {
          notifications.push({
            account_id: accountId,
            recipient: person.recipient,
            employee_id: person.employeeId,
            event_id: event.id,
            type,
            order_id: event.orderId === 0 ? null : event.orderId,
            shop_id: event.shopId,
            text,
            email_to: this.mailer ? person.email : null,
            email_status: this.mailer && person.email ? 'pending' : 'none',
            created_at: now,
          });
        }
      }
    }
    return { notifications };
  }

  private async emailNotification(job: Job<{ notificationId: number }>): Promise<void> {
    const accountId = job.accountId as number;
    const row = await this.store.get(accountId, job.payload.notificationId);
    if (!row || !row.email_to || row.email_status === 'sent' || !this.mailer) return;
    try {
      await this.mailer.send({ to: row.email_to, subject: subjectOf(row), text: `${row.text}\n` });
    } catch (error) {
      if (job.attempts >= job.maxAttempts) await this.store.setEmailStatus(accountId, row.id, 'failed');
      throw error;
    }
    await this.store.setEmailStatus(accountId, row.id, 'sent');
  }

  /**
   * A notice to the account owner that no order event made (a webhook endpoint disabled),
   * e-mailed like the others. `key` keeps one notice per thing (event_id of the row).
   */
  async notifyOwner(
    accountId: number,
    notice: { type: AccountNoticeType; key: number; shopId: number | null; text: string },
  ): Promise<void> {
    const owner = (await this.accounts.employeesOf(accountId))[0];
    const email = this.mailer && owner?.email ? owner.email : null;
    await this.store.transaction(async (trx) => {
      const [row] = await this.store.insert(
        [
          {
            account_id: accountId,
            recipient: 'account',
            employee_id: null,
            event_id: notice.key,
            type: notice.type,
            order_id: null,
            shop_id: notice.shopId,
            text: notice.text,
            email_to: email,
            email_status: email ? 'pending' : 'none',
            created_at: nowIso(),
          },
        ],
        trx,
      );
      if (row?.email_to) await this.jobs.enqueue(accountId, EMAIL_JOB, { notificationId: row.id }, {}, trx);
    });
  }

  // ---------------------------------------------------------------- the caller's notifications

  /** Whose notifications the caller reads: an employee's own, an account token the owner's; a shop key is no person. */
  private recipientOf(scope: Scope): string {
    // a shop manager's requests carry their shop as a key would, but a manager is a person
    if ((scope.shopKeyShopId !== null && scope.employeeId === null) || scope.kind === 'shop')
      throw forbidden('A shop API key has no notifications; use an account token or an employee login.');
    return scope.employeeId !== null ? `employee:${scope.employeeId}` : 'account';
  }

  async list(scope: Scope, query: NotificationListQuery, paging: Paging): Promise<Page<NotificationView>> {
    const recipient = this.recipientOf(scope);
    const page = await this.store.page(
      scope.accountId,
      recipient,
      query.unread === undefined ? {} : { unread: query.unread === 1 },
      paging,
    );
    return { items: page.items.map(viewOf), total: page.total };
  }

  /** Marks the caller's notifications read; all or nothing: an id that is not the caller's is a 404 naming it. */
  async markRead(scope: Scope, ids: number[]): Promise<void> {
    const recipient = this.recipientOf(scope);
    const unique = [...new Set(ids)];
    const owned = await this.store.owned(scope.accountId, recipient, unique);
    const missing = unique.filter((id) => !owned.has(id));
    if (missing.length) {
      throw new AppError(
        404,
        'not_found',
        `${missing.length} of ${unique.length} notification${unique.length > 1 ? 's' : ''} were not found; nothing was changed. Notification ${missing[0]} was not found.`,
        missing.map((id) => ({ id, message: `Notification ${id} was not found.` })),
      );
    }
    await this.store.markRead(scope.accountId, recipient, unique);
  }
}

function subjectOf(row: NotificationRow): string {
  return row.text.length > 120 ? `${row.text.slice(0, 119)}…` : row.text;
}

function viewOf(row: NotificationRow): NotificationView {
  return {
    id: row.id,
    type: row.type as NotificationView['type'],
    text: row.text,
    eventId: row.event_id,
    orderId: row.order_id,
    shopId: row.shop_id,
    createdAt: row.created_at,
    read: row.read_at !== null,
    readAt: row.read_at,
    email: row.email_status as NotificationView['email'],
  };
}

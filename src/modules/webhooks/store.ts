/** SQL of webhook endpoints, their deliveries and attempts; every read of tenant data scoped by account. */
import { sql, type Insertable, type Kysely, type Selectable, type Transaction, type Updateable } from 'kysely';
import type { Tables } from '../../platform/db/tables.js';
import { nowIso } from '../../platform/db/values.js';
import type { Page, Paging } from '../../platform/paging.js';

type Db = Kysely<Tables> | Transaction<Tables>;
export type EndpointRow = Selectable<Tables['webhook_endpoints']>;
export type NewEndpoint = Insertable<Tables['webhook_endpoints']>;
export type EndpointPatch = Updateable<Tables['webhook_endpoints']>;
export type DeliveryRow = Selectable<Tables['webhook_deliveries']>;
export type NewDelivery = Insertable<Tables['webhook_deliveries']>;
export type AttemptRow = Selectable<Tables['webhook_attempts']>;

export interface RecordedAttempt {
  delivery: DeliveryRow;
  at: string;
  durationMs: number;
  httpStatus: number | null;
  error: string | null;
  responseHead: string | null;
  delivered: boolean;
}

export class WebhookStore {
  constructor(private readonly db: Kysely<Tables>) {}

  transaction<T>(work: (trx: Transaction<Tables>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  async insertEndpoint(row: NewEndpoint): Promise<number> {
    return (await this.db.insertInto('webhook_endpoints').values(row).returning('id').executeTakeFirstOrThrow()).id;
  }

  endpoint(accountId: number, id: number): Promise<EndpointRow | undefined> {
    return this.db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  cmsTarget(accountId: number, shopId: number): Promise<EndpointRow | undefined> {
    return this.db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('kind', '=', 'cms')
      .where('shop_id', '=', shopId)
      .executeTakeFirst();
  }

  async endpoints(accountId: number, filter: { shopId?: number }, paging: Paging): Promise<Page<EndpointRow>> {
    let query = this.db.selectFrom('webhook_endpoints').where('account_id', '=', accountId);
    if (filter.shopId !== undefined) query = query.where('shop_id', '=', filter.shopId);
    const [items, total] = await Promise.all([
      query.selectAll().orderBy('id').limit(paging.perPage).offset(paging.offset).execute(),
      query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { items, total: Number(total.total) };
  }

  /** Enabled endpoints of these accounts (the dispatcher matches events to them). */
  enabledEndpointsOf(accountIds: number[]): Promise<EndpointRow[]> {
    if (accountIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('account_id', 'in', accountIds)
      .where('enabled', '=', true)
      .execute();
  }

  async updateEndpoint(accountId: number, id: number, patch: EndpointPatch, db: Db = this.db): Promise<void> {
    await db
      .updateTable('webhook_endpoints')
      .set({ ...patch, updated_at: nowIso() })
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .execute();
  }

  async deleteEndpoint(accountId: number, id: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .deleteFrom('webhook_attempts')
        .where('account_id', '=', accountId)
        .where('endpoint_id', '=', id)
        .execute();
      await trx
        .deleteFrom('webhook_deliveries')
        .where('account_id', '=', accountId)
        .where('endpoint_id', '=', id)
        .execute();
      await trx.deleteFrom('webhook_endpoints').where('account_id', '=', accountId).where('id', '=', id).execute();
    });
  }

  async insertDeliveries(rows: NewDelivery[], db: Db = this.db): Promise<void> {
    for (let start = 0; start < rows.length; start += 500)
      await db
        .insertInto('webhook_deliveries')
        .values(rows.slice(start, start + 500))
        .execute();
  }

  async insertDelivery(row: NewDelivery): Promise<number> {
    return (await this.db.insertInto('webhook_deliveries').values(row).returning('id').executeTakeFirstOrThrow()).id;
  }

  /** The oldest deliveries the endpoint still owes: deliveries go out in id order (event order). */
  pending(accountId: number, endpointId: number, limit: number): Promise<DeliveryRow[]> {
    return this.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('endpoint_id', '=', endpointId)
      .where('status', '=', 'pending')
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  delivery(accountId: number, endpointId: number, id: number): Promise<DeliveryRow | undefined> {
    return this.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('endpoint_id', '=', endpointId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  async deliveries(
    accountId: number,
    endpointId: number,
    filter: { status?: string },
    paging: Paging,
  ): Promise<Page<DeliveryRow>> {
    let query = this.db
      .selectFrom('webhook_deliveries')
      .where('account_id', '=', accountId)
      .where('endpoint_id', '=', endpointId);
    if (filter.status) query = query.where('status', '=', filter.status);
    const [items, total] = await Promise.all([
      query.selectAll().orderBy('id', 'desc').limit(paging.perPage).offset(paging.offset).execute(),
      query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { items, total: Number(total.total) };
  }

  async attempts(
    accountId: number,
    endpointId: number,
    filter: { deliveryId?: number },
    paging: Paging,
  ): Promise<Page<AttemptRow>> {
    let query = this.db
      .selectFrom('webhook_attempts')
      .where('account_id', '=', accountId)
      .where('endpoint_id', '=', endpointId);
    if (filter.deliveryId !== undefined) query = query.where('delivery_id', '=', filter.deliveryId);
    const [items, total] = await Promise.all([
      query.selectAll().orderBy('id', 'desc').limit(paging.perPage).offset(paging.offset).execute(),
      query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { items, total: Number(total.total) };
  }

  /**
   * Records attempts and their outcome on each delivery, with the endpoint's new state, in
   * one transaction: a sender records a run of successes at once rather than one commit each.
   */
  async recordAttempts(
    accountId: number,
    endpointId: number,
    attempts: RecordedAttempt[],
    endpoint: EndpointPatch | null,
  ): Promise<void> {
    if (attempts.length === 0 && !endpoint) return;
    await this.db.transaction().execute(async (trx) => {
      if (attempts.length) {
        await trx
          .insertInto('webhook_attempts')
          .values(
            attempts.map(({ delivery, at, durationMs, httpStatus, error, responseHead }) => ({
              account_id: accountId,
              endpoint_id: endpointId,
              delivery_id: delivery.id,
              at,
              duration_ms: durationMs,
              http_status: httpStatus,
              error,
              response_head: responseHead,
            })),
          )
          .execute();
      }
      for (const attempt of attempts) {
        await trx
          .updateTable('webhook_deliveries')
          .set({
            attempts: sql`attempts + 1`,
            last_status: attempt.httpStatus,
            last_error: attempt.error,
            ...(attempt.delivered ? { status: 'delivered', delivered_at: attempt.at } : {}),
          })
          .where('id', '=', attempt.delivery.id)
          .execute();
      }
      if (endpoint) await this.updateEndpoint(accountId, endpointId, endpoint, trx);
    });
  }

  /** Gives up every delivery the endpoint still owes (it was disabled); the number given up. */
  async failPending(accountId: number, endpointId: number, db: Db = this.db): Promise<number> {
    const result = await db
      .updateTable('webhook_deliveries')
      .set({ status: 'failed' })
      .where('account_id', '=', accountId)
      .where('endpoint_id', '=', endpointId)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /**
   * Takes the endpoint's sending lease unless another sender holds it: one sender per
   * endpoint keeps its deliveries in order across processes. A turn is shorter than the
   * lease (TURN_MS + one call's timeout), so it is never renewed.
   */
  async takeLease(accountId: number, endpointId: number, now: Date, leaseMs: number): Promise<boolean> {
    const result = await this.db
      .updateTable('webhook_endpoints')
      .set({ lease_until: new Date(now.getTime() + leaseMs).toISOString() })
      .where('account_id', '=', accountId)
      .where('id', '=', endpointId)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now.toISOString())]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async releaseLease(accountId: number, endpointId: number): Promise<void> {
    await this.db
      .updateTable('webhook_endpoints')
      .set({ lease_until: null })
      .where('account_id', '=', accountId)
      .where('id', '=', endpointId)
      .execute();
  }

  /** Forgets delivered and given-up deliveries (and their attempts) older than `before`. */
  async purge(before: string): Promise<number> {
    const old = this.db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('created_at', '<', before)
      .where('status', '!=', 'pending');
    await this.db.deleteFrom('webhook_attempts').where('delivery_id', 'in', old).execute();
    const result = await this.db
      .deleteFrom('webhook_deliveries')
      .where('created_at', '<', before)
      .where('status', '!=', 'pending')
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

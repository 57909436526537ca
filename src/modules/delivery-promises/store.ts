/** The delivery promises' SQL: arrived parcels (scoped by account where an account reads them) and the instance's distributions. */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Tables } from '../../platform/db/tables.js';
import { keysOf, type Route } from './distribution.js';

export type Db = Kysely<Tables> | Transaction<Tables>;

/** One arrived parcel as written. */
export interface Observation {
  accountId: number;
  orderId: number | null;
  route: Route;
  fromName: string;
  toName: string;
  handedOver: string;
  arrived: string;
  days: number;
  promisedDays: number | null;
  promisedBy: string | null;
  promiseBasis: string | null;
  declaredDays: number | null;
  generated: boolean;
}

/** Rows of one insert: SQLite takes at most 32,766 values in a statement, a row has 25. */
const ROWS_PER_INSERT = 400;

export class DeliveryPromiseStore {
  constructor(readonly db: Kysely<Tables>) {}

  transaction<T>(work: (trx: Transaction<Tables>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  /** Writes arrived parcels and counts them in the distributions (in the caller's transaction when given). */
  async record(observations: Observation[], db: Db = this.db): Promise<void> {
    if (observations.length === 0) return;
    const now = new Date().toISOString();
    for (let at = 0; at < observations.length; at += ROWS_PER_INSERT) {
      await db
        .insertInto('transit_observations')
        .values(
          observations.slice(at, at + ROWS_PER_INSERT).map((item) => ({
            account_id: item.accountId,
            order_id: item.orderId,
            company_id: item.route.companyId,
            delivery_type: item.route.deliveryType,
            tariff: item.route.tariff,
            from_locality: item.route.from.id,
            to_locality: item.route.to.id,
            from_name: item.fromName,
            to_name: item.toName,
            from_region: item.route.from.regionCode,
            to_region: item.route.to.regionCode,
            from_lat: item.route.from.latitude,
            from_lon: item.route.from.longitude,
            to_lat: item.route.to.latitude,
            to_lon: item.route.to.longitude,
            handed_over: item.handedOver,
            arrived: item.arrived,
            days: item.days,
            promised_days: item.promisedDays,
            promised_by: item.promisedBy,
            promise_basis: item.promiseBasis,
            declared_days: item.declaredDays,
            generated: item.generated,
            created_at: now,
          })),
        )
        .execute();
    }
    const counts = new Map<string, number>();
    for (const item of observations) {
      for (const key of keysOf(item.route)) {
        const cell = `${item.days}\u0000${key}`;
        counts.set(cell, (counts.get(cell) ?? 0) + 1);
      }
    }
    // sorted: two transactions counting the same keys take their rows in one order (no deadlock on PostgreSQL)
    for (const [cell, parcels] of [...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      const [days, key] = cell.split('\u0000');
      await db
        .insertInto('transit_stats')
        .values({ key, days: Number(days), parcels })
        .onConflict((conflict) =>
          conflict.columns(['key', 'days']).doUpdateSet({ parcels: sql`transit_stats.parcels + ${parcels}` }),
        )
        .execute();
    }
  }

  /** The distributions and the last parcel counted in them, read at one moment. */
  async snapshot(): Promise<{ rows: Array<{ key: string; days: number; parcels: number }>; lastId: number }> {
    return this.db
      .transaction()
      .setIsolationLevel('serializable')
      .execute(async (trx) => {
        const last = await trx
          .selectFrom('transit_observations')
          .select((eb) => eb.fn.max('id').as('id'))
          .executeTakeFirst();
        const rows = await trx.selectFrom('transit_stats').select(['key', 'days', 'parcels']).execute();
        return {
          rows: rows.map((row) => ({ key: row.key, days: row.days, parcels: Number(row.parcels) })),
          lastId: Number(last?.id ?? 0),
        };
      });
  }

  /** Parcels counted after `afterId` (another process's arrivals), oldest first. */
  async since(afterId: number, limit: number): Promise<Array<{ id: number; route: Route; days: number }>> {
    const rows = await this.db
      .selectFrom('transit_observations')
      .select([
        'id',
        'company_id',
        'delivery_type',
        'tariff',
        'from_locality',
        'to_locality',
        'from_region',
        'to_region',
        'from_lat',
        'from_lon',
        'to_lat',
        'to_lon',
        'days',
      ])
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((row) => ({
      id: Number(row.id),
      days: row.days,
      route: {
        companyId: row.company_id,
        deliveryType: row.delivery_type,
        tariff: row.tariff,
        from: {
          id: Number(row.from_locality),
          regionCode: row.from_region,
          latitude: row.from_lat,
          longitude: row.from_lon,
        },
        to: { id: Number(row.to_locality), regionCode: row.to_region, latitude: row.to_lat, longitude: row.to_lon },
      },
    }));
  }

  /** An account's parcels that arrived in a period (the on-time report), at most `limit`. */
  async arrivedIn(
    accountId: number,
    period: { from: string; to: string },
    companyId: number | undefined,
    limit: number,
  ) {
    let query = this.db
      .selectFrom('transit_observations')
      .select([
        'company_id',
        'delivery_type',
        'from_name',
        'to_name',
        'days',
        'promised_days',
        'promised_by',
        'arrived',
        'declared_days',
      ])
      .where('account_id', '=', accountId)
      .where('arrived', '>=', period.from)
      .where('arrived', '<=', period.to);
    if (companyId !== undefined) query = query.where('company_id', '=', companyId);
    return query.limit(limit).execute();
  }
}

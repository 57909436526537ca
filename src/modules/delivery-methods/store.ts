import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Tables } from '../../platform/db/tables.js';
import { flag, fromJson, nowIso, toJson } from '../../platform/db/values.js';
import type { OwnMethod, OwnPoint, PriceRule } from './rules.js';

/** What a method is made of, validated (the service's job), before it has an id. */
export type MethodValues = Omit<OwnMethod, 'id' | 'accountId' | 'version' | 'points'> & {
  /** `id` null: a new point. */
  points: Array<Omit<OwnPoint, 'id'> & { id: number | null }>;
};

type MethodRow = Selectable<Tables['delivery_methods']>;
type PointRow = Selectable<Tables['delivery_method_points']>;

function pointOf(row: PointRow): OwnPoint {
  return {
    id: row.id,
    name: row.name,
    address: row.address,
    latitude: Number(row.latitude),
    longitude: Number(row.longitude),
    schedule: row.schedule === null ? null : fromJson<OwnPoint['schedule']>(row.schedule),
    description: row.description,
    zipCode: row.zip_code,
  };
}

function methodOf(row: MethodRow, points: OwnPoint[]): OwnMethod {
  return {
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    type: row.type as 1 | 2 | 3,
    localities: fromJson<string[]>(row.localities),
    radiusKm: row.radius_km === null ? null : Number(row.radius_km),
    priceRules: fromJson<PriceRule[]>(row.price_rules),
    freeFromKopecks: row.free_from_kopecks === null ? null : Number(row.free_from_kopecks),
    days: { min: row.days_min, max: row.days_max },
    cashPaymentAvailable: flag(row.cash_payment),
    cardPaymentAvailable: flag(row.card_payment),
    points,
    version: row.version,
  };
}

function columnsOf(values: MethodValues) {
  return {
    name: values.name,
    type: values.type,
    localities: toJson(values.localities),
    radius_km: values.radiusKm,
    price_rules: toJson(values.priceRules),
    free_from_kopecks: values.freeFromKopecks,
    days_min: values.days.min,
    days_max: values.days.max,
    cash_payment: values.cashPaymentAvailable,
    card_payment: values.cardPaymentAvailable,
  };
}

function pointColumns(point: MethodValues['points'][number]) {
  return {
    name: point.name,
    address: point.address,
    latitude: point.latitude,
    longitude: point.longitude,
    schedule: point.schedule === null ? null : toJson(point.schedule),
    description: point.description,
    zip_code: point.zipCode,
  };
}

/** SQL of own delivery methods, always scoped by account. */
export class DeliveryMethodStore {
  constructor(private readonly db: Kysely<Tables>) {}

  /** Every method of the account, with its points, oldest first (the calculator reads them all). */
  async all(accountId: number): Promise<OwnMethod[]> {
    const [rows, points] = await Promise.all([
      this.db
        .selectFrom('delivery_methods')
        .selectAll()
        .where('account_id', '=', accountId)
        .orderBy('id', 'asc')
        .execute(),
      this.db
        .selectFrom('delivery_method_points')
        .selectAll()
        .where('account_id', '=', accountId)
        .orderBy('id', 'asc')
        .execute(),
    ]);
    const byMethod = new Map<number, OwnPoint[]>();
    for (const point of points)
      byMethod.set(point.method_id, [...(byMethod.get(point.method_id) ?? []), pointOf(point)]);
    return rows.map((row) => methodOf(row, byMethod.get(row.id) ?? []));
  }

  async get(accountId: number, id: number, db: Kysely<Tables> = this.db): Promise<OwnMethod | undefined> {
    const row = await db
      .selectFrom('delivery_methods')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) return undefined;
    const points = await db
      .selectFrom('delivery_method_points')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('method_id', '=', id)
      .orderBy('id', 'asc')
      .execute();
    return methodOf(row, points.map(pointOf));
  }

  async insert(accountId: number, values: MethodValues): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const now = nowIso();
      const row = await trx
        .insertInto('delivery_methods')
        .values({ account_id: accountId, ...columnsOf(values), version: 1, created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      await this.writePoints(trx, accountId, row.id, values.points);
      return row.id;
    });
  }

  /** Replaces the method; points sent with their id keep it, the others are made, those not sent go. False when it is gone. */
  async update(accountId: number, id: number, values: MethodValues): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const current = await trx
        .selectFrom('delivery_methods')
        .select('version')
        .where('account_id', '=', accountId)
        .where('id', '=', id)
        .executeTakeFirst();
      if (!current) return false;
      await trx
        .updateTable('delivery_methods')
        .set({ ...columnsOf(values), version: current.version + 1, updated_at: nowIso() })
        .where('account_id', '=', accountId)
        .where('id', '=', id)
        .execute();
      const kept = values.points.map((point) => point.id).filter((pointId): pointId is number => pointId !== null);
      let gone = trx
        .deleteFrom('delivery_method_points')
        .where('account_id', '=', accountId)
        .where('method_id', '=', id);
      if (kept.length) gone = gone.where('id', 'not in', kept);
      await gone.execute();
      await this.writePoints(trx, accountId, id, values.points);
      return true;
    });
  }

  private async writePoints(
    trx: Transaction<Tables>,
    accountId: number,
    methodId: number,
    points: MethodValues['points'],
  ): Promise<void> {
    for (const point of points) {
      if (point.id === null)
        await trx
          .insertInto('delivery_method_points')
          .values({ account_id: accountId, method_id: methodId, ...pointColumns(point) })
          .execute();
      else
        await trx
          .updateTable('delivery_method_points')
          .set(pointColumns(point))
          .where('account_id', '=', accountId)
          .where('method_id', '=', methodId)
          .where('id', '=', point.id)
          .execute();
    }
  }

  async delete(accountId: number, id: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      await trx
        .deleteFrom('delivery_method_points')
        .where('account_id', '=', accountId)
        .where('method_id', '=', id)
        .execute();
      const result = await trx
        .deleteFrom('delivery_methods')
        .where('account_id', '=', accountId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    });
  }
}

/** SQL of the reference data of delivery companies (not tenant data: no account scope). */
import { isDeepStrictEqual } from 'node:util';
import type { Kysely } from 'kysely';
import type { Tables } from '../../platform/db/tables.js';
import { flag, fromJson, nowIso, toJson } from '../../platform/db/values.js';
import type { Page, Paging } from '../../platform/paging.js';
import type { DeliveryPoint } from '../../carriers/points.js';
import type { Locality } from '../localities/source.js';

export interface PointFilter {
  id?: number;
  companyId?: number;
  localityId?: number;
  countryCode?: string;
  types?: number[];
}

/** Rows per multi-row INSERT: well under SQLite's and PostgreSQL's bound-parameter limits. */
const CHUNK = 500;
/** Ids of a company's imported points are companyId * 10^7 + a running number (as generated points'). */
export const IMPORTED_ID_RANGE = 10_000_000;

export class ReferenceStore {
  constructor(private readonly db: Kysely<Tables>) {}

  async loadedVersion(name: string): Promise<string | null> {
    const row = await this.db
      .selectFrom('reference_versions')
      .select('version')
      .where('name', '=', name)
      .executeTakeFirst();
    return row?.version ?? null;
  }

  /** The localities as `replaceAll` stored them, in id order (what `buildLocalities` gives for that version). */
  async localities(): Promise<Locality[]> {
    const rows = await this.db.selectFrom('localities').selectAll().orderBy('id').execute();
    return rows.map((row) => ({
      id: Number(row.id),
      countryCode: row.country_code,
      name: row.name,
      nameEn: row.name_en,
      type: row.type,
      region: row.region,
      regionCode: row.region_code,
      latitude: Number(row.latitude),
      longitude: Number(row.longitude),
      population: Number(row.population),
      fias: row.fias,
      zip: row.zip,
    }));
  }

  /** Replaces localities and points in one transaction, then records the version. */
  async replaceAll(name: string, version: string, localities: Locality[], points: DeliveryPoint[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      // imported points (with a company's code) are the import job's, not the generator's
      await trx.deleteFrom('delivery_points').where('code', 'is', null).execute();
      await trx.deleteFrom('localities').execute();
      for (let i = 0; i < localities.length; i += CHUNK) {
        await trx
          .insertInto('localities')
          .values(
            localities.slice(i, i + CHUNK).map((l) => ({
              id: l.id,
              country_code: l.countryCode,
              name: l.name,
              name_en: l.nameEn,
              type: l.type,
              region: l.region,
              region_code: l.regionCode,
              latitude: l.latitude,
              longitude: l.longitude,
              population: l.population,
              fias: l.fias,
              zip: l.zip,
            })),
          )
          .execute();
      }
      for (let i = 0; i < points.length; i += CHUNK) {
        await trx
          .insertInto('delivery_points')
          .values(
            points.slice(i, i + CHUNK).map((p) => ({
              id: p.id,
              company_id: p.companyId,
              locality_id: p.localityId,
              type: p.type,
              country_code: 'RU',
              data: toJson(p),
            })),
          )
          .execute();
      }
      await trx.deleteFrom('reference_versions').where('name', '=', name).execute();
      await trx.insertInto('reference_versions').values({ name, version, loaded_at: nowIso() }).execute();
    });
  }

  async listPoints(filter: PointFilter, paging: Paging): Promise<Page<DeliveryPoint>> {
    let query = this.db.selectFrom('delivery_points').where('hidden', '=', false);
    if (filter.id !== undefined) query = query.where('id', '=', filter.id);
    if (filter.companyId !== undefined) query = query.where('company_id', '=', filter.companyId);
    if (filter.localityId !== undefined) query = query.where('locality_id', '=', filter.localityId);
    if (filter.countryCode !== undefined) query = query.where('country_code', '=', filter.countryCode);
    if (filter.types?.length) query = query.where('type', 'in', filter.types);
    const [rows, count] = await Promise.all([
      query.select('data').orderBy('id').limit(paging.perPage).offset(paging.offset).execute(),
      query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { items: rows.map((row) => fromJson<DeliveryPoint>(row.data)), total: Number(count.total) };
  }

  /** A point by id, hidden or not (a point gone from its directory is still the one an order names). */
  async pointById(id: number): Promise<DeliveryPoint | undefined> {
    const row = await this.db.selectFrom('delivery_points').select('data').where('id', '=', id).executeTakeFirst();
    return row ? fromJson<DeliveryPoint>(row.data) : undefined;
  }

  /** Imported points still in their companies' directories. */
  async importedPoints(): Promise<DeliveryPoint[]> {
    const rows = await this.db
      .selectFrom('delivery_points')
      .select('data')
      .where('code', 'is not', null)
      .where('hidden', '=', false)
      .orderBy('id')
      .execute();
    return rows.map((row) => fromJson<DeliveryPoint>(row.data));
  }

  /**
   * Makes a company's imported points what its directory now holds, in one transaction: a
   * known code keeps its id (orders name it) and gets the new data, a new code gets the next
   * id of the company's range (companyId * 10^7 + n), a code gone from the directory is
   * hidden, never deleted. Answers the company's visible points.
   */
  async replaceImported(
    companyId: number,
    points: Array<Omit<DeliveryPoint, 'id'> & { code: string }>,
  ): Promise<{ points: DeliveryPoint[]; added: number; hidden: number }> {
    return this.db.transaction().execute(async (trx) => {
      const known = await trx
        .selectFrom('delivery_points')
        .select(['id', 'code', 'hidden', 'data'])
        .where('company_id', '=', companyId)
        .where('code', 'is not', null)
        .execute();
      const rowOfId = new Map(known.map((row) => [Number(row.id), row]));
      const idOfCode = new Map(known.map((row) => [row.code as string, Number(row.id)]));
      let nextId = Math.max(companyId * IMPORTED_ID_RANGE, ...known.map((row) => Number(row.id))) + 1;
      const visible: DeliveryPoint[] = [];
      const seen = new Set<number>();
      const fresh: DeliveryPoint[] = [];
      for (const point of points) {
        const id = idOfCode.get(point.code);
        if (id === undefined) {
          const made = { ...point, id: nextId++ };
          idOfCode.set(point.code, made.id);
          seen.add(made.id);
          fresh.push(made);
          visible.push(made);
        } else if (!seen.has(id)) {
          const updated = { ...point, id };
          const stored = rowOfId.get(id);
          const data = toJson(updated);
          // a directory mostly says again what it said: only points that changed (or come back) are written
          if (!stored || flag(stored.hidden) || !isDeepStrictEqual(fromJson(stored.data), JSON.parse(data))) {
            await trx
              .updateTable('delivery_points')
              .set({ data, locality_id: updated.localityId, type: updated.type, country_code: 'RU', hidden: false })
              .where('id', '=', id)
              .execute();
          }
          seen.add(id);
          visible.push(updated);
        }
      }
      for (let i = 0; i < fresh.length; i += CHUNK) {
        await trx
          .insertInto('delivery_points')
          .values(
            fresh.slice(i, i + CHUNK).map((p) => ({
              id: p.id,
              company_id: p.companyId,
              locality_id: p.localityId,
              type: p.type,
              country_code: 'RU',
              data: toJson(p),
              code: p.code ?? null,
              hidden: false,
            })),
          )
          .execute();
      }
      const gone = known.filter((row) => !seen.has(Number(row.id)) && !flag(row.hidden)).map((row) => Number(row.id));
      for (let i = 0; i < gone.length; i += CHUNK)
        await trx
          .updateTable('delivery_points')
          .set({ hidden: true })
          .where('id', 'in', gone.slice(i, i + CHUNK))
          .execute();
      return { points: visible, added: fresh.length, hidden: gone.length };
    });
  }
}

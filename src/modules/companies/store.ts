/** SQL of the reference data of delivery companies (not tenant data: no account scope). */
import type { Kysely } from 'kysely';
import type { Tables } from '../../platform/db/tables.js';
import { fromJson, nowIso, toJson } from '../../platform/db/values.js';
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

export class ReferenceStore {
  constructor(private readonly db: Kysely<Tables>) {}

  async loadedVersion(name: string): Promise<string | null> {
    const row = await this.db.selectFrom('reference_versions').select('version').where('name', '=', name).executeTakeFirst();
    return row?.version ?? null;
  }

  /** Replaces localities and points in one transaction, then records the version. */
  async replaceAll(name: string, version: string, localities: Locality[], points: DeliveryPoint[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('delivery_points').execute();
      await trx.deleteFrom('localities').execute();
      for (let i = 0; i < localities.length; i += CHUNK) {
        await trx
          .insertInto('localities')
          .values(
            localities.slice(i, i + CHUNK).map((l) => ({
              id: l.id, country_code: l.countryCode, name: l.name, name_en: l.nameEn, type: l.type, region: l.region, region_code: l.regionCode,
              latitude: l.latitude, longitude: l.longitude, population: l.population, fias: l.fias, zip: l.zip,
            })),
          )
          .execute();
      }
      for (let i = 0; i < points.length; i += CHUNK) {
        await trx
          .insertInto('delivery_points')
          .values(points.slice(i, i + CHUNK).map((p) => ({ id: p.id, company_id: p.companyId, locality_id: p.localityId, type: p.type, country_code: 'RU', data: toJson(p) })))
          .execute();
      }
      await trx.deleteFrom('reference_versions').where('name', '=', name).execute();
      await trx.insertInto('reference_versions').values({ name, version, loaded_at: nowIso() }).execute();
    });
  }

  async listPoints(filter: PointFilter, paging: Paging): Promise<Page<DeliveryPoint>> {
    let query = this.db.selectFrom('delivery_points');
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
}

/**
 * SQL of the register's search (reference data shared by every account: no account scope) and of
 * the accounts' address settings (scoped by account). Prefix ranges are `key >= prefix AND key <
 * successor(prefix)` on the (parent_id, search_key) indexes: both databases walk the index for
 * them (LIKE would need a C collation on PostgreSQL, and a range works in the C.UTF-8 and C
 * collations the service's databases are created with).
 */
import type { Kysely, Selectable } from 'kysely';
import type { Tables } from '../../platform/db/tables.js';

export type ObjectRow = Selectable<Tables['address_objects']>;
export type HouseRow = Selectable<Tables['address_houses']>;
export type FlatRow = Selectable<Tables['address_flats']>;

/** What the in-memory directories keep of an object: enough to match and rank, the rest read by id when shown. */
export interface ObjectEntry {
  objectId: number;
  name: string;
  typeShort: string;
  level: number;
  parentId: number | null;
  regionCode: number;
  popularity: number;
  searchKey: string;
}

/** The first string after every string that starts with `prefix` (its last letter moved on by one). */
export function prefixEnd(prefix: string): string {
  const last = prefix.charCodeAt(prefix.length - 1);
  return prefix.slice(0, -1) + String.fromCharCode(last + 1);
}

const entryColumns = [
  'object_id',
  'name',
  'type_short',
  'level',
  'parent_id',
  'region_code',
  'popularity',
  'search_key',
] as const;

export function toEntry(row: Pick<ObjectRow, (typeof entryColumns)[number]>): ObjectEntry {
  return {
    objectId: Number(row.object_id),
    name: row.name,
    typeShort: row.type_short,
    level: row.level,
    parentId: row.parent_id === null ? null : Number(row.parent_id),
    regionCode: row.region_code,
    popularity: row.popularity,
    searchKey: row.search_key,
  };
}

export class AddressStore {
  constructor(private readonly db: Kysely<Tables>) {}

  /** Regions, areas, cities and settlements: every level a buyer names before the street. */
  async localities(): Promise<(ObjectEntry & { guid: string })[]> {
    const rows = await this.db
      .selectFrom('address_objects')
      .select([...entryColumns, 'guid'])
      .where('level', '<=', 6)
      .execute();
    return rows.map((row) => ({ ...toEntry(row), guid: row.guid }));
  }

  /**
   * Streets and planning structures directly under an object (a city's streets: a few thousand at
   * most), whole: the directory keeps their rows so that a suggestion of streets reads nothing more.
   */
  async streetsUnder(parentId: number): Promise<ObjectRow[]> {
    return this.db
      .selectFrom('address_objects')
      .selectAll()
      .where('parent_id', '=', parentId)
      .where('level', '>=', 7)
      .execute();
  }

  async objectsByIds(ids: number[]): Promise<ObjectRow[]> {
    if (ids.length === 0) return [];
    return this.db.selectFrom('address_objects').selectAll().where('object_id', 'in', ids).execute();
  }

  async objectByGuid(guid: string): Promise<ObjectRow | undefined> {
    return this.db.selectFrom('address_objects').selectAll().where('guid', '=', guid).executeTakeFirst();
  }

  async houseByGuid(guid: string): Promise<HouseRow | undefined> {
    return this.db.selectFrom('address_houses').selectAll().where('guid', '=', guid).executeTakeFirst();
  }

  async houseById(id: number): Promise<HouseRow | undefined> {
    return this.db.selectFrom('address_houses').selectAll().where('object_id', '=', id).executeTakeFirst();
  }

  async flatByGuid(guid: string): Promise<FlatRow | undefined> {
    return this.db.selectFrom('address_flats').selectAll().where('guid', '=', guid).executeTakeFirst();
  }

  /** Houses of a street (or locality) whose key starts with `prefix`, in key order. */
  async housesByPrefix(parentId: number, prefix: string, limit: number): Promise<HouseRow[]> {
    let query = this.db.selectFrom('address_houses').selectAll().where('parent_id', '=', parentId);
    if (prefix !== '') query = query.where('search_key', '>=', prefix).where('search_key', '<', prefixEnd(prefix));
    return query.orderBy('search_key').limit(limit).execute();
  }

  async flatsByPrefix(houseId: number, prefix: string, limit: number): Promise<FlatRow[]> {
    let query = this.db.selectFrom('address_flats').selectAll().where('house_id', '=', houseId);
    if (prefix !== '') query = query.where('number', '>=', prefix).where('number', '<', prefixEnd(prefix));
    return query.orderBy('number').limit(limit).execute();
  }

  /** Houses with coordinates inside the box, at most `limit` (the caller sorts by distance). */
  async housesInBox(south: number, north: number, west: number, east: number, limit: number): Promise<HouseRow[]> {
    return this.db
      .selectFrom('address_houses')
      .selectAll()
      .where('lat', '>=', south)
      .where('lat', '<=', north)
      .where('lon', '>=', west)
      .where('lon', '<=', east)
      .limit(limit)
      .execute();
  }

  /** The newest finished import: the directories reload when it changes. */
  async registerVersion(): Promise<number> {
    const row = await this.db
      .selectFrom('address_imports')
      .select((eb) => eb.fn.max('id').as('latest'))
      .where('state', '=', 'done')
      .executeTakeFirst();
    return Number(row?.latest ?? 0);
  }

  async sealedDadataKeys(accountId: number): Promise<string | null> {
    const row = await this.db
      .selectFrom('address_settings')
      .select('dadata_keys')
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return row?.dadata_keys ?? null;
  }

  async saveSealedDadataKeys(accountId: number, sealed: string | null, now: string): Promise<void> {
    await this.db
      .insertInto('address_settings')
      .values({ account_id: accountId, dadata_keys: sealed, updated_at: now })
      .onConflict((oc) => oc.column('account_id').doUpdateSet({ dadata_keys: sealed, updated_at: now }))
      .execute();
  }
}

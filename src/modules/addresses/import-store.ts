/**
 * The register import's SQL: rows staged by object id (the later change winning), then a region
 * moved into the register's tables with set-based statements (parents and parameters joined in
 * the database, not held in memory), its popularity counted, and the run's progress written in
 * the same transaction. Reference data: no account.
 */
import { CompiledQuery, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { DatabaseKind } from '../../platform/db/database.js';
import type { Tables } from '../../platform/db/tables.js';
import { PARAM_TYPE } from './gar-format.js';

type Db = Kysely<Tables> | Transaction<Tables>;
type Value = string | number | null;

export type StageTable =
  | 'address_stage_objects'
  | 'address_stage_houses'
  | 'address_stage_flats'
  | 'address_stage_hierarchy'
  | 'address_stage_params';

interface StageShape {
  columns: readonly string[];
  key: readonly string[];
  /** When a staged row gives way to a later one of the same key. */
  replaces: string;
}

const LATER_CHANGE = (table: string): string =>
  `excluded.change_id > ${table}.change_id or (excluded.change_id = ${table}.change_id and excluded.alive >= ${table}.alive)`;

const STAGES: Readonly<Record<StageTable, StageShape>> = {
  address_stage_objects: {
    columns: ['object_id', 'guid', 'name', 'type_short', 'level', 'search_key', 'change_id', 'alive'],
    key: ['object_id'],
    replaces: LATER_CHANGE('address_stage_objects'),
  },
  address_stage_houses: {
    columns: [
      'object_id',
      'guid',
      'house_num',
      'add_num1',
      'add_num2',
      'house_type',
      'add_type1',
      'add_type2',
      'search_key',
      'change_id',
      'alive',
    ],
    key: ['object_id'],
    replaces: LATER_CHANGE('address_stage_houses'),
  },
  address_stage_flats: {
    columns: ['object_id', 'guid', 'number', 'apart_type', 'change_id', 'alive'],
    key: ['object_id'],
    replaces: LATER_CHANGE('address_stage_flats'),
  },
  address_stage_hierarchy: {
    columns: ['kind', 'object_id', 'parent_id', 'change_id', 'alive'],
    key: ['object_id', 'kind'],
    replaces: LATER_CHANGE('address_stage_hierarchy'),
  },
  address_stage_params: {
    columns: ['object_id', 'type_id', 'value', 'change_id'],
    key: ['object_id', 'type_id'],
    replaces: 'excluded.change_id >= address_stage_params.change_id',
  },
};

/** Register tables in the order a region's rows are removed (flats before their houses before their streets). */
const REGISTER_TABLES = ['address_flats', 'address_houses', 'address_objects'] as const;

export interface RegionCounts {
  objects: number;
  houses: number;
  flats: number;
}

export type ImportRecord = Selectable<Tables['address_imports']>;

export interface LocalityCandidate {
  objectId: number;
  guid: string;
  name: string;
  typeShort: string;
  level: number;
}

export interface LocalityFix {
  objectId: number;
  lat: number;
  lon: number;
  population: number;
}

export class AddressImportStore {
  private readonly texts = new Map<string, string>();

  constructor(
    readonly db: Kysely<Tables>,
    private readonly kind: DatabaseKind,
  ) {}

  async clearStaging(): Promise<void> {
    for (const table of Object.keys(STAGES)) await this.run(this.db, `delete from ${table}`);
  }

  /**
   * Stages rows (each an array in the table's column order). Within one statement a key may come
   * once only (PostgreSQL refuses to update a row twice), so the batch keeps the winner of each key first.
   */
  async stage(db: Db, table: StageTable, rows: Value[][]): Promise<void> {
    if (rows.length === 0) return;
    const shape = STAGES[table];
    const unique = winners(shape, rows);
    await db.executeQuery(CompiledQuery.raw(this.stageText(table, unique.length), unique.flat()));
  }

  private stageText(table: StageTable, count: number): string {
    const cacheKey = `${table}:${count}`;
    let text = this.texts.get(cacheKey);
    if (text) return text;
    const shape = STAGES[table];
    let parameter = 0;
    const placeholder = (): string => (this.kind === 'postgres' ? `$${++parameter}` : '?');
    const tuples = Array.from({ length: count }, () => `(${shape.columns.map(placeholder).join(', ')})`);
    const updates = shape.columns
      .filter((column) => !shape.key.includes(column))
      .map((column) => `${column} = excluded.${column}`);
    text =
      `insert into ${table} (${shape.columns.join(', ')}) values ${tuples.join(', ')} ` +
      `on conflict (${shape.key.join(', ')}) do update set ${updates.join(', ')} where ${shape.replaces}`;
    if (this.texts.size < 64) this.texts.set(cacheKey, text);
    return text;
  }

  /**
   * Moves the staged region into the register's tables. A full import replaces the region; a
   * delta removes the rows it marks gone and replaces those it carries with a later change,
   * keeping what it does not mention (a row's parent or postcode from before).
   */
  async moveRegion(trx: Transaction<Tables>, region: number, delta: boolean): Promise<RegionCounts> {
    const r = integer(region);
    if (delta) {
      for (const table of REGISTER_TABLES) {
        const stage = table.replace('address_', 'address_stage_');
        await this.run(
          trx,
          `delete from ${table} where object_id in (select s.object_id from ${stage} s where s.alive = 0 and s.change_id >= ${table}.change_id)`,
        );
      }
    } else {
      for (const table of REGISTER_TABLES) await this.run(trx, `delete from ${table} where region_code = ${r}`);
    }
    const kept = (column: string, staged: string): string => (delta ? `coalesce(${staged}, e.${column})` : staged);
    const existing = (table: string): string => (delta ? `left join ${table} e on e.object_id = s.object_id` : '');
    const param = (alias: string, type: number): string =>
      `left join address_stage_params ${alias} on ${alias}.object_id = s.object_id and ${alias}.type_id = ${type}`;
    const hierarchy = (alias: string, kind: 'adm' | 'mun'): string =>
      `left join address_stage_hierarchy ${alias} on ${alias}.object_id = s.object_id and ${alias}.kind = '${kind}' and ${alias}.alive = 1`;
    const onConflict = (columns: string[]): string =>
      `on conflict (object_id) do update set ${columns.map((column) => `${column} = excluded.${column}`).join(', ')}` +
      (delta ? ` where excluded.change_id > ${'$TABLE'}.change_id` : '');

    const objectColumns = [
      'guid',
      'name',
      'type_short',
      'level',
      'parent_id',
      'mun_parent_id',
      'region_code',
      'postcode',
      'okato',
      'oktmo',
      'kladr',
      'search_key',
      'change_id',
    ];
    await this.run(
      trx,
      `insert into address_objects (object_id, ${objectColumns.join(', ')}, popularity)
       select s.object_id, s.guid, s.name, s.type_short, s.level, ${kept('parent_id', 'a.parent_id')},
         ${kept('mun_parent_id', 'case when a.parent_id is null or m.parent_id <> a.parent_id then m.parent_id end')},
         ${r}, ${kept('postcode', 'p5.value')}, ${kept('okato', 'p6.value')}, ${kept('oktmo', 'p7.value')}, ${kept('kladr', 'p10.value')},
         s.search_key, s.change_id, 0
       from address_stage_objects s ${hierarchy('a', 'adm')} ${hierarchy('m', 'mun')}
         ${param('p5', PARAM_TYPE.postcode)} ${param('p6', PARAM_TYPE.okato)} ${param('p7', PARAM_TYPE.oktmo)} ${param('p10', PARAM_TYPE.kladr)}
         ${existing('address_objects')}
       where s.alive = 1
       ${onConflict(objectColumns).replace('$TABLE', 'address_objects')}`,
    );

    const houseColumns = [
      'guid',
      'parent_id',
      'house_num',
      'add_num1',
      'add_num2',
      'house_type',
      'add_type1',
      'add_type2',
      'region_code',
      'postcode',
      'okato',
      'oktmo',
      'search_key',
      'change_id',
    ];
    await this.run(
      trx,
      `insert into address_houses (object_id, ${houseColumns.join(', ')})
       select s.object_id, s.guid, ${kept('parent_id', 'a.parent_id')}, s.house_num, s.add_num1, s.add_num2,
         s.house_type, s.add_type1, s.add_type2, ${r},
         ${kept('postcode', 'p5.value')}, ${kept('okato', 'p6.value')}, ${kept('oktmo', 'p7.value')}, s.search_key, s.change_id
       from address_stage_houses s ${hierarchy('a', 'adm')}
         ${param('p5', PARAM_TYPE.postcode)} ${param('p6', PARAM_TYPE.okato)} ${param('p7', PARAM_TYPE.oktmo)}
         ${existing('address_houses')}
       where s.alive = 1 and ${kept('parent_id', 'a.parent_id')} is not null
       ${onConflict(houseColumns).replace('$TABLE', 'address_houses')}`,
    );

    const flatColumns = ['guid', 'house_id', 'number', 'apart_type', 'region_code', 'postcode', 'change_id'];
    await this.run(
      trx,
      `insert into address_flats (object_id, ${flatColumns.join(', ')})
       select s.object_id, s.guid, ${delta ? 'coalesce(a.parent_id, e.house_id)' : 'a.parent_id'}, s.number, s.apart_type, ${r},
         ${kept('postcode', 'p5.value')}, s.change_id
       from address_stage_flats s ${hierarchy('a', 'adm')} ${param('p5', PARAM_TYPE.postcode)} ${existing('address_flats')}
       where s.alive = 1 and ${delta ? 'coalesce(a.parent_id, e.house_id)' : 'a.parent_id'} is not null
       ${onConflict(flatColumns).replace('$TABLE', 'address_flats')}`,
    );

    if (delta) await this.applyLooseChanges(trx);
    await this.countPopularity(trx, r);
    return this.counts(trx, r);
  }

  /** A delta's hierarchy items and parameters of rows it does not carry themselves: a house moved to another street, a new postcode. */
  private async applyLooseChanges(trx: Transaction<Tables>): Promise<void> {
    const parents: Array<[string, string]> = [
      ['address_objects', 'parent_id'],
      ['address_houses', 'parent_id'],
      ['address_flats', 'house_id'],
    ];
    for (const [table, column] of parents)
      await this.run(
        trx,
        `update ${table} set ${column} = (select h.parent_id from address_stage_hierarchy h where h.object_id = ${table}.object_id and h.kind = 'adm')
         where object_id in (select object_id from address_stage_hierarchy where kind = 'adm' and alive = 1 and parent_id is not null)`,
      );
    const params: Array<[string, string, number]> = [
      ['address_objects', 'postcode', PARAM_TYPE.postcode],
      ['address_objects', 'okato', PARAM_TYPE.okato],
      ['address_objects', 'oktmo', PARAM_TYPE.oktmo],
      ['address_objects', 'kladr', PARAM_TYPE.kladr],
      ['address_houses', 'postcode', PARAM_TYPE.postcode],
      ['address_houses', 'okato', PARAM_TYPE.okato],
      ['address_houses', 'oktmo', PARAM_TYPE.oktmo],
      ['address_flats', 'postcode', PARAM_TYPE.postcode],
    ];
    for (const [table, column, type] of params)
      await this.run(
        trx,
        `update ${table} set ${column} = (select p.value from address_stage_params p where p.object_id = ${table}.object_id and p.type_id = ${type})
         where object_id in (select object_id from address_stage_params where type_id = ${type})`,
      );
  }

  /**
   * Popularity ranks suggestions: a street (and any object) counts the houses right under it; a
   * planning structure adds its streets'; a locality (a city, a settlement, a city that is a
   * region) adds its streets' and planning structures'. Localities we know replace it with their
   * population afterwards (`fixLocalities`).
   */
  private async countPopularity(trx: Transaction<Tables>, r: number): Promise<void> {
    await this.run(
      trx,
      `update address_objects set popularity = (select count(*) from address_houses h where h.parent_id = address_objects.object_id)
       where region_code = ${r}`,
    );
    await this.run(
      trx,
      `update address_objects set popularity = popularity + (select coalesce(sum(c.popularity), 0) from address_objects c
         where c.parent_id = address_objects.object_id and c.level = 8)
       where region_code = ${r} and level = 7`,
    );
    await this.run(
      trx,
      `update address_objects set popularity = popularity + (select coalesce(sum(c.popularity), 0) from address_objects c
         where c.parent_id = address_objects.object_id and c.level in (7, 8))
       where region_code = ${r} and level in (1, 5, 6)`,
    );
  }

  async localityCandidates(trx: Transaction<Tables>, region: number): Promise<LocalityCandidate[]> {
    const rows = await trx
      .selectFrom('address_objects')
      .select(['object_id', 'guid', 'name', 'type_short', 'level'])
      .where('region_code', '=', region)
      .where('level', 'in', [1, 5, 6])
      .execute();
    return rows.map((row) => ({
      objectId: Number(row.object_id),
      guid: row.guid,
      name: row.name,
      typeShort: row.type_short,
      level: Number(row.level),
    }));
  }

  /** Our localities' centres and populations on the register's localities they matched. */
  async fixLocalities(trx: Transaction<Tables>, fixes: readonly LocalityFix[]): Promise<void> {
    for (const fix of fixes)
      await trx
        .updateTable('address_objects')
        .set({ lat: fix.lat, lon: fix.lon, geo_precision: 'locality', popularity: fix.population })
        .where('object_id', '=', fix.objectId)
        .execute();
  }

  async counts(db: Db, region: number): Promise<RegionCounts> {
    const count = async (table: 'address_objects' | 'address_houses' | 'address_flats'): Promise<number> =>
      Number(
        (
          await db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('region_code', '=', region)
            .executeTakeFirstOrThrow()
        ).n,
      );
    return {
      objects: await count('address_objects'),
      houses: await count('address_houses'),
      flats: await count('address_flats'),
    };
  }

  async isEmpty(): Promise<boolean> {
    const row = await this.db.selectFrom('address_objects').select('object_id').limit(1).executeTakeFirst();
    return row === undefined;
  }

  async replaceTypes(
    rows: ReadonlyArray<{ kind: string; code: string; level: number | null; short_name: string; full_name: string }>,
    kinds: readonly string[],
  ): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      if (kinds.length > 0)
        await trx
          .deleteFrom('address_types')
          .where('kind', 'in', [...kinds])
          .execute();
      for (let i = 0; i < rows.length; i += 500) {
        await trx
          .insertInto('address_types')
          .values(rows.slice(i, i + 500))
          .onConflict((oc) =>
            oc.columns(['kind', 'code']).doUpdateSet((eb) => ({
              level: eb.ref('excluded.level'),
              short_name: eb.ref('excluded.short_name'),
              full_name: eb.ref('excluded.full_name'),
            })),
          )
          .execute();
      }
    });
  }

  /** The last run of this source and kind that did not finish: a new run of the same command resumes it. */
  async unfinishedImport(source: string, kind: string): Promise<{ id: number; progress: string } | undefined> {
    const row = await this.db
      .selectFrom('address_imports')
      .select(['id', 'progress'])
      .where('source', '=', source)
      .where('kind', '=', kind)
      .where('state', '!=', 'done')
      .orderBy('id', 'desc')
      .executeTakeFirst();
    return row && { id: Number(row.id), progress: row.progress };
  }

  async startImport(source: string, kind: string, version: string | null, progress: string): Promise<number> {
    const row = await this.db
      .insertInto('address_imports')
      .values({
        source,
        kind,
        version,
        state: 'running',
        progress,
        message: null,
        started_at: new Date().toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  async resumeImport(id: number): Promise<void> {
    await this.db
      .updateTable('address_imports')
      .set({ state: 'running', message: null })
      .where('id', '=', id)
      .execute();
  }

  /** In the region's own transaction: the region and the record of it are committed together. */
  async saveProgress(db: Db, id: number, progress: string): Promise<void> {
    await db.updateTable('address_imports').set({ progress }).where('id', '=', id).execute();
  }

  async finishImport(id: number, state: 'done' | 'failed', message: string | null): Promise<void> {
    await this.db
      .updateTable('address_imports')
      .set({ state, message, finished_at: new Date().toISOString() })
      .where('id', '=', id)
      .execute();
  }

  async recentImports(limit: number): Promise<ImportRecord[]> {
    const rows = await this.db.selectFrom('address_imports').selectAll().orderBy('id', 'desc').limit(limit).execute();
    return rows.map((row) => ({ ...row, id: Number(row.id) }));
  }

  async totals(): Promise<RegionCounts & { regions: number }> {
    const count = async (table: 'address_objects' | 'address_houses' | 'address_flats'): Promise<number> =>
      Number(
        (
          await this.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const regions = await this.db
      .selectFrom('address_objects')
      .select((eb) => eb.fn.count<number>('region_code').distinct().as('n'))
      .executeTakeFirstOrThrow();
    return {
      objects: await count('address_objects'),
      houses: await count('address_houses'),
      flats: await count('address_flats'),
      regions: Number(regions.n),
    };
  }

  private async run(db: Db, text: string): Promise<void> {
    await db.executeQuery(CompiledQuery.raw(text, []));
  }
}

function integer(value: number): number {
  if (!Number.isSafeInteger(value)) throw new TypeError(`not an integer: ${value}`);
  return value;
}

/** The rows of a batch, one per key: the later change, an alive row over a gone one of the same change. */
function winners(shape: StageShape, rows: Value[][]): Value[][] {
  const keyAt = shape.key.map((column) => shape.columns.indexOf(column));
  const changeAt = shape.columns.indexOf('change_id');
  const aliveAt = shape.columns.indexOf('alive');
  const byKey = new Map<string, Value[]>();
  for (const row of rows) {
    const key = keyAt.map((at) => row[at]).join('|');
    const held = byKey.get(key);
    if (!held) {
      byKey.set(key, row);
      continue;
    }
    const later =
      Number(row[changeAt]) > Number(held[changeAt]) ||
      (Number(row[changeAt]) === Number(held[changeAt]) &&
        (aliveAt < 0 || Number(row[aliveAt]) >= Number(held[aliveAt])));
    if (later) byKey.set(key, row);
  }
  return byKey.size === rows.length ? rows : [...byKey.values()];
}

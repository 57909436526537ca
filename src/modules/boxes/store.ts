import type { Kysely, Selectable } from 'kysely';
import type { Tables } from '../../platform/db/tables.js';
import { containsPattern, gramsToKg, nowIso, searchText } from '../../platform/db/values.js';
import type { Page, Paging } from '../../platform/paging.js';
import type { Box } from './schemas.js';

export interface BoxValues {
  name: string | null;
  width: number;
  height: number;
  length: number;
  weightGrams: number | null;
}

export interface BoxFilter {
  nameContains?: string;
  width?: number;
  height?: number;
  length?: number;
  weightGrams?: number;
}

function toModel(row: Selectable<Tables['boxes']>): Box {
  return {
    id: row.id,
    name: row.name,
    dimensions: { width: row.width, height: row.height, length: row.length },
    weight: row.weight_grams === null ? null : gramsToKg(row.weight_grams),
  };
}

function toColumns(values: BoxValues) {
  return {
    name: values.name,
    search_name: searchText(values.name),
    width: values.width,
    height: values.height,
    length: values.length,
    weight_grams: values.weightGrams,
  };
}

/** SQL of parcel boxes, always scoped by account. */
export class BoxStore {
  constructor(private readonly db: Kysely<Tables>) {}

  async list(accountId: number, filter: BoxFilter, paging: Paging): Promise<Page<Box>> {
    let query = this.db.selectFrom('boxes').where('account_id', '=', accountId);
    if (filter.nameContains) query = query.where('search_name', 'like', containsPattern(filter.nameContains));
    if (filter.width !== undefined) query = query.where('width', '=', filter.width);
    if (filter.height !== undefined) query = query.where('height', '=', filter.height);
    if (filter.length !== undefined) query = query.where('length', '=', filter.length);
    if (filter.weightGrams !== undefined) query = query.where('weight_grams', '=', filter.weightGrams);
    const [rows, count] = await Promise.all([
      query.selectAll().orderBy('id', 'desc').limit(paging.perPage).offset(paging.offset).execute(),
      query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { items: rows.map(toModel), total: Number(count.total) };
  }

  async get(accountId: number, id: number): Promise<Box | undefined> {
    const row = await this.db
      .selectFrom('boxes')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toModel(row) : undefined;
  }

  async insert(accountId: number, values: BoxValues): Promise<number> {
    const now = nowIso();
    const row = await this.db
      .insertInto('boxes')
      .values({ account_id: accountId, ...toColumns(values), created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async update(accountId: number, id: number, values: BoxValues): Promise<boolean> {
    const result = await this.db
      .updateTable('boxes')
      .set({ ...toColumns(values), updated_at: nowIso() })
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async delete(accountId: number, id: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom('boxes')
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}

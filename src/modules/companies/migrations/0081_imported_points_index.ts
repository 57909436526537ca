import { sql, type Kysely } from 'kysely';
import type { SchemaMigration } from '../../../platform/db/migration-kit.js';

/**
 * The imported points (a real company's, with its code) by id, for the read at every start and
 * every hour: without it that read walked the whole table of generated points (~13k, most of
 * the database's 15 MB, all of it then resident as mapped pages: bench/memory.ts).
 */
export const importedPointsIndex: SchemaMigration = {
  name: '0081_imported_points_index',
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createIndex('delivery_points_imported')
      .on('delivery_points')
      .column('id')
      .where(sql.ref('code'), 'is not', null)
      .execute();
  },
};

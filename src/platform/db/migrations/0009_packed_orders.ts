import { sql, type Kysely } from 'kysely';
import type { MigrationKit, SchemaMigration } from '../migration-kit.js';
import { packObject } from '../../json-pieces.js';

const BATCH = 500;

interface StoredOrder {
  id: number;
  doc: Buffer | string;
}

/**
 * Orders keep their document packed (platform/json-pieces.ts: deflated on its own, with its
 * CRC), so that pages go out gzipped with no compression when read; and whether storage ends
 * soon becomes a column, which the storage poll used to find by matching the JSON text.
 */
export const packedOrders: SchemaMigration = {
  name: '0009_packed_orders',
  async up(db: Kysely<unknown>, kit: MigrationKit): Promise<void> {
    const postgres = kit.kind === 'postgres';
    await db.schema
      .alterTable('orders')
      .addColumn('doc_packed', postgres ? 'bytea' : 'blob')
      .execute();
    await db.schema
      .alterTable('orders')
      .addColumn('storaging_ends', kit.types.flag, (c) => kit.flagDefaultFalse(c))
      .execute();
    let after = 0;
    for (;;) {
      const rows = (
        await sql<StoredOrder>`select id, doc from orders where id > ${after} order by id limit ${BATCH}`.execute(db)
      ).rows;
      if (rows.length === 0) break;
      for (const row of rows) {
        const json = typeof row.doc === 'string' ? Buffer.from(row.doc) : Buffer.from(row.doc);
        const storagingEnds =
          (JSON.parse(json.toString('utf8')) as { delivery?: { point?: { storagingEnds?: boolean } | null } }).delivery
            ?.point?.storagingEnds === true;
        await sql`update orders set doc_packed = ${packObject(json)}, storaging_ends = ${postgres ? storagingEnds : Number(storagingEnds)} where id = ${row.id}`.execute(
          db,
        );
      }
      after = Number(rows[rows.length - 1].id);
    }
    await db.schema.alterTable('orders').dropColumn('doc').execute();
    if (postgres) {
      await sql`alter table orders alter column doc_packed set not null`.execute(db);
      // kept in the row (read with it, no TOAST lookup) as long as the row fits a page
      await sql`alter table orders alter column doc_packed set storage main`.execute(db);
    }
  },
};

import { DummyDriver, Kysely, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler } from 'kysely';
import { describe, expect, it } from 'vitest';
import { sqliteInsert } from './sqlite-insert.js';
import type { Tables } from './tables.js';

// Kysely's own SQLite compiler, with no database: what the stores sent before this path existed
const kysely = new Kysely<Tables>({
  dialect: {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  },
});

const event = (orderId: number, type: string) => ({
  account_id: 1,
  shop_id: null,
  order_id: orderId,
  type,
  status_from: null,
  status_to: 1,
  at: '2026-11-27T10:00:00.000Z',
  payload: '{"a":1}',
});

describe('sqliteInsert', () => {
  it('makes the very statement and values Kysely compiles, for one row with returning and for several', () => {
    const one = [event(7, 'order.created')];
    const made = sqliteInsert('order_events', one, 'id');
    const compiled = kysely.insertInto('order_events').values(one).returning('id').compile();
    expect(made.sql).toBe(compiled.sql);
    expect(made.parameters).toEqual(compiled.parameters);

    const three = [event(7, 'order.created'), event(7, 'order.status'), event(8, 'order.created')];
    const many = sqliteInsert('order_events', three);
    const compiledMany = kysely.insertInto('order_events').values(three).compile();
    expect(many.sql).toBe(compiledMany.sql);
    expect(many.parameters).toEqual(compiledMany.parameters);
    // the text is kept: asked again with other values, the same text
    expect(sqliteInsert('order_events', [event(9, 'order.created')], 'id').sql).toBe(made.sql);
  });

  it('leaves out a column the first row leaves undefined, as Kysely does, and refuses rows that differ', () => {
    const row = { ...event(7, 'order.created'), shop_id: undefined };
    expect(sqliteInsert('order_events', [row]).sql).toBe(kysely.insertInto('order_events').values(row).compile().sql);
    const untyped = { ...event(7, 'b'), type: undefined as unknown as string };
    expect(() => sqliteInsert('order_events', [event(7, 'a'), untyped])).toThrow(/differ in columns/);
    // a later row with a column the first lacks: refused, not dropped
    expect(() => sqliteInsert('order_events', [row, event(8, 'b')])).toThrow(/differ in columns/);
    expect(() => sqliteInsert('order_events', [])).toThrow(TypeError);
  });
});

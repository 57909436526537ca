import { describe, expect, it } from 'vitest';
import { BLOCK_ROWS, type IdRange, type ListBounds, ListDirectory } from './list-directory.js';

/** The bounds a database would answer for `ids` (newest first) within `range`. */
function boundsOf(ids: readonly number[], range: IdRange = {}): ListBounds {
  const inRange = ids.filter(
    (id) => (range.from === undefined || id >= range.from) && (range.below === undefined || id < range.below),
  );
  return {
    upperBounds: inRange.filter((_, index) => (index + 1) % BLOCK_ROWS === 0 && index + 1 < inRange.length),
    total: inRange.length,
  };
}

/** The page a database answers from a start: rows below `beforeId`, `skip` of them skipped. */
function pageFrom(ids: readonly number[], directory: ListDirectory, offset: number, limit: number): number[] {
  const start = directory.startFor(offset);
  const candidates = start.beforeId === undefined ? ids : ids.filter((id) => id < (start.beforeId as number));
  expect(start.skip).toBeLessThan(4 * BLOCK_ROWS + 1);
  return candidates.slice(start.skip, start.skip + limit);
}

const descending = (ids: Iterable<number>) => [...ids].sort((a, b) => b - a);

describe('list directory', () => {
  it('starts every page, near or far, within one block of its first row', () => {
    const ids = Array.from({ length: 1000 }, (_, index) => 5000 - index * 3);
    const directory = new ListDirectory(boundsOf(ids));
    expect(directory.total).toBe(1000);
    expect(directory.startFor(0)).toEqual({ skip: 0 });
    expect(directory.startFor(BLOCK_ROWS)).toEqual({ beforeId: ids[BLOCK_ROWS - 1], skip: 0 });
    for (const perPage of [1, 20, 50, 333])
      for (let offset = 0; offset < 1100; offset += perPage)
        expect(pageFrom(ids, directory, offset, perPage)).toEqual(ids.slice(offset, offset + perPage));
  });

  it('holds an empty list and a list of exactly a block', () => {
    expect(new ListDirectory(boundsOf([])).total).toBe(0);
    expect(new ListDirectory(boundsOf([])).startFor(40)).toEqual({ skip: 40 });
    const block = Array.from({ length: BLOCK_ROWS }, (_, index) => BLOCK_ROWS - index);
    const directory = new ListDirectory(boundsOf(block));
    expect(directory.blocks).toBe(1);
    expect(pageFrom(block, directory, BLOCK_ROWS - 5, 10)).toEqual(block.slice(BLOCK_ROWS - 5));
  });

  it('stays exact when the blocks written are counted again, and cuts a block grown too large', () => {
    let random = 42;
    const next = () => {
      random = (random * 1103515245 + 12345) % 2 ** 31;
      return random / 2 ** 31;
    };
    // the table: ids 1..3000, a row in the list when its flag is set
    const inList = new Map<number, boolean>();
    for (let id = 1; id <= 3000; id++) inList.set(id, next() < 0.6);
    const list = () => descending([...inList].filter(([, on]) => on).map(([id]) => id));
    const directory = new ListDirectory(boundsOf(list()));
    let lastId = 3000;
    for (let round = 0; round < 300; round++) {
      const written: number[] = [];
      let created = false;
      for (let change = 0; change < 5; change++) {
        if (next() < 0.5) {
          lastId++;
          inList.set(lastId, next() < 0.8);
          created = true;
        } else {
          const id = 1 + Math.floor(next() * lastId);
          inList.set(id, !inList.get(id));
          written.push(id);
        }
      }
      const dirty = new Set(written.map((id) => directory.blockOf(id)));
      if (created) dirty.add(0);
      const ids = list();
      for (const block of descending(dirty)) {
        const range = directory.rangeOf(block);
        directory.recount(block, boundsOf(ids, range).total);
        if (directory.needsCutting(block)) directory.cut(block, boundsOf(ids, range));
      }
      expect(directory.total).toBe(ids.length);
      const offset = Math.floor(next() * ids.length);
      expect(pageFrom(ids, directory, offset, 50)).toEqual(ids.slice(offset, offset + 50));
    }
    expect(directory.blocks).toBeGreaterThan(boundsOf(list()).upperBounds.length / 2);
  });

  it('is changed through a copy, the original still read as it was', () => {
    const ids = Array.from({ length: 500 }, (_, index) => 500 - index);
    const directory = new ListDirectory(boundsOf(ids));
    const copy = directory.copy();
    copy.recount(0, 0);
    expect(directory.total).toBe(500);
    expect(copy.total).toBe(500 - BLOCK_ROWS);
  });
});

import { describe, expect, it } from 'vitest';
import { ListPositions } from './list-positions.js';

/** A newest-first list of ids with gaps (as a filter leaves them), and pages read from it through the positions. */
const rows = Array.from({ length: 1000 }, (_, index) => 5000 - index * 3);

function readPage(positions: ListPositions, offset: number, limit: number): number[] {
  const start = positions.startFor(offset);
  const candidates = start.beforeId === undefined ? rows : rows.filter((id) => id < (start.beforeId as number));
  const page = candidates.slice(start.skip, start.skip + limit);
  positions.record(offset, page);
  return page;
}

describe('list positions', () => {
  it('reads the first page with nothing known, from the start', () => {
    expect(new ListPositions().startFor(0)).toEqual({ skip: 0 });
    expect(new ListPositions().startFor(150)).toEqual({ skip: 150 });
  });

  it('starts the next page right after the last row of the page before it', () => {
    const positions = new ListPositions();
    readPage(positions, 0, 50);
    expect(positions.startFor(50)).toEqual({ beforeId: rows[49], skip: 0 });
    expect(positions.startFor(120)).toEqual({ beforeId: rows[49], skip: 70 });
    expect(positions.startFor(30)).toEqual({ skip: 30 });
  });

  it('answers every page as plain offsets would, whatever order pages are read in', () => {
    const positions = new ListPositions();
    const order = [7, 0, 3, 19, 1, 2, 18, 5, 5, 12, 6, 4, 19, 0];
    for (const page of order) expect(readPage(positions, page * 50, 50)).toEqual(rows.slice(page * 50, page * 50 + 50));
    // pages of another size over the same positions
    for (const offset of [0, 10, 49, 50, 51, 333, 980])
      expect(readPage(positions, offset, 20)).toEqual(rows.slice(offset, offset + 20));
  });

  it('records nothing for an empty page past the end', () => {
    const positions = new ListPositions();
    expect(readPage(positions, 5000, 50)).toEqual([]);
    expect(positions.startFor(5000)).toEqual({ skip: 5000 });
  });
});

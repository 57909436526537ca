/**
 * Hand-written, and why. Figure: an integration walking 4000 pages of 200k orders paid for
 * every order before each page (quadratic); it now pays for one page each. Reproduce:
 * `npx tsx bench/orders.ts` (far pages). Measured against: OFFSET paging (Kysely's `.offset`);
 * keyset paging libraries need a cursor the contract's `page`/`perPage` does not carry.
 *
 * Where the rows of one newest-first list were seen: the id at the end of each page read.
 *
 * A far page by `page`/`perPage` makes the database step over every row before it (OFFSET);
 * for page 400 of 50 that is 20 000 index entries per request. Once a page has been read,
 * the rows after it are exactly those with a smaller id, so the next page starts from that
 * id with no rows to skip, and any page after it skips only the rows since the nearest page
 * already read. The positions hold for one version of the data: the caller keeps them in
 * the read cache, which drops them on the next write.
 */

/** How a page is read: rows with an id below `beforeId` (when given), skipping `skip` of them. */
export interface PageStart {
  beforeId?: number;
  skip: number;
}

/** Enough for every page of 50 over 200 000 rows; beyond it new positions are not kept. */
const MAX_POSITIONS = 4096;

export class ListPositions {
  /** Positions (0-based row index) in ascending order, and the id of the row at each. */
  private readonly positions: number[] = [];
  private readonly ids: number[] = [];

  /** Records the rows a page read from `offset` answered (their ids, newest first). */
  record(offset: number, ids: readonly number[]): void {
    if (ids.length === 0 || this.positions.length >= MAX_POSITIONS) return;
    const position = offset + ids.length - 1;
    const at = this.indexAfter(position);
    if (at > 0 && this.positions[at - 1] === position) return;
    this.positions.splice(at, 0, position);
    this.ids.splice(at, 0, ids[ids.length - 1]);
  }

  /** Where to read the page starting at row `offset`: after the nearest known row before it. */
  startFor(offset: number): PageStart {
    const at = this.indexAfter(offset - 1);
    if (at === 0) return { skip: offset };
    const position = this.positions[at - 1];
    return { beforeId: this.ids[at - 1], skip: offset - position - 1 };
  }

  /** The index of the first known position greater than `position`. */
  private indexAfter(position: number): number {
    let low = 0;
    let high = this.positions.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.positions[middle] <= position) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

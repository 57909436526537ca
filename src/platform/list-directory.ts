/**
 * Hand-written, and why. Figure: see `bench/far-pages.ts` (pages 1, 100, 1000 and 2000 of 200k
 * and 1M orders, each read cold after a write). Measured against: OFFSET paging from the nearest
 * page already read (its positions were forgotten on every write, so the first far page after
 * any write stepped over every order before it, and every total counted them all). Keyset
 * paging libraries need a cursor the contract's `page`/`perPage` does not carry, and neither
 * database keeps an order-statistic index.
 *
 * A directory of one newest-first list: the list cut into blocks of about `BLOCK_ROWS` rows,
 * each block the ids in [lower bound, upper bound) with the number of the list's rows in it.
 * Page N starts in the block holding its first row: the database skips at most a block's rows
 * below that block's upper bound, whatever N is. A write changes the count of the block holding
 * the id written (a new order: the first block, its id being above every other), so a write
 * costs one block counted again, not the list walked again; the total is the counts' sum.
 *
 * Pure: the caller reads the bounds and counts from the database (`boundsOf` answers what it
 * read) and says which blocks to count again.
 */
import type { PageStart } from './paging.js';

/** Rows per block when a directory is made: a far page skips fewer than this many rows. */
export const BLOCK_ROWS = 128;

/** A block counted again holding more than this many rows is cut into blocks of `BLOCK_ROWS` again. */
const MAX_BLOCK_ROWS = 4 * BLOCK_ROWS;

/** Upper bounds of the blocks after the first (ids, descending) and the total they were read with. */
export interface ListBounds {
  /** The id of every `BLOCK_ROWS`-th row (1-based row BLOCK_ROWS, 2·BLOCK_ROWS, ...) before the last row. */
  upperBounds: number[];
  total: number;
}

/** An id range of the list, [from, below): `from` or `below` absent where the range is open. */
export interface IdRange {
  from?: number;
  below?: number;
}

export class ListDirectory {
  /** upper[k]: block k holds ids below it (block 0 has none: +Infinity). */
  private upper: number[];
  private counts: number[];
  /** prefix[k]: rows in the blocks before block k (made again after counts change). */
  private prefix: number[] | null = null;

  constructor(bounds: ListBounds) {
    this.upper = [Number.POSITIVE_INFINITY, ...bounds.upperBounds];
    const blocks = this.upper.length;
    this.counts = Array.from({ length: blocks }, (_, block) =>
      block < blocks - 1 ? BLOCK_ROWS : bounds.total - (blocks - 1) * BLOCK_ROWS,
    );
  }

  get total(): number {
    const prefix = this.prefixes();
    return prefix[prefix.length - 1] + this.counts[this.counts.length - 1];
  }

  /** How many blocks there are (what the directory weighs is about this times 16 bytes). */
  get blocks(): number {
    return this.upper.length;
  }

  /** Where the page starting at row `offset` (0-based) is read from. */
  startFor(offset: number): PageStart {
    const prefix = this.prefixes();
    // the last block whose first row is at or before `offset` (blocks may be empty)
    let low = 0;
    let high = prefix.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >>> 1;
      if (prefix[middle] <= offset) low = middle;
      else high = middle - 1;
    }
    const below = this.upper[low];
    const skip = offset - prefix[low];
    return below === Number.POSITIVE_INFINITY ? { skip } : { beforeId: below, skip };
  }

  /** The block holding `id`. */
  blockOf(id: number): number {
    // upper is descending: the last block whose upper bound is above id
    let low = 0;
    let high = this.upper.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >>> 1;
      if (this.upper[middle] > id) low = middle;
      else high = middle - 1;
    }
    return low;
  }

  /** The ids block `block` holds. */
  rangeOf(block: number): IdRange {
    const range: IdRange = {};
    if (block > 0) range.below = this.upper[block];
    if (block + 1 < this.upper.length) range.from = this.upper[block + 1];
    return range;
  }

  /** Block `block` counted again; a block grown too large is to be cut (`needsCutting`). */
  recount(block: number, count: number): void {
    this.counts[block] = count;
    this.prefix = null;
  }

  needsCutting(block: number): boolean {
    return this.counts[block] > MAX_BLOCK_ROWS;
  }

  /** Block `block` cut into the blocks `bounds` describes (read over `rangeOf(block)` only). */
  cut(block: number, bounds: ListBounds): void {
    const inner = new ListDirectory(bounds);
    this.upper.splice(block + 1, 0, ...bounds.upperBounds);
    this.counts.splice(block, 1, ...inner.counts);
    this.prefix = null;
  }

  /** A copy to change while this one is still read (a directory brought up to date is swapped in whole). */
  copy(): ListDirectory {
    const copy = Object.create(ListDirectory.prototype) as ListDirectory;
    copy.upper = [...this.upper];
    copy.counts = [...this.counts];
    copy.prefix = null;
    return copy;
  }

  private prefixes(): number[] {
    if (this.prefix) return this.prefix;
    const prefix = new Array<number>(this.counts.length);
    let sum = 0;
    for (let block = 0; block < this.counts.length; block++) {
      prefix[block] = sum;
      sum += this.counts[block];
    }
    this.prefix = prefix;
    return prefix;
  }
}

/**
 * The directories of the orders' lists (platform/list-directory.ts), one per account and
 * filter, kept up to date by what each write of orders says it wrote: a new order counts the
 * first block again, a changed order the block holding its id. Writes say so through the read
 * cache's topic (`OrderService.changed` here, and the other processes' messages on
 * PostgreSQL), so a directory is never older than the answers the cache would serve; a write
 * that said nothing, or a message lost, makes the next read walk the list once again.
 */
import { type AccountReadCache, BoundedMap, type CacheTopic } from '../../platform/cache.js';
import { ListDirectory } from '../../platform/list-directory.js';
import type { OrderFilter, OrderStore } from './store.js';

/** What a write of orders wrote: new orders (their ids above every other), and the ids of orders it changed. */
export interface OrderChange {
  created?: boolean;
  ids?: readonly number[];
}

/** The change as the read cache's detail: `c` for new orders, then the changed ids (`c;12,15`). */
export function describeOrderChange(change: OrderChange): string {
  const ids = (change.ids ?? []).join(',');
  return change.created ? (ids ? `c;${ids}` : 'c') : ids;
}

/** A detail read back; null when it says nothing usable (every block must be counted again). */
export function readOrderChange(detail: string | undefined): { created: boolean; ids: number[] } | null {
  if (detail === undefined || !/^(c(;|$))?(\d+(,\d+)*)?$/.test(detail)) return null;
  const created = detail.startsWith('c');
  const list = created ? detail.slice(2) : detail;
  return { created, ids: list ? list.split(',').map(Number) : [] };
}

/** Changes kept per account: a directory further behind than this is made again. */
const KEPT_CHANGES = 64;
/** More blocks than this to count again: the list is walked once instead. */
const MAX_RECOUNTS = 32;
/** At most this much memory for directories (16 bytes a block: 1M orders take 125 kB). */
const DIRECTORY_BYTES = 8 * 1024 * 1024;
/** Tries to catch up with writes arriving while a directory is brought up to date. */
const CATCH_UP_TRIES = 3;

interface AccountChanges {
  /** The number of the last change. */
  seq: number;
  /** The last changes, oldest first: null for one that said nothing usable. */
  recent: Array<{ seq: number; change: { created: boolean; ids: number[] } | null }>;
}

interface DirectoryEntry {
  directory: ListDirectory | null;
  /** The last change the directory includes. */
  seq: number;
  refreshing: Promise<void> | null;
}

export class OrderListDirectories {
  private readonly changes = new BoundedMap<number, AccountChanges>(10_000);
  private readonly entries = new BoundedMap<string, DirectoryEntry>(4096, DIRECTORY_BYTES);
  /** Bumped when the read cache may have missed writes: directories being made then are dropped. */
  private generation = 0;

  constructor(
    private readonly store: OrderStore,
    private readonly cache: AccountReadCache,
    topic: CacheTopic,
  ) {
    cache.watch(topic, (accountId, detail) => this.changed(accountId, detail));
    cache.watchResets(() => {
      this.generation++;
      this.entries.clear();
      this.changes.clear();
    });
  }

  /**
   * The directory of the list `filter` selects, up to date with every write acknowledged
   * before this call; null when memory cannot be trusted (the read cache is off or has missed
   * peers' messages) or writes keep arriving faster than it catches up: the caller reads
   * without it.
   */
  async of(accountId: number, key: string, filter: OrderFilter): Promise<ListDirectory | null> {
    if (!this.cache.enabled) return null;
    const name = `${accountId}:${key}`;
    for (let tries = 0; tries < CATCH_UP_TRIES; tries++) {
      const target = this.changesOf(accountId).seq;
      let entry = this.entries.get(name);
      if (entry?.directory && entry.seq === target) return entry.directory;
      if (!entry) {
        entry = { directory: null, seq: -1, refreshing: null };
        this.entries.set(name, entry, 64);
      }
      if (!entry.refreshing) {
        const refreshing = this.refresh(accountId, name, entry, filter, target);
        entry.refreshing = refreshing;
        refreshing.finally(() => {
          if (entry.refreshing === refreshing) entry.refreshing = null;
        });
      }
      try {
        await entry.refreshing;
      } catch {
        return null;
      }
    }
    return null;
  }

  private changed(accountId: number, detail: string | undefined): void {
    const changes = this.changesOf(accountId);
    changes.seq++;
    changes.recent.push({ seq: changes.seq, change: readOrderChange(detail) });
    if (changes.recent.length > KEPT_CHANGES) changes.recent.shift();
  }

  private changesOf(accountId: number): AccountChanges {
    let changes = this.changes.get(accountId);
    if (!changes) {
      changes = { seq: 0, recent: [] };
      this.changes.set(accountId, changes);
    }
    return changes;
  }

  /** Brings `entry` up to change `target`: the blocks written since counted again, or the list walked. */
  private async refresh(
    accountId: number,
    name: string,
    entry: DirectoryEntry,
    filter: OrderFilter,
    target: number,
  ): Promise<void> {
    const generation = this.generation;
    const dirty = this.dirtyBlocks(accountId, entry, target);
    let directory: ListDirectory;
    if (dirty === null || entry.directory === null) {
      directory = new ListDirectory(await this.store.boundsOf(accountId, filter));
    } else {
      directory = entry.directory.copy();
      // from the last block: cutting one does not move the blocks before it
      for (const block of [...dirty].sort((a, b) => b - a)) {
        const range = directory.rangeOf(block);
        directory.recount(block, await this.store.countIn(accountId, filter, range));
        if (directory.needsCutting(block)) directory.cut(block, await this.store.boundsOf(accountId, filter, range));
      }
    }
    if (generation !== this.generation || target < entry.seq) return;
    entry.directory = directory;
    entry.seq = target;
    this.entries.reweigh(name, entry, directory.blocks * 16);
  }

  /** The blocks the changes after the entry's touch, or null when they are not all known. */
  private dirtyBlocks(accountId: number, entry: DirectoryEntry, target: number): Set<number> | null {
    const { directory } = entry;
    if (!directory) return null;
    const recent = this.changesOf(accountId).recent.filter((item) => item.seq > entry.seq && item.seq <= target);
    if (recent.length !== target - entry.seq) return null;
    const blocks = new Set<number>();
    for (const { change } of recent) {
      if (!change) return null;
      if (change.created) blocks.add(0);
      for (const id of change.ids) blocks.add(directory.blockOf(id));
      if (blocks.size > MAX_RECOUNTS) return null;
    }
    return blocks;
  }
}

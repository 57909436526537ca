/**
 * The platform's LRU (BoundedMap) before and after it moved onto lru-cache: the hand-written
 * Map-based one (bench/baselines/bounded-map-before.ts) against the one on lru-cache, on what
 * the service does with it: the remembered tokens (50,000 entries, hits on a few hundred keys) and the read cache
 * (10,000 entries within 64 MB, pages of 20–200 kB set and read, then weighed again).
 *   npx tsx bench/bounded-map.ts
 */
import { performance } from 'node:perf_hooks';
import { BoundedMap as After } from '../src/platform/cache.js';
import { BoundedMap as Before } from './baselines/bounded-map-before.js';

interface MapLike {
  get(key: string): unknown;
  set(key: string, value: object, weight?: number): void;
  reweigh(key: string, value: object, weight: number): void;
}

function tokens(map: MapLike, rounds: number): void {
  const scope = { accountId: 1 };
  for (let i = 0; i < rounds; i++) {
    const key = `acc_${i % 500}`;
    if (map.get(key) === undefined) map.set(key, scope);
  }
}

function pages(map: MapLike, rounds: number): void {
  for (let i = 0; i < rounds; i++) {
    const key = `1:orders:page:${i % 3000}`;
    const hit = map.get(key);
    const page = hit ?? { bytes: 20_000 + (i % 9) * 20_000 };
    if (hit === undefined) map.set(key, page, (page as { bytes: number }).bytes);
    map.reweigh(key, page, (page as { bytes: number }).bytes / 4);
  }
}

const ROUNDS = 1_000_000;
for (const [scenario, run, make] of [
  ['tokens (50,000 entries)', tokens, (Map: new (entries: number, weight?: number) => MapLike) => new Map(50_000)],
  [
    'read cache pages (10,000 entries, 64 MB)',
    pages,
    (Map: new (entries: number, weight?: number) => MapLike) => new Map(10_000, 64 * 1024 * 1024),
  ],
] as const) {
  for (const [name, Map] of [
    ['before (hand-written)', Before],
    ['after (lru-cache)', After],
  ] as const) {
    const map = make(Map as unknown as new (entries: number, weight?: number) => MapLike);
    run(map, ROUNDS / 10);
    const started = performance.now();
    run(map, ROUNDS);
    const ms = performance.now() - started;
    console.log(`${scenario}, ${name}: ${Math.round(ROUNDS / ms)}k operations a second`);
  }
}

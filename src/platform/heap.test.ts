import v8 from 'node:v8';
import { describe, expect, it } from 'vitest';
import { LoadSettler, releaseStartupGarbage } from './heap.js';

describe('releasing the start garbage', () => {
  it('collects what nothing holds and gives the global scope no gc of its own', () => {
    const hadGc = 'gc' in globalThis;
    let garbage: number[][] | null = Array.from({ length: 2000 }, (_, row) => Array.from({ length: 100 }, () => row));
    const before = v8.getHeapStatistics().used_heap_size;
    expect(garbage.length).toBe(2000);
    garbage = null;
    const tookMs = releaseStartupGarbage();
    expect(tookMs).not.toBeNull();
    expect(tookMs).toBeGreaterThanOrEqual(0);
    expect(v8.getHeapStatistics().used_heap_size).toBeLessThan(before);
    expect('gc' in globalThis).toBe(hadGc);
  });
});

describe("giving a load's garbage back", () => {
  const serve = (settler: LoadSettler, requests: number) => {
    for (let index = 0; index < requests; index++) settler.requestServed();
  };

  it('settles after 30 s and 90 s of quiet that follow a load, and not while busy or after no load', () => {
    const settled: number[] = [];
    let look = 0;
    const settler = new LoadSettler(() => {
      settled.push(look);
      return 1;
    });
    const tick = (requests: number) => {
      look++;
      serve(settler, requests);
      settler.look();
    };
    // a quiet start: nothing to give back
    for (let index = 0; index < 8; index++) tick(3);
    expect(settled).toEqual([]);
    // a load of a minute, then quiet: the second and sixth quiet looks
    for (let index = 0; index < 4; index++) tick(5_000);
    for (let index = 0; index < 10; index++) tick(2);
    expect(settled).toEqual([14, 18]);
    // a trickle after it is no new load
    for (let index = 0; index < 10; index++) tick(10);
    expect(settled).toEqual([14, 18]);
    // busy again: nothing while it lasts, then the same two
    for (let index = 0; index < 3; index++) tick(1_000);
    expect(settled).toEqual([14, 18]);
    for (let index = 0; index < 6; index++) tick(0);
    expect(settled).toEqual([14, 18, 37, 41]);
  });
});

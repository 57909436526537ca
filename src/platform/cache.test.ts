import { describe, expect, it } from 'vitest';
import { AccountReadCache, BoundedMap, type CachePeers } from './cache.js';

/** A load that counts its calls and answers what `value` holds at the time. */
function counter(initial: string) {
  const state = { value: initial, loads: 0 };
  return { state, load: async () => (state.loads++, state.value) };
}

describe('bounded map', () => {
  it('forgets the least recently used entries beyond its count and its weight', () => {
    const map = new BoundedMap<string, string>(3, 100);
    map.set('a', 'A', 40);
    map.set('b', 'B', 40);
    map.set('c', 'C', 40);
    expect(map.get('a')).toBeUndefined();
    expect([map.get('b'), map.get('c')]).toEqual(['B', 'C']);
    map.set('big', 'X', 101);
    expect(map.get('big')).toBeUndefined();
    map.set('d', 'D', 10);
    map.set('e', 'E', 10);
    expect(map.get('b')).toBeUndefined();
    expect([map.get('c'), map.get('d'), map.get('e')]).toEqual(['C', 'D', 'E']);
  });

  it('keeps what is read: the least recently used entry goes first', () => {
    const map = new BoundedMap<string, string>(3);
    map.set('a', 'A');
    map.set('b', 'B');
    map.set('c', 'C');
    expect(map.get('a')).toBe('A');
    map.set('d', 'D');
    expect(map.get('b')).toBeUndefined();
    expect([map.get('a'), map.get('c'), map.get('d')]).toEqual(['A', 'C', 'D']);
  });
});

describe('weighing again', () => {
  it('counts a value that grew at its new weight, and forgets the least recently used to make room', () => {
    const map = new BoundedMap<string, string>(10, 100);
    map.set('a', 'A', 30);
    map.set('b', 'B', 30);
    map.set('c', 'C', 30);
    map.reweigh('c', 'C', 60);
    expect(map.get('a')).toBeUndefined();
    expect([map.get('b'), map.get('c')]).toEqual(['B', 'C']);
    map.reweigh('c', 'C', 10);
    map.set('d', 'D', 60);
    expect([map.get('b'), map.get('c'), map.get('d')]).toEqual(['B', 'C', 'D']);
  });

  it('leaves an entry that now holds another value as it is', () => {
    const map = new BoundedMap<string, string>(10, 100);
    map.set('a', 'A', 50);
    map.set('b', 'B', 40);
    map.reweigh('a', 'old A', 90);
    map.set('c', 'C', 10);
    expect([map.get('a'), map.get('b'), map.get('c')]).toEqual(['A', 'B', 'C']);
  });

  it('weighs a cached answer again once the request has used it', async () => {
    const cache = new AccountReadCache(true, { maxBytes: 100 });
    const page = { bytes: 30 };
    const weigh = (value: { bytes: number }) => value.bytes;
    const read = (key: string, value: { bytes: number }) => cache.read(1, 'orders', key, async () => value, weigh);
    await read('a', { bytes: 30 });
    await read('b', { bytes: 30 });
    expect(await read('page', page)).toBe(page);
    // the request makes more bytes of it (a client that does not take gzip)
    page.bytes = 70;
    await new Promise((resolve) => setImmediate(resolve));
    // 30 + 30 + 70 > 100: the least recently used went
    const fresh = { bytes: 1 };
    expect(await read('a', fresh)).toBe(fresh);
    expect(await read('page', { bytes: 0 })).toBe(page);
  });
});

describe('account read cache', () => {
  it('answers from memory until the topic is invalidated, per account', async () => {
    const cache = new AccountReadCache(true);
    const { state, load } = counter('v1');
    expect(await cache.read(1, 'orders', 'k', load)).toBe('v1');
    state.value = 'v2';
    expect(await cache.read(1, 'orders', 'k', load)).toBe('v1');
    cache.invalidate(2, 'orders');
    cache.invalidate(1, 'shops');
    expect(await cache.read(1, 'orders', 'k', load)).toBe('v1');
    cache.invalidate(1, 'orders');
    expect(await cache.read(1, 'orders', 'k', load)).toBe('v2');
    expect(state.loads).toBe(2);
  });

  it('does not keep an answer loaded while a write happened', async () => {
    const cache = new AccountReadCache(true);
    const { state, load } = counter('before');
    await cache.read(1, 't', 'k', async () => {
      const value = await load();
      cache.forget(1, 't');
      return value;
    });
    state.value = 'after';
    expect(await cache.read(1, 't', 'k', load)).toBe('after');
  });

  it('with peers: publishes its invalidations, serves nothing until resumed or while suspended, and nothing older than maxAgeMs', async () => {
    const published: string[] = [];
    const peers: CachePeers = { publish: (accountId, topic) => published.push(`${accountId}:${topic}`) };
    const cache = new AccountReadCache(true, { maxAgeMs: 50 });
    cache.sharedWith(peers);
    const { state, load } = counter('v1');
    expect(cache.enabled).toBe(false);
    await cache.read(1, 't', 'k', load);
    await cache.read(1, 't', 'k', load);
    expect(state.loads).toBe(2);

    cache.resume();
    await cache.read(1, 't', 'k', load);
    await cache.read(1, 't', 'k', load);
    expect(state.loads).toBe(3);
    cache.invalidate(1, 't');
    expect(published).toEqual(['1:t']);

    // a peer's write
    await cache.read(1, 't', 'k', load);
    state.value = 'v2';
    cache.forget(1, 't');
    expect(await cache.read(1, 't', 'k', load)).toBe('v2');
    expect(published).toEqual(['1:t']);

    // messages may be missed: what was remembered is gone and nothing new is kept
    cache.suspend();
    state.value = 'v3';
    expect(await cache.read(1, 't', 'k', load)).toBe('v3');
    const loads = state.loads;
    await cache.read(1, 't', 'k', load);
    expect(state.loads).toBe(loads + 1);
    cache.resume();
    await cache.read(1, 't', 'k', load);
    await cache.read(1, 't', 'k', load);
    expect(state.loads).toBe(loads + 2);

    await new Promise((resolve) => setTimeout(resolve, 60));
    state.value = 'v4';
    expect(await cache.read(1, 't', 'k', load)).toBe('v4');
  });

  it('reads through when it is off', async () => {
    const cache = new AccountReadCache(false);
    const { state, load } = counter('v1');
    await cache.read(1, 't', 'k', load);
    await cache.read(1, 't', 'k', load);
    expect(state.loads).toBe(2);
  });

  it('forgets an entry idle for longer than its idle time, and keeps one still read', async () => {
    const map = new BoundedMap<string, string>(10, Number.POSITIVE_INFINITY, 40);
    map.set('idle', 'a');
    map.set('read', 'b');
    for (let tick = 0; tick < 4; tick++) {
      await new Promise((resolve) => setTimeout(resolve, 15));
      expect(map.get('read')).toBe('b');
    }
    map.forgetIdle();
    expect(map.get('idle')).toBeUndefined();
    expect(map.get('read')).toBe('b');
  });
});

declare module './cache.js' {
  interface CacheTopics {
    /** The topic of these tests. */
    t: 'a test topic';
  }
}

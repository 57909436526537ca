import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { AnswerCache } from './answer-cache.js';
import { JsonBody as Answer } from '../../platform/compression.js';

describe('calculator answer cache', () => {
  it('keeps answers for their time, then forgets them', () => {
    const cache = new AnswerCache(1000);
    const answer = Answer.of(Buffer.from('{"1":[],"2":[],"3":[]}'));
    cache.set('k', answer, 0);
    expect(cache.get('k', 999)).toBe(answer);
    expect(cache.get('k', 1000)).toBeUndefined();
    expect(cache.get('other', 0)).toBeUndefined();
  });

  it('drops the oldest answers past its byte budget, and keeps nothing when disabled', () => {
    // an answer counts twice its JSON (a compressed copy is made for the clients that take one)
    const cache = new AnswerCache(60_000, 800);
    for (let i = 0; i < 5; i++) cache.set(`k${i}`, Answer.of(Buffer.alloc(100, 32)), 0);
    expect(cache.get('k0', 1)).toBeUndefined();
    expect(cache.get('k4', 1)).toBeDefined();
    const off = new AnswerCache(0);
    off.set('k', Answer.of(Buffer.from('x')), 0);
    expect(off.get('k', 0)).toBeUndefined();
  });

  it('forgets expired answers without waiting for a call to replace them', () => {
    const cache = new AnswerCache(1000);
    cache.set('a', Answer.of(Buffer.from('{"a":1}')), 0);
    cache.set('b', Answer.of(Buffer.from('{"b":1}')), 500);
    cache.forgetExpired(1200);
    expect(cache.get('a', 0)).toBeUndefined();
    expect(cache.get('b', 1200)).toBeDefined();
  });

  it('gzips an answer once', async () => {
    const answer = Answer.of(Buffer.from(JSON.stringify({ '1': Array(100).fill({ name: 'Пунктир' }) })));
    expect(await answer.gzipped()).toBe(await answer.gzipped());
    expect(gunzipSync(await answer.gzipped()).equals(answer.body)).toBe(true);
  });
});

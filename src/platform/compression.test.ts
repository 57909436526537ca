import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { JsonBody } from './compression.js';
import { gzipObjectArray, packObject } from './json-pieces.js';

const objects = Array.from({ length: 50 }, (_, index) => ({
  cmsId: `SITE-${index}`,
  recipient: { fullName: 'Светлана Котова', phone: '+79215556677' },
  comment: 'Позвонить за час до доставки',
}));
const plain = Buffer.from(JSON.stringify(objects.map((object, index) => ({ id: index + 1, ...object }))));

describe('JSON body weight', () => {
  it('weighs the plain bytes, and the gzip form once it is made', async () => {
    const body = JsonBody.of(plain);
    expect(body.weight).toBe(plain.length);
    const gzipped = await body.gzipped();
    expect(gunzipSync(gzipped)).toEqual(plain);
    expect(body.weight).toBe(plain.length + gzipped.length);
  });

  it('weighs an assembled gzip alone until the plain bytes are asked for', () => {
    const pieces = objects.map((object, index) => ({
      leading: `"id":${index + 1}`,
      packed: packObject(Buffer.from(JSON.stringify(object))),
    }));
    const { gzip, length } = gzipObjectArray(pieces);
    const body = JsonBody.ofGzip(gzip, length);
    expect([body.length, body.weight]).toEqual([plain.length, gzip.length]);
    expect(body.body).toEqual(plain);
    expect(body.weight).toBe(plain.length + gzip.length);
  });
});

describe('a remembered body asked with and without gzip', () => {
  it('still gives the plain bytes after its assembled gzip was replaced by a compact one', async () => {
    const pieces = objects.map((object, index) => ({
      leading: `"id":${index + 1}`,
      packed: packObject(Buffer.from(JSON.stringify(object))),
    }));
    const { gzip, length } = gzipObjectArray(pieces);
    const body = JsonBody.ofGzip(gzip, length);
    for (let asked = 0; asked < 3; asked++) expect(gunzipSync(await body.gzipped())).toEqual(plain);
    // the compaction runs on the thread pool: wait until the compact form is the one sent
    for (let waited = 0; waited < 100 && (await body.gzipped()) === gzip; waited++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await body.gzipped()).not.toBe(gzip);
    expect(body.body).toEqual(plain);
    expect(gunzipSync(await body.gzipped())).toEqual(plain);
  });
});

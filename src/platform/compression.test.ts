import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { JsonBody, takesAssembledGzip } from './compression.js';
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

describe('the encoding a body is sent in', () => {
  // past GZIP_FROM_BYTES: 200 orders
  const many = Array.from({ length: 4 }, () => objects).flat();
  const plain = Buffer.from(JSON.stringify(many.map((object, index) => ({ id: index + 1, ...object }))));
  const pieces = () =>
    many.map((object, index) => ({
      leading: `"id":${index + 1}`,
      packed: packObject(Buffer.from(JSON.stringify(object))),
    }));

  it('is Brotli for bytes made from plain JSON, gzip for an assembled gzip, and none for a small body', () => {
    const fromPlain = JsonBody.of(plain);
    const { gzip, length } = gzipObjectArray(pieces());
    const assembled = JsonBody.ofGzip(gzip, length);
    for (const [accepted, ofPlain, ofAssembled] of [
      ['gzip, deflate, br', 'br', 'gzip'],
      ['br', 'br', 'br'],
      ['gzip', 'gzip', 'gzip'],
      ['gzip;q=0.5, br;q=0.4', 'gzip', 'gzip'],
      ['br;q=0, gzip;q=0', null, null],
      ['identity', null, null],
      [undefined, null, null],
    ] as const) {
      expect(fromPlain.encodingFor(accepted), String(accepted)).toBe(ofPlain);
      expect(assembled.encodingFor(accepted), String(accepted)).toBe(ofAssembled);
      // a page of orders is unzipped where it is read for any client not sent the assembled gzip
      expect(takesAssembledGzip(accepted), String(accepted)).toBe(ofAssembled === 'gzip');
    }
    expect(takesAssembledGzip('*')).toBe(true);
    expect(JsonBody.of(Buffer.from('[]')).encodingFor('gzip, br')).toBeNull();
  });

  it('sends a small body held only as gzip gzipped to a client that takes gzip, else plain', () => {
    const small = Buffer.from(JSON.stringify({ suggestions: objects.slice(0, 3) }));
    const held = JsonBody.ofGzip(gzipSync(small), small.length);
    expect(held.encodingFor('gzip, deflate, br')).toBe('gzip');
    expect(held.encodingFor('gzip')).toBe('gzip');
    // Brotli would be made anew from the unzipped bytes: not worth it for a small body
    expect(held.encodingFor('br')).toBeNull();
    expect(held.encodingFor(undefined)).toBeNull();
    expect(held.body.equals(small)).toBe(true);
  });

  it('takes plain bytes made beside an assembled gzip as they are, and weighs both', () => {
    const { gzip, length } = gzipObjectArray(pieces());
    const unzipped = gunzipSync(gzip);
    const body = JsonBody.ofGzip(gzip, length, unzipped);
    expect(body.body).toBe(unzipped);
    expect(body.weight).toBe(gzip.length + unzipped.length);
    expect(body.encodingFor('gzip')).toBe('gzip');
  });

  it('makes the Brotli form once, weighs it, and it holds the plain bytes', async () => {
    const body = JsonBody.of(plain);
    const first = await body.encoded('br');
    expect(await body.encoded('br')).toBe(first);
    expect(brotliDecompressSync(first)).toEqual(plain);
    expect(body.weight).toBe(plain.length + first.length);
    // from an assembled gzip too (a client that takes Brotli only)
    const { gzip, length } = gzipObjectArray(pieces());
    expect(brotliDecompressSync(await JsonBody.ofGzip(gzip, length).encoded('br'))).toEqual(plain);
    // past a megabyte it is made on the thread pool, once for callers asking together
    const large = Buffer.from(JSON.stringify(Array.from({ length: 60 }, () => many)));
    expect(large.length).toBeGreaterThan(1024 * 1024);
    const largeBody = JsonBody.of(large);
    const [one, two] = await Promise.all([largeBody.encoded('br'), largeBody.encoded('br')]);
    expect(one).toBe(two);
    expect(brotliDecompressSync(one)).toEqual(large);
    // ~7 s alone (Brotli of several megabytes); beside the other test files on two cores it passed 30 now and then
  }, 90_000);
});

describe('a body made of parts', () => {
  const parts = Array.from({ length: 300 }, (_, index) =>
    Buffer.from(`${index === 0 ? '[' : ','}{"id":${index},"name":"Пункт ${index}"}${index === 299 ? ']' : ''}`),
  );
  const joined = Buffer.concat(parts);

  it('sends the very bytes of its parts joined, in every form', async () => {
    const asBrotli = JsonBody.ofParts(parts);
    expect(asBrotli.length).toBe(joined.length);
    expect(brotliDecompressSync(await asBrotli.encoded('br'))).toEqual(joined);
    expect(asBrotli.weight).toBe(joined.length + (await asBrotli.encoded('br')).length);
    // a second body joined in the same place leaves the first one's bytes alone
    const other = JsonBody.ofParts([...parts].reverse());
    expect(brotliDecompressSync(await other.encoded('br'))).toEqual(Buffer.concat([...parts].reverse()));
    expect(brotliDecompressSync(await asBrotli.encoded('br'))).toEqual(joined);
    expect(asBrotli.body).toEqual(joined);
    expect(gunzipSync(await JsonBody.ofParts(parts).gzipped())).toEqual(joined);
    expect(JsonBody.ofParts(parts).body).toEqual(joined);
  });
});

import { randomBytes } from 'node:crypto';
import { crc32, gunzipSync } from 'node:zlib';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { combineCrc, gzipObjectArray, packedLength, packObject, unpackObject } from './json-pieces.js';

const objects = [
  {
    status: 11,
    recipient: { fullName: 'Пётр Сидоров', phone: '+79990001122' },
    products: Array.from({ length: 30 }, (_, index) => ({ name: `Товар ${index}`, count: index })),
  },
  { status: 44, note: randomBytes(3000).toString('base64'), emoji: '📦' },
  { empty: {} },
  {},
].map((value) => Buffer.from(JSON.stringify(value)));

describe('packed JSON objects', () => {
  it('unpack to the same bytes, and are smaller for repetitive JSON', () => {
    for (const json of objects) {
      const packed = packObject(json);
      expect(unpackObject(packed).equals(json)).toBe(true);
      expect(packedLength(packed)).toBe(json.length);
    }
    expect(packObject(objects[0]).length).toBeLessThan(objects[0].length / 3);
  });

  it('refuses what is not an object', () => {
    expect(() => packObject(Buffer.from('[1]'))).toThrow(TypeError);
  });

  it('combines CRC-32s as one CRC over the joined bytes', () => {
    const a = randomBytes(1234);
    for (const b of [Buffer.alloc(0), Buffer.from('x'), randomBytes(70_000)])
      expect(combineCrc(crc32(a), crc32(b), b.length)).toBe(crc32(Buffer.concat([a, b])));
  });

  it('join into a gzipped JSON array that any gunzip reads back, with its CRC checked', () => {
    const items = objects.map((json, index) => ({ leading: `"id":${index + 1}`, packed: packObject(json) }));
    const { gzip, length } = gzipObjectArray(items);
    const unzipped = gunzipSync(gzip);
    expect(JSON.parse(unzipped.toString())).toEqual(
      objects.map((json, index) => ({ id: index + 1, ...JSON.parse(json.toString()) })),
    );
    expect(length).toBe(unzipped.length);
    expect(gunzipSync(gzipObjectArray([{ leading: '', packed: packObject(objects[0]) }]).gzip).toString()).toBe(
      `[${objects[0].toString()}]`,
    );
    // gzip(1) checks the CRC and the length of the trailer too
    expect(execFileSync('gzip', ['-dc'], { input: gzip }).equals(unzipped)).toBe(true);
    expect(gunzipSync(gzipObjectArray([]).gzip).toString()).toBe('[]');
  });

  it('is refused by gunzip when a piece is damaged (the CRC is real)', () => {
    const packed = packObject(objects[1]);
    const { gzip } = gzipObjectArray([{ leading: '"id":1', packed }]);
    const trailerAt = gzip.length - 8;
    gzip[trailerAt] ^= 0xff;
    expect(() => gunzipSync(gzip)).toThrow();
  });
});

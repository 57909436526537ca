/**
 * The dashboard's files under /app/assets/ through HTTP: a script or a style asked for with
 * Brotli, gzip or neither gives the same bytes decoded, with the right Content-Encoding, `Vary:
 * Accept-Encoding` and an ETag of its own per form (a 304 for it); files the build did not
 * compress (small ones, images) go as they are; a compressed form is no file to ask for. The
 * build's own output is a directory made here by scripts/precompress.mjs, as build-app.mjs does
 * after Vite (the browser suites serve the real build).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompress } from '../../../scripts/precompress.mjs';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { tilePng } from '../../../test/support/browser.js';

let t: TestApp;
let dir: string;
const files: Record<string, Buffer> = {};

/** Text shaped like a bundle: varied enough that it does not shrink to nothing. */
function bundle(lines: number): Buffer {
  return Buffer.from(
    Array.from(
      { length: lines },
      (_, index) => `export function f${index}(a){return a.map((x)=>x*${index % 97}+"${(index * 7919).toString(36)}")}`,
    ).join('\n'),
  );
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'app-assets-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(
    path.join(dir, 'index.html'),
    '<!doctype html><html lang="ru"><body><div id="root"></div></body></html>',
  );
  files['index-Ab12Cd34.js'] = bundle(4000);
  files['index-Ef56Gh78.css'] = Buffer.from(
    Array.from({ length: 2000 }, (_, index) => `.m-${index.toString(36)}{margin:${index % 13}px}`).join(''),
  );
  files['clamp-Ij90Kl12.js'] = Buffer.from('export const clamp=(v,a,b)=>Math.min(b,Math.max(a,v));');
  files['marker-icon-Mn34Op56.png'] = tilePng();
  for (const [name, bytes] of Object.entries(files)) fs.writeFileSync(path.join(dir, 'assets', name), bytes);
  await precompress(path.join(dir, 'assets'));
  t = await createTestApp({ env: { APP_DIR: dir } });
});
afterAll(async () => {
  await t?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const ask = (name: string, acceptEncoding?: string, headers: Record<string, string> = {}) =>
  t.app.inject({
    url: `/app/assets/${name}`,
    headers: { ...(acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding }), ...headers },
  });

describe("the dashboard's files, compressed once at build time", () => {
  it('writes Brotli and gzip beside text files of 1 kB or more, nothing beside small files and images', () => {
    const written = fs.readdirSync(path.join(dir, 'assets')).sort();
    expect(written).toEqual([
      'clamp-Ij90Kl12.js',
      'index-Ab12Cd34.js',
      'index-Ab12Cd34.js.br',
      'index-Ab12Cd34.js.gz',
      'index-Ef56Gh78.css',
      'index-Ef56Gh78.css.br',
      'index-Ef56Gh78.css.gz',
      'marker-icon-Mn34Op56.png',
    ]);
  });

  it('sends a script and a style as Brotli, gzip or as they are: the same bytes decoded', async () => {
    for (const [name, type] of [
      ['index-Ab12Cd34.js', /javascript/],
      ['index-Ef56Gh78.css', /text\/css/],
    ] as const) {
      const original = files[name] as Buffer;
      const br = await ask(name, 'gzip, deflate, br, zstd');
      expect(br.statusCode).toBe(200);
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers['content-type']).toMatch(type);
      expect(br.headers.vary).toMatch(/accept-encoding/i);
      expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(br.headers['x-content-type-options']).toBe('nosniff');
      expect(br.rawPayload.length).toBeLessThan(original.length / 3);
      expect(brotliDecompressSync(br.rawPayload).equals(original)).toBe(true);

      const gzip = await ask(name, 'gzip, deflate');
      expect(gzip.headers['content-encoding']).toBe('gzip');
      expect(gzip.headers['content-type']).toMatch(type);
      expect(gzip.headers.vary).toMatch(/accept-encoding/i);
      expect(gunzipSync(gzip.rawPayload).equals(original)).toBe(true);

      const plain = await ask(name);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers.vary).toMatch(/accept-encoding/i);
      expect(plain.rawPayload.equals(original)).toBe(true);

      // q-values: gzip preferred over Brotli; and Brotli refused
      expect((await ask(name, 'br;q=0.5, gzip')).headers['content-encoding']).toBe('gzip');
      expect((await ask(name, 'br;q=0, gzip;q=0.8')).headers['content-encoding']).toBe('gzip');
      expect((await ask(name, 'identity')).headers['content-encoding']).toBeUndefined();

      // each form has its own ETag, and is answered 304 by it
      const tags = [br, gzip, plain].map((answer) => answer.headers.etag as string);
      expect(new Set(tags).size).toBe(3);
      const again = await ask(name, 'gzip, deflate, br', { 'if-none-match': tags[0] as string });
      expect(again.statusCode).toBe(304);
      expect(again.headers['content-encoding']).toBe('br');
    }
  });

  it('sends files the build did not compress as they are, and no compressed form as a file of its own', async () => {
    for (const name of ['clamp-Ij90Kl12.js', 'marker-icon-Mn34Op56.png']) {
      const answer = await ask(name, 'gzip, deflate, br');
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['content-encoding']).toBeUndefined();
      expect(answer.rawPayload.equals(files[name] as Buffer)).toBe(true);
    }
    for (const name of ['index-Ab12Cd34.js.br', 'index-Ab12Cd34.js.gz']) {
      const answer = await ask(name, 'gzip, deflate, br');
      expect(answer.statusCode).toBe(404);
      expect(answer.json()).toMatchObject({ code: 'route_not_found' });
    }
  });
});

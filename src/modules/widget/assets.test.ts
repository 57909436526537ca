import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWidget } from '../../../scripts/build-widget.mjs';
import { createTestApp, type TestApp } from '../../../test/support/app.js';

let t: TestApp;
let bare: TestApp;
let dir: string;
let manifest: Awaited<ReturnType<typeof buildWidget>>;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'widget-assets-'));
  manifest = await buildWidget(dir);
  t = await createTestApp({ env: { WIDGET_DIR: dir } });
  bare = await createTestApp({ env: { WIDGET_DIR: path.join(dir, 'missing') } });
});
afterAll(async () => {
  await t.close();
  await bare.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the widget files', () => {
  it('serves widget.js briefly cached and the hashed file immutable, with the SRI hash of the manifest', async () => {
    const listed = await t.app.inject({ url: '/widget/v1/manifest.json' });
    expect(listed.json()).toEqual(manifest);
    const latest = await t.app.inject({ url: '/widget/v1/widget.js' });
    expect(latest.statusCode).toBe(200);
    expect(latest.headers['content-type']).toContain('javascript');
    expect(latest.headers['cache-control']).toBe('public, max-age=300');
    const pinned = await t.app.inject({ url: `/widget/v1/${manifest.widget.file}` });
    expect(pinned.headers['cache-control']).toContain('immutable');
    expect(pinned.headers['access-control-allow-origin']).toBe('*');
    expect(`sha384-${createHash('sha384').update(pinned.rawPayload).digest('base64')}`).toBe(manifest.widget.integrity);
    expect(pinned.rawPayload.equals(latest.rawPayload)).toBe(true);
    expect((await t.app.inject({ url: `/widget/v1/${manifest.map.file}` })).statusCode).toBe(200);
  });

  it('sends each script as Brotli, gzip or as it is by Accept-Encoding: the same bytes decoded, so the SRI hash holds', async () => {
    const sri = (bytes: Buffer) => `sha384-${createHash('sha384').update(bytes).digest('base64')}`;
    for (const [url, integrity] of [
      [`/widget/v1/${manifest.widget.file}`, manifest.widget.integrity],
      [`/widget/v1/${manifest.map.file}`, manifest.map.integrity],
      ['/widget/v1/widget.js', manifest.widget.integrity],
      ['/widget/v1/saferoute-compat.js', manifest.compat.integrity],
    ] as const) {
      const plain = await t.app.inject({ url });
      expect(plain.headers['content-encoding'], url).toBeUndefined();
      expect(plain.headers.vary).toBe('Accept-Encoding');
      expect(sri(plain.rawPayload)).toBe(integrity);
      // a browser's header over HTTPS (and Chromium's on loopback)
      const br = await t.app.inject({ url, headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } });
      expect(br.headers['content-encoding'], url).toBe('br');
      expect(br.headers.vary).toBe('Accept-Encoding');
      expect(br.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect(br.headers['access-control-allow-origin']).toBe('*');
      expect(Number(br.headers['content-length'])).toBeLessThan(plain.rawPayload.length / 2);
      expect(sri(brotliDecompressSync(br.rawPayload))).toBe(integrity);
      // WordPress's HTTP API and PHP curl without Brotli; q-values honoured
      for (const accept of ['gzip, deflate', 'br;q=0.5, gzip', '*;q=0.1, gzip', 'GZIP']) {
        const gzip = await t.app.inject({ url, headers: { 'accept-encoding': accept } });
        expect(gzip.headers['content-encoding'], accept).toBe('gzip');
        expect(sri(gunzipSync(gzip.rawPayload))).toBe(integrity);
      }
      const identity = await t.app.inject({ url, headers: { 'accept-encoding': 'identity' } });
      expect(identity.headers['content-encoding']).toBeUndefined();
      expect(identity.rawPayload.equals(plain.rawPayload)).toBe(true);
    }
    expect(fs.existsSync(path.join(dir, 'v1', `${manifest.widget.file}.br`))).toBe(true);
    // a compressed form is no file of its own to ask for
    expect((await t.app.inject({ url: `/widget/v1/${manifest.widget.file}.br` })).statusCode).toBe(404);
  });

  it('keeps the script small: the page pays only for the core, the map comes when shown', () => {
    expect(manifest.widget.gzipBytes).toBeLessThan(12_000);
    expect(manifest.map.gzipBytes).toBeLessThan(60_000);
  });

  it('answers 404 in the house body for unknown files and when the widget is not built', async () => {
    const unknown = await t.app.inject({ url: '/widget/v1/widget.000000000000.js' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'not_found' });
    expect((await t.app.inject({ url: '/widget/v1/..%2Fpackage.json' })).statusCode).toBe(404);
    const missing = await bare.app.inject({ url: '/widget/v1/widget.js' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe('widget_not_built');
  });
});

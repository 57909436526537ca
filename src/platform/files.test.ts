import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/support/app.js';
import { ConfigError, loadConfig } from '../config.js';
import { renderStickers } from '../documents/stickers.js';
import { sampleStickerOrder } from '../../test/support/document-samples.js';
import { contentDisposition } from './file-routes.js';
import { isFileName, newFileName, type StoredFile } from './files.js';

let t: TestApp;
let accountId: number;
let token: string;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'delivery-files-'));

beforeAll(async () => {
  // the local directory (the SQLite default); the database store has its tests in database-files.test.ts
  t = await createTestApp({ env: { DATA_DIR: dataDir, FILE_TTL_DAYS: '7', FILE_STORE: 'local' } });
  ({ accountId, token } = await t.newAccount('Files'));
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

function pathFromUrl(url: string): string {
  return new URL(url).pathname;
}

async function download(url: string, headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'GET', url: pathFromUrl(url), headers });
}

async function expire(name: string): Promise<void> {
  await t.runtime.database.db
    .updateTable('files')
    .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
    .where('name', '=', name)
    .execute();
}

describe('file store: happy path', () => {
  it('stores bytes under an unguessable name and serves them at PUBLIC_URL/files/<name> without a token', async () => {
    const pdf = await renderStickers([sampleStickerOrder(1)], 2);
    const stored = await t.runtime.services.files.put(accountId, {
      bytes: pdf,
      contentType: 'application/pdf',
      extension: 'pdf',
      downloadName: 'stickers.pdf',
    });
    expect(stored.url).toBe(`http://delivery.test/files/${stored.name}`);
    expect(stored.name).toMatch(/^[A-Za-z0-9_-]{22}\.pdf$/);
    expect(stored.size).toBe(pdf.length);
    expect(stored.contentType).toBe('application/pdf');
    // FILE_TTL_DAYS=7
    expect(Date.parse(stored.expiresAt) - Date.parse(stored.createdAt)).toBe(7 * 24 * 60 * 60 * 1000);
    expect(fs.existsSync(path.join(dataDir, 'files', stored.name.slice(0, 2), stored.name))).toBe(true);

    const response = await download(stored.url);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe('inline; filename="stickers.pdf"');
    expect(Number(response.headers['content-length'])).toBe(pdf.length);
    expect(response.headers['x-log-id']).toBeTruthy();
    expect(Buffer.compare(response.rawPayload, pdf)).toBe(0);

    const head = await t.app.inject({ method: 'HEAD', url: pathFromUrl(stored.url) });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toBe('application/pdf');
    expect(head.rawPayload).toHaveLength(0);

    // A token, even a wrong one, changes nothing: the link itself is the permission.
    expect((await download(stored.url, { authorization: 'Bearer nonsense' })).statusCode).toBe(200);
    expect((await download(stored.url, { authorization: `Bearer ${token}` })).statusCode).toBe(200);
  });

  it('gives every file its own name with 128 random bits', () => {
    const names = new Set(Array.from({ length: 1000 }, () => newFileName('zip')));
    expect(names.size).toBe(1000);
    for (const name of names) expect(Buffer.from(name.slice(0, 22), 'base64url')).toHaveLength(16);
  });

  it('names the download in UTF-8 when the name is not ASCII, and falls back to the stored name', async () => {
    expect(contentDisposition('Наклейки 21.11.pdf')).toBe(
      `inline; filename="________ 21.11.pdf"; filename*=UTF-8''%D0%9D%D0%B0%D0%BA%D0%BB%D0%B5%D0%B9%D0%BA%D0%B8%2021.11.pdf`,
    );
    const stored = await t.runtime.services.files.put(accountId, {
      bytes: Buffer.from('PK\u0005\u0006'),
      contentType: 'application/zip',
      extension: 'zip',
    });
    const response = await download(stored.url);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['content-disposition']).toBe(`inline; filename="${stored.name}"`);
  });
});

describe('file store: not found', () => {
  it('answers 404 with the error body for an unknown, malformed or listing name', async () => {
    for (const url of [
      '/files/AAAAAAAAAAAAAAAAAAAAAA.pdf',
      '/files/..%2F..%2Fservice.db',
      '/files/..',
      '/files/secret.key',
    ]) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
      // `/files/..` is resolved by the router before it reaches the route: still our 404 body.
      const body = response.json();
      expect(body).toEqual({
        code: expect.stringMatching(/^(not_found|route_not_found)$/),
        message: expect.any(String),
        errors: [],
        logId: expect.any(String),
      });
      if (url !== '/files/..') expect(body.message).toBe('File was not found.');
    }
    const listing = await t.app.inject({ method: 'GET', url: '/files/' });
    expect(listing.statusCode).toBe(404);
    expect(listing.json().code).toBe('route_not_found');
    expect(isFileName('../x.pdf')).toBe(false);
  });

  it('answers 404 once a file has expired, and the purge removes its bytes and its row', async () => {
    const kept = await t.runtime.services.files.put(accountId, {
      bytes: Buffer.from('kept'),
      contentType: 'text/plain',
      extension: 'txt',
    });
    const expired: StoredFile[] = [];
    for (let index = 0; index < 3; index += 1) {
      expired.push(
        await t.runtime.services.files.put(accountId, {
          bytes: Buffer.from(`old ${index}`),
          contentType: 'text/plain',
          extension: 'txt',
        }),
      );
    }
    for (const file of expired) await expire(file.name);
    for (const file of expired) expect((await download(file.url)).statusCode).toBe(404);

    expect(await t.runtime.services.files.purgeExpired()).toBe(3);
    for (const file of expired)
      expect(fs.existsSync(path.join(dataDir, 'files', file.name.slice(0, 2), file.name))).toBe(false);
    const rows = await t.runtime.database.db
      .selectFrom('files')
      .select('name')
      .where(
        'name',
        'in',
        expired.map((file) => file.name),
      )
      .execute();
    expect(rows).toEqual([]);
    expect(await t.runtime.services.files.purgeExpired()).toBe(0);
    expect((await download(kept.url)).statusCode).toBe(200);
  });

  it('answers 404 when the bytes are gone though the row is live', async () => {
    const stored = await t.runtime.services.files.put(accountId, {
      bytes: Buffer.from('x'),
      contentType: 'text/plain',
      extension: 'txt',
    });
    fs.rmSync(path.join(dataDir, 'files', stored.name.slice(0, 2), stored.name));
    expect((await download(stored.url)).statusCode).toBe(404);
  });

  it('refuses an extension that is not plain letters or digits', async () => {
    await expect(
      t.runtime.services.files.put(accountId, {
        bytes: Buffer.from('x'),
        contentType: 'text/plain',
        extension: '../pdf',
      }),
    ).rejects.toThrow(/extension/);
  });
});

describe('FILE_TTL_DAYS', () => {
  it('defaults to 30 days and refuses what is not a whole number of 1 to 3650 days', () => {
    expect(loadConfig({}).fileTtlDays).toBe(30);
    expect(loadConfig({ FILE_TTL_DAYS: '90' }).fileTtlDays).toBe(90);
    for (const bad of ['0', '-1', '1.5', 'month', '3651']) {
      expect(() => loadConfig({ FILE_TTL_DAYS: bad }), bad).toThrow(ConfigError);
      try {
        loadConfig({ FILE_TTL_DAYS: bad });
      } catch (error) {
        expect((error as ConfigError).problems.join('\n')).toContain('FILE_TTL_DAYS');
      }
    }
  });
});

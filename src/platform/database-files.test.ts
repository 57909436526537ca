/**
 * FILE_STORE=database (the default with PostgreSQL): bytes in `file_chunks`, served by every
 * process on the database. Runs on SQLite too (the same SQL), and on PostgreSQL with DATABASE_URL.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/support/app.js';
import { loadConfig } from '../config.js';
import { DatabaseFileStore, FILE_CHUNK_BYTES, FileCatalog, LocalFileStore } from './files.js';

let t: TestApp;
let accountId: number;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'delivery-dbfiles-'));

beforeAll(async () => {
  t = await createTestApp({ env: { DATA_DIR: dataDir, FILE_STORE: 'database' } });
  ({ accountId } = await t.newAccount('Files in the database'));
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const files = () => t.runtime.services.files;
const download = (name: string) => t.app.inject({ method: 'GET', url: `/files/${name}` });
const chunkCount = async (name: string) =>
  (await t.runtime.database.db.selectFrom('file_chunks').select('seq').where('name', '=', name).execute()).length;

describe('file store in the database', () => {
  it('is the default with PostgreSQL and not with SQLite; FILE_STORE chooses', () => {
    expect(files()).toBeInstanceOf(DatabaseFileStore);
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h/db' }).fileStore).toBe('database');
    expect(loadConfig({}).fileStore).toBe('local');
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h/db', FILE_STORE: 'local' }).fileStore).toBe('local');
    expect(() => loadConfig({ FILE_STORE: 's3' })).toThrow(/FILE_STORE/);
  });

  it('keeps a file of several chunks byte for byte and writes nothing to DATA_DIR', async () => {
    const bytes = randomBytes(FILE_CHUNK_BYTES * 2 + 12345);
    const stored = await files().put(accountId, {
      bytes,
      contentType: 'application/zip',
      extension: 'zip',
      downloadName: 'всё.zip',
    });
    expect(stored.size).toBe(bytes.length);
    expect(await chunkCount(stored.name)).toBe(3);
    const response = await download(stored.name);
    expect(response.statusCode).toBe(200);
    expect(Number(response.headers['content-length'])).toBe(bytes.length);
    expect(response.headers['content-disposition']).toContain("filename*=UTF-8''");
    expect(Buffer.compare(response.rawPayload, bytes)).toBe(0);
    expect(fs.existsSync(path.join(dataDir, 'files'))).toBe(false);
  });

  it('takes a streamed write, and an empty file', async () => {
    const parts = [Buffer.from('a'.repeat(700_000)), Buffer.from('b'.repeat(700_000))];
    const stored = await files().putStreamed(
      accountId,
      { contentType: 'text/plain', extension: 'txt' },
      async (out) => {
        for (const part of parts) out.write(part);
        out.end();
      },
    );
    expect(stored.size).toBe(1_400_000);
    expect(Buffer.compare((await download(stored.name)).rawPayload, Buffer.concat(parts))).toBe(0);
    const empty = await files().put(accountId, { bytes: Buffer.alloc(0), contentType: 'text/plain', extension: 'txt' });
    const response = await download(empty.name);
    expect([response.statusCode, response.rawPayload.length]).toEqual([200, 0]);
  });

  it('leaves nothing behind when the writer fails midway', async () => {
    const before = await t.runtime.database.db.selectFrom('files').select('name').execute();
    await expect(
      files().putStreamed(accountId, { contentType: 'text/plain', extension: 'txt' }, async (out) => {
        out.write(Buffer.alloc(FILE_CHUNK_BYTES + 1));
        throw new Error('the report failed');
      }),
    ).rejects.toThrow('the report failed');
    expect(await t.runtime.database.db.selectFrom('files').select('name').execute()).toHaveLength(before.length);
  });

  it('expires: 404 at once, then the purge deletes the row and its chunks', async () => {
    const stored = await files().put(accountId, {
      bytes: randomBytes(FILE_CHUNK_BYTES + 1),
      contentType: 'application/pdf',
      extension: 'pdf',
    });
    await t.runtime.database.db
      .updateTable('files')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('name', '=', stored.name)
      .execute();
    expect((await download(stored.name)).statusCode).toBe(404);
    expect(await files().purgeExpired()).toBeGreaterThanOrEqual(1);
    expect(await chunkCount(stored.name)).toBe(0);
  });

  it('serves a file written to DATA_DIR before the switch, and moves it in without anyone doing it by hand', async () => {
    const config = { publicUrl: 'http://delivery.test', ttlDays: 30, linkHours: 72 };
    const local = new LocalFileStore(new FileCatalog(t.runtime.database.db), {
      ...config,
      directory: path.join(dataDir, 'files'),
    });
    const bytes = Buffer.from('%PDF-1.7 written by FILE_STORE=local');
    const old = await local.put(accountId, { bytes, contentType: 'application/pdf', extension: 'pdf' });
    expect(Buffer.compare((await download(old.name)).rawPayload, bytes)).toBe(0);
    expect(await (files() as DatabaseFileStore).adoptLocalFiles()).toBe(1);
    expect(fs.existsSync(local.pathOf(old.name))).toBe(false);
    expect(await chunkCount(old.name)).toBe(1);
    expect(Buffer.compare((await download(old.name)).rawPayload, bytes)).toBe(0);
    expect(await (files() as DatabaseFileStore).adoptLocalFiles()).toBe(0);
  });
});

/**
 * Where the bytes of generated files live when several processes serve one PostgreSQL:
 * this process's directory (FILE_STORE=local) or the database (FILE_STORE=database,
 * 1 MiB chunks in file_chunks). Writes and reads through the stores themselves: a sticker PDF
 * of 20 thermal labels (a typical call) and a 20 MB file (a large report or ZIP); the database
 * both with PostgreSQL's compression of each chunk (EXTENDED, its default) and without
 * (EXTERNAL, what the migration sets).
 * Run: BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/file-store.ts
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { sql } from 'kysely';
import { loadConfig } from '../src/config.js';
import { startRuntime } from '../src/bootstrap.js';
import { renderStickers } from '../src/documents/stickers.js';
import { DatabaseFileStore, FileCatalog, LocalFileStore, type FileStore } from '../src/platform/files.js';
import { sampleStickerOrder } from '../test/support/document-samples.js';

const databaseUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const schema = `bench_files_${process.pid}`;
const admin = new pg.Client({ connectionString: databaseUrl });
await admin.connect();
await admin.query(`create schema ${schema}`);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-files-'));

async function readAll(store: FileStore, name: string): Promise<number> {
  const opened = await store.open(name);
  if (!opened) throw new Error(`${name} is gone`);
  let bytes = 0;
  for await (const chunk of opened.body) bytes += (chunk as Buffer).length;
  return bytes;
}

interface Row {
  store: string;
  file: string;
  writeMs: number;
  readMs: number;
}

async function measure(
  store: FileStore,
  label: string,
  file: string,
  bytes: Buffer,
  repeats: number,
  accountId: number,
): Promise<Row> {
  // a warm-up round: compiled code, pooled connections, directories made
  const warm = await store.put(accountId, { bytes, contentType: 'application/pdf', extension: 'pdf' });
  await readAll(store, warm.name);
  const names: string[] = [];
  let started = performance.now();
  for (let index = 0; index < repeats; index++)
    names.push((await store.put(accountId, { bytes, contentType: 'application/pdf', extension: 'pdf' })).name);
  const writeMs = (performance.now() - started) / repeats;
  started = performance.now();
  for (const name of names) if ((await readAll(store, name)) !== bytes.length) throw new Error('short read');
  const readMs = (performance.now() - started) / repeats;
  return { store: label, file, writeMs, readMs };
}

try {
  const config = loadConfig({
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    SIMULATION_STEP_SECONDS: '0',
  });
  const runtime = await startRuntime(config, { schema, secret: 'bench-secret-bench-secret-bench-secret-01' });
  const { accountId } = await runtime.services.accounts.createAccount({ name: 'Bench' });
  const db = runtime.database.db;
  const options = { publicUrl: 'http://bench', ttlDays: 30, linkHours: 72 };
  const local = new LocalFileStore(new FileCatalog(db), { ...options, directory: path.join(dataDir, 'files') });
  const inDatabase = new DatabaseFileStore(new FileCatalog(db), db, options, local);

  const sticker = await renderStickers(
    Array.from({ length: 20 }, (_, index) => sampleStickerOrder(index)),
    2,
  );
  const large = randomBytes(20 * 1024 * 1024);
  const files: Array<{ name: string; bytes: Buffer; repeats: number }> = [
    { name: `stickers, 20 labels (${(sticker.length / 1024).toFixed(0)} KB)`, bytes: sticker, repeats: 200 },
    { name: '20 MB', bytes: large, repeats: 10 },
  ];
  const rows: Row[] = [];
  for (const file of files) {
    rows.push(await measure(local, 'local directory', file.name, file.bytes, file.repeats, accountId));
    await sql`alter table file_chunks alter column bytes set storage external`.execute(db);
    rows.push(await measure(inDatabase, 'PostgreSQL, EXTERNAL', file.name, file.bytes, file.repeats, accountId));
    await sql`alter table file_chunks alter column bytes set storage extended`.execute(db);
    rows.push(
      await measure(inDatabase, 'PostgreSQL, EXTENDED (compressed)', file.name, file.bytes, file.repeats, accountId),
    );
  }
  process.stdout.write(
    `File stores (node ${process.version}, PostgreSQL on ${new URL(databaseUrl).host}, DATA_DIR on ${os.tmpdir()}), mean per file\n`,
  );
  process.stdout.write(
    `${'store'.padEnd(36)}${'file'.padEnd(30)}${'write ms'.padStart(10)}${'read ms'.padStart(10)}${'write MB/s'.padStart(12)}${'read MB/s'.padStart(12)}\n`,
  );
  for (const row of rows) {
    const size = files.find((file) => file.name === row.file)?.bytes.length ?? 0;
    const rate = (ms: number) => (size / 1024 / 1024 / (ms / 1000)).toFixed(0);
    process.stdout.write(
      `${row.store.padEnd(36)}${row.file.padEnd(30)}${row.writeMs.toFixed(2).padStart(10)}${row.readMs.toFixed(2).padStart(10)}${rate(row.writeMs).padStart(12)}${rate(row.readMs).padStart(12)}\n`,
    );
  }
  await runtime.database.close();
} finally {
  await admin.query(`drop schema ${schema} cascade`);
  await admin.end();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

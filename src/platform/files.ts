/**
 * Hand-written (the database store), and why. Figure: a 20-label sticker PDF (66 KB) is read
 * in 2.9–3.2 ms from PostgreSQL against 1.4–1.7 ms from a local directory, less than rendering it
 * (~20 ms), and every process then serves every file. Reproduce:
 * `BENCH_DATABASE_URL=postgres://… npx tsx bench/file-store.ts`. Measured against: local files
 * (`LocalFileStore`) and PostgreSQL large objects (no cascade, orphans); an S3 client library
 * needs a service this install does not have.
 *
 * The file store: generated documents (labels, acts, reports) are kept for a while and
 * served at `PUBLIC_URL/files/<name>`. The name carries 128 random bits, so the URL is a
 * capability: whoever holds it may download, nobody can guess or list it. It works without a
 * token for FILE_LINK_HOURS after the file is made (a plugin downloads its labels at once), then
 * only with a token of the file's account until the file expires; an account may choose
 * token-only downloads from the start (`file_settings`): labels carry buyers' names and phones.
 *
 * The `files` table says which names are live and whose they are; the bytes live either in
 * a directory under DATA_DIR (`LocalFileStore`: one process, the embedded default) or in the
 * database itself, in chunks (`DatabaseFileStore`: every process sharing a PostgreSQL serves
 * every file; FILE_STORE, docs/decisions.md "Several processes").
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { ColumnType, Kysely } from 'kysely';
import type { Instant } from './db/column-types.js';
import { flag } from './db/values.js';
import type { Tables } from './db/tables.js';

export interface FileTables {
  files: {
    name: string;
    account_id: number;
    content_type: string;
    /** File name offered to the browser (Content-Disposition); null: the stored name. */
    download_name: string | null;
    size: number;
    created_at: Instant;
    expires_at: Instant;
    /** The bytes are in `file_chunks` (DatabaseFileStore), not in a process's directory. */
    in_database: ColumnType<boolean | number, boolean | undefined, boolean>;
    /** Until when the link works without a token; null: for the file's whole life (files made before links expired). */
    public_until: Instant | null;
  };
  /** An account's choice of token-only downloads (no row: links work for FILE_LINK_HOURS). */
  file_settings: {
    account_id: number;
    token_only: ColumnType<boolean | number, boolean, boolean>;
  };
  /** A file's bytes in the database, in order of `seq` (DatabaseFileStore). */
  file_chunks: {
    name: string;
    seq: number;
    bytes: Buffer;
  };
}

/** What a renderer hands over to be kept. */
export interface NewFile {
  bytes: Buffer;
  contentType: string;
  /** Without the dot: `pdf`, `zip`, `xlsx`. */
  extension: string;
  /** A readable name for the download, e.g. `stickers-2026-11-21.pdf`. */
  downloadName?: string | null;
  /** A name chosen before (`newFileName`), when its URL was handed out before the file was written (a report made by a job). */
  name?: string;
}

export interface StoredFile {
  name: string;
  /** `PUBLIC_URL/files/<name>`: works without a token until `publicUntil`, with one until `expiresAt`. */
  url: string;
  contentType: string;
  size: number;
  createdAt: string;
  expiresAt: string;
}

export interface OpenedFile extends StoredFile {
  /** Whose file it is: after `publicUntil` only this account's tokens download it. */
  accountId: number;
  /** Until when no token is needed; null: for the file's whole life. */
  publicUntil: string | null;
  downloadName: string;
  /** The bytes; read it once. */
  body: Readable;
}

export interface FileStore {
  put(accountId: number, file: NewFile): Promise<StoredFile>;
  /** Like `put`, for files too large to hold: `write` streams the bytes into the file and resolves once it has ended. */
  putStreamed(
    accountId: number,
    file: Omit<NewFile, 'bytes'>,
    write: (out: NodeJS.WritableStream) => Promise<void>,
  ): Promise<StoredFile>;
  /** The public URL a file of this name has (or will have, once written). */
  urlOf(name: string): string;
  /** The live file of that name, or null (unknown, malformed, expired or its bytes gone). */
  open(name: string): Promise<OpenedFile | null>;
  /** Deletes files whose time is up; returns how many. */
  purgeExpired(now?: Date): Promise<number>;
  /** Whether the account chose token-only downloads. */
  tokenOnly(accountId: number): Promise<boolean>;
  setTokenOnly(accountId: number, tokenOnly: boolean): Promise<void>;
}

/** 16 random bytes in base64url: 22 characters, then the extension. */
const NAME_PATTERN = /^[A-Za-z0-9_-]{22}\.[a-z0-9]{1,10}$/;
const EXTENSION_PATTERN = /^[a-z0-9]{1,10}$/;
const PURGE_BATCH = 500;

export function newFileName(extension: string): string {
  if (!EXTENSION_PATTERN.test(extension))
    throw new Error(`file extension must be 1-10 lower-case letters or digits, got "${extension}"`);
  return `${randomBytes(16).toString('base64url')}.${extension}`;
}

export function isFileName(name: string): boolean {
  return NAME_PATTERN.test(name);
}

interface FileRow {
  name: string;
  account_id: number;
  content_type: string;
  download_name: string | null;
  size: number;
  created_at: string;
  expires_at: string;
  public_until: string | null;
  in_database?: boolean | number;
}

/** SQL of the `files` table. Looked up by name alone: the name is the capability. */
export class FileCatalog {
  constructor(private readonly db: Kysely<Tables>) {}

  async insert(row: FileRow): Promise<void> {
    const { in_database: inDatabase, ...columns } = row;
    await this.db
      .insertInto('files')
      .values({ ...columns, in_database: flag(inDatabase ?? false) })
      .execute();
  }

  async findLive(name: string, now: Date): Promise<FileRow | undefined> {
    return this.db
      .selectFrom('files')
      .selectAll()
      .where('name', '=', name)
      .where('expires_at', '>', now.toISOString())
      .executeTakeFirst();
  }

  async expiredNames(now: Date, limit: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('files')
      .select('name')
      .where('expires_at', '<=', now.toISOString())
      .orderBy('expires_at')
      .limit(limit)
      .execute();
    return rows.map((row) => row.name);
  }

  async delete(names: string[]): Promise<void> {
    if (names.length > 0) await this.db.deleteFrom('files').where('name', 'in', names).execute();
  }

  /** Whether the account chose token-only downloads. */
  async tokenOnly(accountId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('file_settings')
      .select('token_only')
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return row ? flag(row.token_only) : false;
  }

  async setTokenOnly(accountId: number, tokenOnly: boolean): Promise<void> {
    await this.db
      .insertInto('file_settings')
      .values({ account_id: accountId, token_only: tokenOnly })
      .onConflict((conflict) => conflict.column('account_id').doUpdateSet({ token_only: tokenOnly }))
      .execute();
  }

  /** Live files whose bytes are in some process's directory (FILE_STORE=local). */
  async liveInDirectories(now: Date): Promise<FileRow[]> {
    return this.db
      .selectFrom('files')
      .selectAll()
      .where('in_database', '=', false)
      .where('expires_at', '>', now.toISOString())
      .execute();
  }
}

export interface FileStoreOptions {
  /** PUBLIC_URL without a trailing slash. */
  publicUrl: string;
  ttlDays: number;
  /** Hours a new file's link works without a token (FILE_LINK_HOURS; 0: never). */
  linkHours: number;
  now?: () => Date;
}

export interface LocalFileStoreOptions extends FileStoreOptions {
  /** DATA_DIR/files */
  directory: string;
}

/** What every store does the same way: names, URLs, the catalog row of a new file. */
abstract class CatalogedFileStore implements FileStore {
  protected readonly now: () => Date;

  constructor(
    protected readonly catalog: FileCatalog,
    protected readonly options: FileStoreOptions,
  ) {
    this.now = options.now ?? (() => new Date());
  }

  abstract putStreamed(
    accountId: number,
    file: Omit<NewFile, 'bytes'>,
    write: (out: NodeJS.WritableStream) => Promise<void>,
  ): Promise<StoredFile>;
  abstract open(name: string): Promise<OpenedFile | null>;
  abstract purgeExpired(now?: Date): Promise<number>;

  urlOf(name: string): string {
    return `${this.options.publicUrl}/files/${name}`;
  }

  async put(accountId: number, file: NewFile): Promise<StoredFile> {
    return this.putStreamed(accountId, file, async (out) => {
      await new Promise<void>((resolve, reject) => {
        out.on('error', reject);
        out.end(file.bytes, () => resolve());
      });
    });
  }

  /** The name a new file gets: the reserved one (checked), else a fresh one. */
  protected nameFor(file: Omit<NewFile, 'bytes'>): string {
    if (!file.contentType) throw new Error('a stored file needs a content type');
    if (file.name !== undefined && !isFileName(file.name))
      throw new Error('a reserved file name must come from newFileName');
    return file.name ?? newFileName(file.extension);
  }

  protected async rowOf(accountId: number, name: string, file: Omit<NewFile, 'bytes'>, size: number): Promise<FileRow> {
    const created = this.now();
    const publicHours = (await this.catalog.tokenOnly(accountId)) ? 0 : this.options.linkHours;
    return {
      name,
      account_id: accountId,
      content_type: file.contentType,
      download_name: file.downloadName ?? null,
      size,
      created_at: created.toISOString(),
      expires_at: new Date(created.getTime() + this.options.ttlDays * 24 * 60 * 60 * 1000).toISOString(),
      public_until: new Date(created.getTime() + publicHours * 60 * 60 * 1000).toISOString(),
    };
  }

  /** Whether the account chose token-only downloads (its files' links never work without a token). */
  tokenOnly(accountId: number): Promise<boolean> {
    return this.catalog.tokenOnly(accountId);
  }

  setTokenOnly(accountId: number, tokenOnly: boolean): Promise<void> {
    return this.catalog.setTokenOnly(accountId, tokenOnly);
  }

  protected describe(row: FileRow): StoredFile {
    return {
      name: row.name,
      url: this.urlOf(row.name),
      contentType: row.content_type,
      size: Number(row.size),
      createdAt: row.created_at,
      expiresAt: row.expires_at,
    };
  }

  protected opened(row: FileRow, body: Readable): OpenedFile {
    return {
      ...this.describe(row),
      accountId: Number(row.account_id),
      publicUntil: row.public_until,
      downloadName: row.download_name ?? row.name,
      body,
    };
  }

  /** The live row of a well-formed name. The pattern also keeps any path syntax ("..", "/") away from the file system. */
  protected async liveRow(name: string): Promise<FileRow | null> {
    if (!isFileName(name)) return null;
    return (await this.catalog.findLive(name, this.now())) ?? null;
  }
}

/** Bytes in a local directory, two levels deep so that no directory grows huge. */
export class LocalFileStore extends CatalogedFileStore {
  constructor(
    catalog: FileCatalog,
    private readonly local: LocalFileStoreOptions,
  ) {
    super(catalog, local);
  }

  /** Where the bytes of `name` are (or would be) in this process's directory. */
  pathOf(name: string): string {
    return path.join(this.local.directory, name.slice(0, 2), name);
  }

  async putStreamed(
    accountId: number,
    file: Omit<NewFile, 'bytes'>,
    write: (out: NodeJS.WritableStream) => Promise<void>,
  ): Promise<StoredFile> {
    const name = this.nameFor(file);
    const target = this.pathOf(name);
    await fs.promises.mkdir(path.dirname(target), { recursive: true });
    // Written aside and renamed: a reader never sees half a file.
    const partial = `${target}.partial`;
    // a job writing a reserved name again after its process died leaves the half-written file behind
    if (file.name !== undefined) await fs.promises.rm(partial, { force: true });
    const out = fs.createWriteStream(partial, { flags: 'wx', mode: 0o600 });
    const closed = new Promise<void>((resolve, reject) => {
      out.on('close', resolve);
      out.on('error', reject);
    });
    try {
      await writeAll(out, closed, write);
    } catch (error) {
      await fs.promises.rm(partial, { force: true });
      throw error;
    }
    const size = (await fs.promises.stat(partial)).size;
    await fs.promises.rename(partial, target);
    const row = await this.rowOf(accountId, name, file, size);
    try {
      await this.catalog.insert(row);
    } catch (error) {
      await fs.promises.rm(target, { force: true });
      throw error;
    }
    return this.describe(row);
  }

  async open(name: string): Promise<OpenedFile | null> {
    const row = await this.liveRow(name);
    return row ? this.openRow(row) : null;
  }

  /** The bytes of a catalogued file from this directory, or null when they are not here. */
  async openRow(row: FileRow): Promise<OpenedFile | null> {
    const file = this.pathOf(row.name);
    try {
      await fs.promises.access(file, fs.constants.R_OK);
    } catch {
      return null;
    }
    return this.opened(row, fs.createReadStream(file));
  }

  async purgeExpired(now: Date = this.now()): Promise<number> {
    return purgeInBatches(this.catalog, now, (names) => this.removeBytes(names));
  }

  async removeBytes(names: string[]): Promise<void> {
    await Promise.all(names.map((name) => fs.promises.rm(this.pathOf(name), { force: true })));
  }
}

/** Runs `write` into `out` and waits until `done` (the bytes are where `out` puts them); a failure destroys `out`. */
async function writeAll(
  out: Writable,
  done: Promise<unknown>,
  write: (out: NodeJS.WritableStream) => Promise<void>,
): Promise<void> {
  // destroyed after a failing writer, `done` may reject too ("premature close"): the same failure
  done.catch(() => undefined);
  try {
    await write(out);
    if (!out.writableEnded) out.end();
    await done;
  } catch (error) {
    out.destroy();
    throw error;
  }
}

async function purgeInBatches(
  catalog: FileCatalog,
  now: Date,
  removeBytes: (names: string[]) => Promise<void>,
): Promise<number> {
  let purged = 0;
  for (;;) {
    const names = await catalog.expiredNames(now, PURGE_BATCH);
    if (names.length === 0) return purged;
    // Bytes first: a crash in between leaves a row to retry, never bytes nobody can find.
    await removeBytes(names);
    await catalog.delete(names);
    purged += names.length;
    if (names.length < PURGE_BATCH) return purged;
  }
}

/**
 * Rows of `file_chunks` are this size (the last one smaller): large enough that a 20 MB report
 * is 20 statements, small enough that a download holds one chunk in memory, and far below
 * PostgreSQL's 1 GB limit of a value.
 */
export const FILE_CHUNK_BYTES = 1024 * 1024;

/** Collects written bytes into chunks of `FILE_CHUNK_BYTES`, each handed to `store` in order. */
class ChunkWriter extends Writable {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private seq = 0;
  size = 0;

  constructor(private readonly store: (seq: number, bytes: Buffer) => Promise<void>) {
    super();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    this.size += chunk.length;
    this.flush(false).then(() => callback(), callback);
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.flush(true).then(() => callback(), callback);
  }

  private async flush(all: boolean): Promise<void> {
    while (this.pendingBytes >= FILE_CHUNK_BYTES || (all && this.pendingBytes > 0)) {
      // takes one chunk off the front; views, not copies, of a large buffer written at once
      const parts: Buffer[] = [];
      let taken = 0;
      while (taken < FILE_CHUNK_BYTES && this.pending.length > 0) {
        const head = this.pending[0];
        const wanted = FILE_CHUNK_BYTES - taken;
        if (head.length <= wanted) {
          parts.push(head);
          this.pending.shift();
        } else {
          parts.push(head.subarray(0, wanted));
          this.pending[0] = head.subarray(wanted);
        }
        taken += parts[parts.length - 1].length;
      }
      this.pendingBytes -= taken;
      await this.store(this.seq++, parts.length === 1 ? parts[0] : Buffer.concat(parts, taken));
    }
  }
}

/**
 * Bytes in the database (`file_chunks`), so that every process sharing it serves every file:
 * behind a load balancer a link made by one process downloads from any other. The row and
 * its chunks are written in one transaction (a reader never sees half a file; a process dying
 * midway leaves nothing) and deleted together (chunks cascade with their row, also when an
 * account is deleted). Files written before the switch from FILE_STORE=local are still served
 * from the directory they were written to, and moved in by `adoptLocalFiles`.
 */
export class DatabaseFileStore extends CatalogedFileStore {
  constructor(
    catalog: FileCatalog,
    private readonly db: Kysely<Tables>,
    options: FileStoreOptions,
    private readonly before: LocalFileStore,
  ) {
    super(catalog, options);
  }

  async putStreamed(
    accountId: number,
    file: Omit<NewFile, 'bytes'>,
    write: (out: NodeJS.WritableStream) => Promise<void>,
  ): Promise<StoredFile> {
    const name = this.nameFor(file);
    const row = await this.rowOf(accountId, name, file, 0);
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('files')
        .values({ ...row, in_database: true })
        .execute();
      const out = new ChunkWriter(async (seq, bytes) => {
        await trx.insertInto('file_chunks').values({ name, seq, bytes }).execute();
      });
      await writeAll(out, finished(out), write);
      row.size = out.size;
      await trx.updateTable('files').set({ size: out.size }).where('name', '=', name).execute();
    });
    return this.describe(row);
  }

  async open(name: string): Promise<OpenedFile | null> {
    const row = await this.liveRow(name);
    if (!row) return null;
    if (!flag(row.in_database ?? false)) return this.before.openRow(row);
    // bytes, not objects: the stream reads ahead one chunk, not sixteen
    return this.opened(
      row,
      Readable.from(this.chunksOf(name, Number(row.size)), { objectMode: false, highWaterMark: FILE_CHUNK_BYTES }),
    );
  }

  /** One chunk at a time: a download holds at most one chunk in memory. */
  private async *chunksOf(name: string, size: number): AsyncGenerator<Buffer> {
    let sent = 0;
    for (let seq = 0; sent < size; seq++) {
      const chunk = await this.db
        .selectFrom('file_chunks')
        .select('bytes')
        .where('name', '=', name)
        .where('seq', '=', seq)
        .executeTakeFirst();
      // purged while it was being downloaded
      if (!chunk) throw new Error(`file ${name} lost its bytes while being read`);
      sent += chunk.bytes.length;
      yield chunk.bytes;
    }
  }

  async purgeExpired(now: Date = this.now()): Promise<number> {
    // chunks go with their rows; bytes of files from before the switch are in the directory
    return purgeInBatches(this.catalog, now, (names) => this.before.removeBytes(names));
  }

  /**
   * Moves the live files this process wrote to its directory before FILE_STORE became
   * `database` into the database, so other processes serve them too; answers how many.
   */
  async adoptLocalFiles(): Promise<number> {
    let adopted = 0;
    for (const row of await this.catalog.liveInDirectories(this.now())) {
      const file = this.before.pathOf(row.name);
      if (!fs.existsSync(file)) continue;
      const bytes = await fs.promises.readFile(file);
      const moved = await this.db.transaction().execute(async (trx) => {
        const claimed = await trx
          .updateTable('files')
          .set({ in_database: true })
          .where('name', '=', row.name)
          .where('in_database', '=', false)
          .executeTakeFirst();
        if (Number(claimed.numUpdatedRows) === 0) return false;
        for (let seq = 0; seq * FILE_CHUNK_BYTES < bytes.length; seq++) {
          await trx
            .insertInto('file_chunks')
            .values({
              name: row.name,
              seq,
              bytes: bytes.subarray(seq * FILE_CHUNK_BYTES, (seq + 1) * FILE_CHUNK_BYTES),
            })
            .execute();
        }
        return true;
      });
      if (!moved) continue;
      await fs.promises.rm(file, { force: true });
      adopted++;
    }
    return adopted;
  }
}

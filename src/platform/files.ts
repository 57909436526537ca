/**
 * The file store: generated documents (labels, acts, reports) are kept for a while and
 * served at `PUBLIC_URL/files/<name>` without a token. The name carries 128 random bits,
 * so the URL is a capability: whoever holds it may download, nobody can guess or list it.
 *
 * The `files` table says which names are live and whose they are; the bytes live in a
 * directory under DATA_DIR (an S3-compatible store would implement FileStore the same way,
 * keeping the table through FileCatalog and putting the bytes in a bucket).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { Instant } from './db/column-types.js';
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
  /** `PUBLIC_URL/files/<name>`: works without a token until `expiresAt`. */
  url: string;
  contentType: string;
  size: number;
  createdAt: string;
  expiresAt: string;
}

export interface OpenedFile extends StoredFile {
  downloadName: string;
  /** The bytes; read it once. */
  body: Readable;
}

export interface FileStore {
  put(accountId: number, file: NewFile): Promise<StoredFile>;
  /** Like `put`, for files too large to hold: `write` streams the bytes into the file and resolves once it has ended. */
  putStreamed(accountId: number, file: Omit<NewFile, 'bytes'>, write: (out: NodeJS.WritableStream) => Promise<void>): Promise<StoredFile>;
  /** The public URL a file of this name has (or will have, once written). */
  urlOf(name: string): string;
  /** The live file of that name, or null (unknown, malformed, expired or its bytes gone). */
  open(name: string): Promise<OpenedFile | null>;
  /** Deletes files whose time is up; returns how many. */
  purgeExpired(now?: Date): Promise<number>;
}

/** 16 random bytes in base64url: 22 characters, then the extension. */
const NAME_PATTERN = /^[A-Za-z0-9_-]{22}\.[a-z0-9]{1,10}$/;
const EXTENSION_PATTERN = /^[a-z0-9]{1,10}$/;
const PURGE_BATCH = 500;

export function newFileName(extension: string): string {
  if (!EXTENSION_PATTERN.test(extension)) throw new Error(`file extension must be 1-10 lower-case letters or digits, got "${extension}"`);
  return `${randomBytes(16).toString('base64url')}.${extension}`;
}

export function isFileName(name: string): boolean {
  return NAME_PATTERN.test(name);
}

type FileRow = FileTables['files'];

/** SQL of the `files` table. Looked up by name alone: the name is the capability. */
export class FileCatalog {
  constructor(private readonly db: Kysely<Tables>) {}

  async insert(row: FileRow): Promise<void> {
    await this.db.insertInto('files').values(row).execute();
  }

  async findLive(name: string, now: Date): Promise<FileRow | undefined> {
    return this.db.selectFrom('files').selectAll().where('name', '=', name).where('expires_at', '>', now.toISOString()).executeTakeFirst();
  }

  async expiredNames(now: Date, limit: number): Promise<string[]> {
    const rows = await this.db.selectFrom('files').select('name').where('expires_at', '<=', now.toISOString()).orderBy('expires_at').limit(limit).execute();
    return rows.map((row) => row.name);
  }

  async delete(names: string[]): Promise<void> {
    if (names.length > 0) await this.db.deleteFrom('files').where('name', 'in', names).execute();
  }
}

export interface LocalFileStoreOptions {
  /** DATA_DIR/files */
  directory: string;
  /** PUBLIC_URL without a trailing slash. */
  publicUrl: string;
  ttlDays: number;
  now?: () => Date;
}

/** Bytes in a local directory, two levels deep so that no directory grows huge. */
export class LocalFileStore implements FileStore {
  private readonly now: () => Date;

  constructor(
    private readonly catalog: FileCatalog,
    private readonly options: LocalFileStoreOptions,
  ) {
    this.now = options.now ?? (() => new Date());
  }

  urlOf(name: string): string {
    return `${this.options.publicUrl}/files/${name}`;
  }

  private pathOf(name: string): string {
    return path.join(this.options.directory, name.slice(0, 2), name);
  }

  private describe(row: FileRow): StoredFile {
    return {
      name: row.name,
      url: this.urlOf(row.name),
      contentType: row.content_type,
      size: Number(row.size),
      createdAt: row.created_at,
      expiresAt: row.expires_at,
    };
  }

  async put(accountId: number, file: NewFile): Promise<StoredFile> {
    return this.putStreamed(accountId, file, async (out) => {
      await new Promise<void>((resolve, reject) => {
        out.on('error', reject);
        out.end(file.bytes, () => resolve());
      });
    });
  }

  async putStreamed(accountId: number, file: Omit<NewFile, 'bytes'>, write: (out: NodeJS.WritableStream) => Promise<void>): Promise<StoredFile> {
    if (!file.contentType) throw new Error('a stored file needs a content type');
    if (file.name !== undefined && !isFileName(file.name)) throw new Error('a reserved file name must come from newFileName');
    const name = file.name ?? newFileName(file.extension);
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
      await write(out);
      if (!out.writableEnded) out.end();
      await closed;
    } catch (error) {
      out.destroy();
      await fs.promises.rm(partial, { force: true });
      throw error;
    }
    const size = (await fs.promises.stat(partial)).size;
    await fs.promises.rename(partial, target);
    const created = this.now();
    const row: FileRow = {
      name,
      account_id: accountId,
      content_type: file.contentType,
      download_name: file.downloadName ?? null,
      size,
      created_at: created.toISOString(),
      expires_at: new Date(created.getTime() + this.options.ttlDays * 24 * 60 * 60 * 1000).toISOString(),
    };
    try {
      await this.catalog.insert(row);
    } catch (error) {
      await fs.promises.rm(target, { force: true });
      throw error;
    }
    return this.describe(row);
  }

  async open(name: string): Promise<OpenedFile | null> {
    // The pattern also keeps any path syntax ("..", "/") away from the file system.
    if (!isFileName(name)) return null;
    const row = await this.catalog.findLive(name, this.now());
    if (!row) return null;
    const file = this.pathOf(name);
    try {
      await fs.promises.access(file, fs.constants.R_OK);
    } catch {
      return null;
    }
    return { ...this.describe(row), downloadName: row.download_name ?? row.name, body: fs.createReadStream(file) };
  }

  async purgeExpired(now: Date = this.now()): Promise<number> {
    let purged = 0;
    for (;;) {
      const names = await this.catalog.expiredNames(now, PURGE_BATCH);
      if (names.length === 0) return purged;
      // Bytes first: a crash in between leaves a row to retry, never bytes nobody can find.
      await Promise.all(names.map((name) => fs.promises.rm(this.pathOf(name), { force: true })));
      await this.catalog.delete(names);
      purged += names.length;
      if (names.length < PURGE_BATCH) return purged;
    }
  }
}

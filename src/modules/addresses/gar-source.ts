/**
 * Where the register's files come from: its published archive (`gar_xml.zip`, tens of GB, read
 * with yauzl from its central directory, each entry inflated as a stream when its turn comes, in
 * the order the import wants rather than the archive's) or a folder it was unpacked into.
 */
import fs from 'node:fs';
import path from 'node:path';
import yauzl from 'yauzl';
import { garFileKind, type GarFileKind } from './gar-format.js';

export interface GarEntry {
  /** As the archive or the folder names it: "77/AS_HOUSES_20240101_….XML". */
  path: string;
  kind: GarFileKind;
  /** The region's folder (01 … 99), null for the type lists at the root. */
  region: number | null;
  bytes: number;
}

export interface GarSource {
  entries: GarEntry[];
  /** The register's version date (version.txt at the root), yyyy-mm-dd. */
  version: string | null;
  open(entry: GarEntry): Promise<AsyncIterable<Uint8Array>>;
  close(): Promise<void>;
}

/** A folder of the register (as unpacked), or its zip archive. */
export async function openGarSource(location: string): Promise<GarSource> {
  const stat = await fs.promises.stat(location);
  return stat.isDirectory() ? openFolder(location) : openZip(location);
}

function entryOf(relativePath: string, bytes: number): GarEntry | null {
  const parts = relativePath.split(/[\\/]/).filter((part) => part !== '');
  const kind = garFileKind(parts[parts.length - 1] ?? '');
  if (!kind) return null;
  const folder = parts.length >= 2 ? parts[parts.length - 2] : '';
  const region = /^\d{1,2}$/.test(folder) ? Number(folder) : null;
  return { path: parts.join('/'), kind, region, bytes };
}

function versionOf(text: string): string | null {
  const match = /(\d{4})[.\-_]?(\d{2})[.\-_]?(\d{2})/.exec(text);
  return match ? `${match[1]}-${match[2]}-${match[3]}` : null;
}

async function openFolder(root: string): Promise<GarSource> {
  const entries: GarEntry[] = [];
  let version: string | null = null;
  for (const dirent of await fs.promises.readdir(root, { withFileTypes: true, recursive: true })) {
    if (!dirent.isFile()) continue;
    const full = path.join(dirent.parentPath, dirent.name);
    if (dirent.name.toLowerCase() === 'version.txt' && dirent.parentPath === root)
      version = versionOf(await fs.promises.readFile(full, 'utf8'));
    const entry = entryOf(path.relative(root, full), (await fs.promises.stat(full)).size);
    if (entry) entries.push(entry);
  }
  return {
    entries,
    version,
    open: async (entry) => fs.createReadStream(path.join(root, entry.path), { highWaterMark: 64 * 1024 }),
    close: async () => undefined,
  };
}

async function openZip(file: string): Promise<GarSource> {
  const zip = await yauzl.openPromise(file, { lazyEntries: true, autoClose: false });
  const entries: GarEntry[] = [];
  const zipEntries = new Map<string, yauzl.Entry>();
  let version: string | null = null;
  try {
    for await (const zipEntry of zip.eachEntry()) {
      if (zipEntry.fileName.endsWith('/')) continue;
      if (zipEntry.fileName.toLowerCase() === 'version.txt') {
        const chunks: Buffer[] = [];
        for await (const chunk of await zip.openReadStreamPromise(zipEntry)) chunks.push(chunk as Buffer);
        version = versionOf(Buffer.concat(chunks).toString('utf8'));
        continue;
      }
      const entry = entryOf(zipEntry.fileName, zipEntry.uncompressedSize);
      if (!entry) continue;
      entries.push(entry);
      zipEntries.set(entry.path, zipEntry);
    }
  } catch (error) {
    zip.close();
    throw error;
  }
  return {
    entries,
    version,
    open: async (entry) => {
      const zipEntry = zipEntries.get(entry.path);
      if (!zipEntry) throw new Error(`${entry.path} is not in ${file}`);
      return zip.openReadStreamPromise(zipEntry);
    },
    close: async () => zip.close(),
  };
}

/**
 * Opening produced documents the way a person's tools would: poppler's pdfinfo / pdftotext /
 * pdftoppm and zbar's zbarimg (`apt-get install -y poppler-utils zbar-tools`; .ci/run
 * installs them). Tests that need a missing tool are skipped with the reason in their name.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';

function installed(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

const missing = ['pdfinfo', 'pdftotext', 'pdftoppm', 'zbarimg'].filter((command) => !installed(command));

/** '' when every tool is there, else a reason to put in the names of the tests that skip. */
export const pdfToolsMissing =
  missing.length === 0
    ? ''
    : ` [SKIPPED: ${missing.join(', ')} not installed; apt-get install -y poppler-utils zbar-tools]`;
if (pdfToolsMissing) process.stderr.write(`pdf-tools:${pdfToolsMissing}\n`);

function withFile<T>(bytes: Buffer, work: (file: string, dir: string) => T): T {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pdf-check-'));
  const file = path.join(dir, 'document.pdf');
  fs.writeFileSync(file, bytes);
  try {
    return work(file, dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export interface PdfInfo {
  pages: number;
  /** Page sizes in points, one per page, [width, height]. */
  sizes: Array<[number, number]>;
}

export function pdfInfo(bytes: Buffer): PdfInfo {
  return withFile(bytes, (file) => {
    const summary = execFileSync('pdfinfo', [file], { encoding: 'utf8' });
    const pages = Number(/^Pages:\s+(\d+)/m.exec(summary)?.[1]);
    const detail = execFileSync('pdfinfo', ['-f', '1', '-l', String(pages), file], { encoding: 'utf8' });
    const sizes = [...detail.matchAll(/^Page\s+\d+ size:\s+([\d.]+) x ([\d.]+) pts/gm)].map(
      (match): [number, number] => [Number(match[1]), Number(match[2])],
    );
    return { pages, sizes };
  });
}

/**
 * The text of the document with every run of white space (line and page breaks, no-break
 * spaces) made one space, so that a value wrapped inside a label or a table cell still reads
 * as one phrase.
 */
export function pdfText(bytes: Buffer): string {
  return withFile(bytes, (file) =>
    execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 }).replace(
      /[\s\u00a0\u202f]+/g,
      ' ',
    ),
  );
}

/**
 * The barcodes zbarimg reads on each page rendered at `dpi`: by default 203 dpi, what a
 * thermal label printer makes of the page (and cheaper to scan than 300 dpi).
 * zbar reports identical symbols on one page once.
 */
export function pdfBarcodes(bytes: Buffer, dpi = 203): string[][] {
  return withFile(bytes, (file, dir) => {
    execFileSync('pdftoppm', ['-r', String(dpi), '-gray', '-png', file, path.join(dir, 'page')]);
    const pages = fs
      .readdirSync(dir)
      .filter((name) => name.startsWith('page') && name.endsWith('.png'))
      .sort((a, b) => Number(/(\d+)\.png$/.exec(a)?.[1]) - Number(/(\d+)\.png$/.exec(b)?.[1]));
    return pages.map((page) => {
      const result = spawnSync('zbarimg', ['-q', '--raw', path.join(dir, page)], { encoding: 'utf8' });
      // zbarimg exits 4 when a page has no barcode at all.
      return result.stdout.split('\n').filter((line) => line !== '');
    });
  });
}

/** The entries of a ZIP (stored or deflated), read from its central directory. */
export function readZip(bytes: Buffer): Map<string, Buffer> {
  const end = bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) throw new Error('not a ZIP: no end of central directory');
  const count = bytes.readUInt16LE(end + 10);
  let offset = bytes.readUInt32LE(end + 16);
  const entries = new Map<string, Buffer>();
  for (let index = 0; index < count; index += 1) {
    if (bytes.readUInt32LE(offset) !== 0x02014b50) throw new Error('broken central directory');
    const method = bytes.readUInt16LE(offset + 10);
    const compressedSize = bytes.readUInt32LE(offset + 20);
    const nameLength = bytes.readUInt16LE(offset + 28);
    const extraLength = bytes.readUInt16LE(offset + 30);
    const commentLength = bytes.readUInt16LE(offset + 32);
    const localOffset = bytes.readUInt32LE(offset + 42);
    const name = bytes.subarray(offset + 46, offset + 46 + nameLength).toString('utf8');
    const dataStart = localOffset + 30 + bytes.readUInt16LE(localOffset + 26) + bytes.readUInt16LE(localOffset + 28);
    const data = bytes.subarray(dataStart, dataStart + compressedSize);
    entries.set(name, method === 0 ? Buffer.from(data) : zlib.inflateRawSync(data));
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

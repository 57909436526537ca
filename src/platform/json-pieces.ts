/**
 * Hand-written, and why. Figure: a gzip page of 50 orders assembled in ~0.1 ms instead of
 * compressed in 1–2 ms, and 200k orders take 511 MB instead of 920 MB (migration 0009).
 * Reproduce: `npx tsx bench/orders.ts`. Measured against: node:zlib's gzip of the whole page (no
 * library assembles gzip members from pre-deflated pieces).
 *
 * JSON objects kept deflated one by one, so that a page of them goes out gzipped with no
 * compression when it is read.
 *
 * Each object is packed when it is written: what follows its opening brace is deflated on
 * its own and ended with a sync flush (byte-aligned, no final block, no reference to
 * anything before it), and kept with its CRC-32 and length. Such pieces can be laid one
 * after another inside a single deflate stream, between stored blocks that carry the few
 * bytes of our own (`[`, `,`, `{"id":15,`, `]`); the gzip trailer's CRC is combined from the
 * pieces' CRCs. A page of 50 orders is then assembled in about a tenth of a millisecond
 * instead of compressed in one to two; it is bigger than a page compressed as a whole (each
 * piece learns its keys anew), which the read cache makes up for on pages asked again
 * (platform/compression.ts).
 */
import { constants, crc32, deflateRawSync, inflateRawSync } from 'node:zlib';

/** CRC-32 (4 bytes) and length (4 bytes) of the deflated bytes, both little-endian, then the piece. */
const HEADER_BYTES = 8;
const OPEN_BRACE = 0x7b;
/** A fast level: a piece is made on every write of its object, and levels above 1 gain ~5% here. */
const LEVEL = 1;

/** Packs the UTF-8 bytes of a JSON object (`{...}`). */
export function packObject(json: Buffer): Buffer {
  if (json[0] !== OPEN_BRACE) throw new TypeError('only a JSON object can be packed');
  const members = json.subarray(1);
  const piece = deflateRawSync(members, { level: LEVEL, finishFlush: constants.Z_SYNC_FLUSH });
  const packed = Buffer.allocUnsafe(HEADER_BYTES + piece.length);
  packed.writeUInt32LE(crc32(members), 0);
  packed.writeUInt32LE(members.length, 4);
  piece.copy(packed, HEADER_BYTES);
  return packed;
}

/** The JSON object's bytes back. */
export function unpackObject(packed: Buffer): Buffer {
  const members = inflateRawSync(packed.subarray(HEADER_BYTES), { finishFlush: constants.Z_SYNC_FLUSH });
  return Buffer.concat([Buffer.of(OPEN_BRACE), members], members.length + 1);
}

/** The length of the object's bytes, without unpacking it. */
export function packedLength(packed: Buffer): number {
  return packed.readUInt32LE(4) + 1;
}

// ---------------------------------------------------------------- CRC-32 of joined pieces

const POLYNOMIAL = 0xedb88320;

/** a * b modulo the CRC-32 polynomial (zlib's multmodp). */
function multiplyModP(a: number, b: number): number {
  let mask = 0x80000000;
  let product = 0;
  let factor = b;
  for (;;) {
    if (a & mask) {
      product ^= factor;
      if ((a & (mask - 1)) === 0) break;
    }
    mask >>>= 1;
    factor = factor & 1 ? (factor >>> 1) ^ POLYNOMIAL : factor >>> 1;
  }
  return product >>> 0;
}

/** x^(2^n) modulo the polynomial, for n = 0..31. */
const POWERS: number[] = [0x40000000];
for (let index = 1; index < 32; index++) POWERS.push(multiplyModP(POWERS[index - 1], POWERS[index - 1]));

/** x^(8 * bytes) modulo the polynomial: what shifting a CRC over `bytes` zero bytes multiplies it by. */
function shiftFor(bytes: number): number {
  let power = 0x80000000;
  let remaining = bytes;
  let index = 3;
  while (remaining > 0) {
    if (remaining % 2 === 1) power = multiplyModP(POWERS[index & 31], power);
    remaining = Math.floor(remaining / 2);
    index++;
  }
  return power;
}

/**
 * shiftFor of the lengths met lately: a page's pieces are a few hundred bytes to a few kB long,
 * so nearly every length has been met before, and the ~11 multiplications of shiftFor become a
 * lookup (a page's 50 combines took ~30 of its ~60 µs of assembly; `npx tsx bench/page-assembly.ts`).
 * Bounded: cleared when full.
 */
const shiftsByLength = new Map<number, number>();
const MAX_REMEMBERED_SHIFTS = 8192;

function rememberedShiftFor(bytes: number): number {
  let shift = shiftsByLength.get(bytes);
  if (shift === undefined) {
    shift = shiftFor(bytes);
    if (shiftsByLength.size >= MAX_REMEMBERED_SHIFTS) shiftsByLength.clear();
    shiftsByLength.set(bytes, shift);
  }
  return shift;
}

/** The CRC-32 of A followed by B, from the CRC of A, the CRC of B and B's length (zlib's crc32_combine). */
export function combineCrc(crcA: number, crcB: number, lengthB: number): number {
  return (multiplyModP(rememberedShiftFor(lengthB), crcA) ^ crcB) >>> 0;
}

// ---------------------------------------------------------------- gzip of an array

/** gzip header: deflate, no name or time, unknown OS. */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
const MAX_STORED_BLOCK = 0xffff;

/**
 * Builds one gzip member out of bytes of our own (stored blocks) and packed objects,
 * byte-aligned throughout: every piece ends with a sync flush.
 */
class GzipAssembly {
  private readonly parts: Buffer[] = [GZIP_HEADER];
  private crc = 0;
  private size = 0;
  private bytes = GZIP_HEADER.length;

  /** Our own bytes, as a stored block (the last one marked final). */
  text(value: string, final = false): void {
    // the block's 5-byte header and its bytes in one buffer: one allocation a block, not two
    const length = Buffer.byteLength(value);
    if (length > MAX_STORED_BLOCK) throw new RangeError('text too long for one stored block');
    const block = Buffer.allocUnsafe(5 + length);
    block[0] = final ? 1 : 0;
    block.writeUInt16LE(length, 1);
    block.writeUInt16LE(~length & 0xffff, 3);
    block.write(value, 5);
    this.push(block);
    this.crc = crc32(block.subarray(5), this.crc);
    this.size += length;
  }

  /** The members of a packed object (what follows its opening brace). */
  members(packed: Buffer): void {
    const length = packed.readUInt32LE(4);
    this.push(packed.subarray(HEADER_BYTES));
    this.crc = combineCrc(this.crc, packed.readUInt32LE(0), length);
    this.size += length;
  }

  finish(): { gzip: Buffer; length: number } {
    const trailer = Buffer.allocUnsafe(8);
    trailer.writeUInt32LE(this.crc, 0);
    trailer.writeUInt32LE(this.size % 0x100000000, 4);
    this.push(trailer);
    return { gzip: Buffer.concat(this.parts, this.bytes), length: this.size };
  }

  private push(part: Buffer): void {
    this.parts.push(part);
    this.bytes += part.length;
  }
}

/**
 * A JSON array of packed objects, gzipped: each object gets `leading`, members of its own
 * (`"id":15`), in front of its packed ones. `length` is the size of the JSON once unzipped.
 */
export function gzipObjectArray(items: ReadonlyArray<{ leading: string; packed: Buffer }>): {
  gzip: Buffer;
  length: number;
} {
  const assembly = new GzipAssembly();
  items.forEach((item, index) => {
    // the packed members are `}` alone for an empty object: no comma after the leading ones then
    const comma = item.leading !== '' && packedLength(item.packed) > 2 ? ',' : '';
    assembly.text(`${index === 0 ? '[' : ','}{${item.leading}${comma}`);
    assembly.members(item.packed);
  });
  assembly.text(items.length === 0 ? '[]' : ']', true);
  return assembly.finish();
}

/**
 * Rows of packed documents with their ids (kept outside the document) as a gzipped JSON array,
 * each object led by its `"id"`: a page of a list. The event loop and the page reader's thread
 * (db/sqlite-reader.ts) both assemble pages with it.
 */
export function gzipIdentifiedObjects(rows: ReadonlyArray<{ id: number; packed: Buffer }>): {
  gzip: Buffer;
  length: number;
} {
  return gzipObjectArray(rows.map((row) => ({ leading: `"id":${row.id}`, packed: row.packed })));
}

/**
 * Hand-written (a few lines over node:zlib), and why. Figure: a page of 50 orders goes from
 * ~190 kB to 10–30 kB, and a remembered page or points answer is gzipped once, not per request
 * (a page assembled from stored pieces in ~0.1 ms instead of gzipped in 1–2 ms, json-pieces.ts).
 * Reproduce: `npx tsx bench/orders.ts`, `npx tsx bench/widget.ts`. Measured against: gzip per
 * request with node:zlib, what @fastify/compress does on every send.
 *
 * Large JSON answers (a big city's pickup points, a page of 50 orders) go compressed to clients
 * that accept it: PHP curl with CURLOPT_ENCODING, WordPress's HTTP API and browsers ask for it,
 * and those answers shrink about tenfold. Bytes made from the plain JSON go as Brotli to a
 * client that takes it (quality 1: a fresh Moscow calculator answer of 385 kB in 0.32 CPU-ms
 * and 22.6 kB, against gzip level 1's 0.68–0.73 ms and 28.8 kB, `npx tsx
 * bench/calculator-compute.ts`); a gzip assembled from stored pieces goes as it is.
 */
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, gunzip, gunzipSync, gzip } from 'node:zlib';
import negotiate from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Answers from this size on are worth compressing; below it the headers weigh as much. */
export const GZIP_FROM_BYTES = 16 * 1024;

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);
const brotliAsync = promisify(brotliCompress);
/**
 * Up to this size Brotli runs on the event loop: a 385 kB answer costs it 0.32 ms there, and
 * 0.2 ms of the loop's time plus 0.35 ms of the pool's when sent to the pool (node's stream
 * round trips). Measured end to end (`SCENARIO=varied npx tsx bench/calculator.ts`): on the
 * loop 868–890 answers/s at 1.51–1.53 CPU-ms, on the pool 761–768 at 2.13.
 */
const BROTLI_ON_LOOP_UP_TO = 1024 * 1024;
const BROTLI_QUALITY_1 = {
  [constants.BROTLI_PARAM_QUALITY]: 1,
  [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
};

/**
 * Where a body held as parts is joined for a compression on the event loop, reused: a fresh
 * 385 kB buffer per calculator answer cost ~0.3 ms more than the join itself (allocating and
 * collecting it), measured with the answer joined and compressed in one process.
 */
let joinArea: Buffer | null = null;

function joinedForNow(parts: readonly Buffer[], length: number): Buffer {
  if (joinArea === null || joinArea.length < length) joinArea = Buffer.allocUnsafeSlow(Math.max(length, 512 * 1024));
  let offset = 0;
  for (const part of parts) {
    joinArea.set(part, offset);
    offset += part.length;
  }
  return joinArea.subarray(0, length);
}

/** The compressed forms a large answer is sent in. */
export type ContentEncoding = 'br' | 'gzip';
/** Made from plain bytes, Brotli is the smaller and the cheaper to make; an assembled gzip costs nothing. */
const FROM_PLAIN: ContentEncoding[] = ['br', 'gzip'];
const FROM_ASSEMBLED: ContentEncoding[] = ['gzip', 'br'];

/**
 * JSON already encoded as UTF-8, and its gzip and Brotli forms. Made from the plain bytes,
 * from parts of them (joined only when the plain bytes or gzip are asked for), or from a gzip
 * assembled out of pre-compressed pieces (platform/json-pieces.ts: no compression when read;
 * the plain bytes are unzipped only for a client that does not take gzip). Each form is made
 * once, on first demand.
 */
export class JsonBody {
  private plain: Buffer | null;
  /** The plain bytes as parts not yet joined: a client that takes Brotli never needs them joined. */
  private parts: readonly Buffer[] | null = null;
  private compressed: Promise<Buffer> | null = null;
  /** `compressed` once it is made: the plain bytes can be unzipped from it when only it is held. */
  private compressedBytes: Buffer | null = null;
  /** The assembled gzip, while no better one is made. */
  private assembled: Buffer | null = null;
  private brotli: Promise<Buffer> | null = null;
  private brotliBytes: Buffer | null = null;
  private gzipRequests = 0;

  /** `length`: the size of the plain bytes. */
  private constructor(
    plain: Buffer | null,
    assembled: Buffer | null,
    readonly length: number,
  ) {
    this.plain = plain;
    this.assembled = assembled;
  }

  static of(plain: Buffer): JsonBody {
    return new JsonBody(plain, null, plain.length);
  }

  /** `plain`: the same JSON unzipped, when it was made beside the gzip (the page reader's thread). */
  static ofGzip(assembled: Buffer, length: number, plain: Buffer | null = null): JsonBody {
    return new JsonBody(plain, assembled, length);
  }

  /** Plain bytes made of these parts, in order (the parts are not changed afterwards). */
  static ofParts(parts: readonly Buffer[]): JsonBody {
    let length = 0;
    for (const part of parts) length += part.length;
    const body = new JsonBody(null, null, length);
    body.parts = parts;
    return body;
  }

  /** The plain bytes. */
  get body(): Buffer {
    if (this.plain === null && this.parts !== null) {
      this.plain = Buffer.concat(this.parts, this.length);
      this.parts = null;
    }
    // an assembled gzip may have been replaced by a compact one: unzip whichever is held
    this.plain ??= gunzipSync((this.assembled ?? this.compressedBytes) as Buffer);
    return this.plain;
  }

  /** The bytes it holds now: the plain bytes once made (or their parts), and each compressed form once made. */
  get weight(): number {
    return (
      (this.plain?.length ?? (this.parts ? this.length : 0)) +
      (this.assembled?.length ?? this.compressedBytes?.length ?? 0) +
      (this.brotliBytes?.length ?? 0)
    );
  }

  /** The encoding to send to a client with this Accept-Encoding, or null for the plain bytes. */
  encodingFor(acceptEncoding: string | undefined): ContentEncoding | null {
    if (!acceptEncoding) return null;
    // a small body is not worth compressing, but a gzip already held costs nothing to send and is smaller
    if (this.length < GZIP_FROM_BYTES)
      return this.assembled !== null && takesAssembledGzip(acceptEncoding) ? 'gzip' : null;
    return negotiate(acceptEncoding, this.assembled === null ? FROM_PLAIN : FROM_ASSEMBLED);
  }

  /** The bytes in one of the compressed forms. */
  encoded(encoding: ContentEncoding): Buffer | Promise<Buffer> {
    return encoding === 'gzip' ? this.gzipped() : this.brotlied();
  }

  /**
   * The Brotli form, made once at quality 1 (what level 1 is to gzip: most of the gain for
   * little time), told it is text of this size: on the event loop, or on the thread pool
   * when it is large.
   */
  brotlied(): Buffer | Promise<Buffer> {
    if (this.brotliBytes) return this.brotliBytes;
    const options = { params: { ...BROTLI_QUALITY_1, [constants.BROTLI_PARAM_SIZE_HINT]: this.length } };
    if (this.length <= BROTLI_ON_LOOP_UP_TO) {
      const plain = this.plain ?? (this.parts ? joinedForNow(this.parts, this.length) : this.body);
      this.brotliBytes = brotliCompressSync(plain, options);
      return this.brotliBytes;
    }
    this.brotli ??= brotliAsync(this.body, options).then((compressed) => {
      this.brotliBytes = compressed;
      return compressed;
    });
    return this.brotli;
  }

  /**
   * The gzip form. From plain bytes: compressed on the thread pool (a page of orders is 1-2 ms
   * of CPU), so the event loop goes on with other requests meanwhile; level 1 gives most of
   * the gain for a fraction of the time. An assembled gzip is sent as it is; when it is asked
   * for again (a remembered page), a smaller one, compressed as a whole, is made in the
   * background and sent from then on.
   */
  gzipped(): Buffer | Promise<Buffer> {
    if (this.assembled === null) {
      this.compressed ??= gzipAsync(this.body, { level: 1 }).then((gzipped) => {
        this.compressedBytes = gzipped;
        return gzipped;
      });
      return this.compressed;
    }
    if (++this.gzipRequests === 2) this.compactInBackground(this.assembled);
    return this.assembled;
  }

  private compactInBackground(assembled: Buffer): void {
    const plain = this.plain ? Promise.resolve(this.plain) : gunzipAsync(assembled);
    plain
      .then((bytes) => gzipAsync(bytes, { level: 1 }))
      .then((compact) => {
        if (compact.length < assembled.length) {
          this.compressed = Promise.resolve(compact);
          this.compressedBytes = compact;
          this.assembled = null;
        }
      })
      // the assembled gzip stays: it is as correct, only larger
      .catch(() => undefined);
  }
}

/**
 * Whether a client with this Accept-Encoding is sent an assembled gzip as it is. One that is
 * not needs the plain bytes (sent as they are, or compressed as Brotli).
 */
export function takesAssembledGzip(acceptEncoding: string | undefined): boolean {
  return acceptEncoding !== undefined && negotiate(acceptEncoding, FROM_ASSEMBLED) === 'gzip';
}

/** Sends the JSON bytes, compressed when they are large and the client accepts it. */
export async function sendJsonBody(
  request: FastifyRequest,
  reply: FastifyReply,
  json: JsonBody,
): Promise<FastifyReply> {
  // added to what is there: a route whose CORS answers by origin has said `Vary: Origin` already
  const vary = reply.getHeader('vary');
  const varies =
    vary === undefined
      ? []
      : String(vary)
          .split(',')
          .map((name) => name.trim());
  if (!varies.some((name) => name.toLowerCase() === 'accept-encoding')) varies.push('Accept-Encoding');
  reply.type('application/json; charset=utf-8').header('vary', varies.filter(Boolean).join(', '));
  const encoding = json.encodingFor(request.headers['accept-encoding']);
  if (encoding) return reply.header('content-encoding', encoding).send(await json.encoded(encoding));
  return reply.send(json.body);
}

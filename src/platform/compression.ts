/**
 * Hand-written (a few lines over node:zlib), and why. Figure: a page of 50 orders goes from
 * ~190 kB to 10–30 kB, and a remembered page or points answer is gzipped once, not per request
 * (a page assembled from stored pieces in ~0.1 ms instead of gzipped in 1–2 ms, json-pieces.ts).
 * Reproduce: `npx tsx bench/orders.ts`, `npx tsx bench/widget.ts`. Measured against: gzip per
 * request with node:zlib, what @fastify/compress does on every send.
 *
 * Large JSON answers (a big city's pickup points, a page of 50 orders) go gzipped to clients
 * that accept it: PHP curl with CURLOPT_ENCODING, WordPress's HTTP API and browsers ask for it,
 * and those answers shrink about tenfold.
 */
import { promisify } from 'node:util';
import { gunzip, gunzipSync, gzip } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Answers from this size on are worth compressing; below it the headers weigh as much. */
export const GZIP_FROM_BYTES = 16 * 1024;

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/**
 * JSON already encoded as UTF-8, and its gzip form. Made either from the plain bytes (gzipped
 * once, on first demand) or from a gzip assembled out of pre-compressed pieces
 * (platform/json-pieces.ts: no compression when read; the plain bytes are unzipped only for a
 * client that does not take gzip).
 */
export class JsonBody {
  private plain: Buffer | null;
  private compressed: Promise<Buffer> | null = null;
  /** `compressed` once it is made: the plain bytes can be unzipped from it when only it is held. */
  private compressedBytes: Buffer | null = null;
  /** The assembled gzip, while no better one is made. */
  private assembled: Buffer | null = null;
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

  static ofGzip(assembled: Buffer, length: number): JsonBody {
    return new JsonBody(null, assembled, length);
  }

  /** The plain bytes. */
  get body(): Buffer {
    // an assembled gzip may have been replaced by a compact one: unzip whichever is held
    this.plain ??= gunzipSync((this.assembled ?? this.compressedBytes) as Buffer);
    return this.plain;
  }

  /** The bytes it holds now: the plain bytes once made, and the gzip form once made. */
  get weight(): number {
    return (this.plain?.length ?? 0) + (this.assembled?.length ?? this.compressedBytes?.length ?? 0);
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

export function acceptsGzip(request: FastifyRequest): boolean {
  const accepted = request.headers['accept-encoding'];
  return typeof accepted === 'string' && /\bgzip\b/.test(accepted) && !/\bgzip\s*;\s*q=0(\.0*)?\b/.test(accepted);
}

/** Sends the JSON bytes, gzipped when they are large and the client accepts it. */
export async function sendJsonBody(
  request: FastifyRequest,
  reply: FastifyReply,
  json: JsonBody,
): Promise<FastifyReply> {
  reply.type('application/json; charset=utf-8').header('vary', 'Accept-Encoding');
  if (json.length >= GZIP_FROM_BYTES && acceptsGzip(request))
    return reply.header('content-encoding', 'gzip').send(await json.gzipped());
  return reply.send(json.body);
}

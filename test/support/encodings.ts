/** The bytes of an answer as the client reads them, whichever Content-Encoding it came in. */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';

export interface EncodedAnswer {
  headers: Record<string, string | string[] | number | undefined>;
  rawPayload: Buffer;
}

/** The plain bytes of an answer: unzipped when it came gzip, decompressed when it came Brotli. */
export function decodedBytes(answer: EncodedAnswer): Buffer {
  const encoding = answer.headers['content-encoding'];
  if (encoding === undefined) return answer.rawPayload;
  if (encoding === 'gzip') return gunzipSync(answer.rawPayload);
  if (encoding === 'br') return brotliDecompressSync(answer.rawPayload);
  throw new Error(`unexpected Content-Encoding ${String(encoding)}`);
}

/** The encoding a large answer made from plain JSON is sent in, for an Accept-Encoding header. */
export function expectedEncoding(acceptEncoding: string): 'br' | 'gzip' | undefined {
  if (/\bbr\b/.test(acceptEncoding)) return 'br';
  if (/\bgzip\b/.test(acceptEncoding)) return 'gzip';
  return undefined;
}

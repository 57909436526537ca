/**
 * Hand-written (a map of remembered answers on BoundedMap, lru-cache's LRU), and why. Figure: a
 * street suggestion answered from memory costs the service's per-request floor instead of the
 * search, the serializer and the UTF-8 write of ~3.7 kB of Cyrillic JSON (0.29 → see
 * docs/decisions/addresses.md, "Remembered answers"; `npx tsx bench/address-suggest.ts`).
 *
 * Suggestion answers remembered as bytes. The register is the same for every account, and buyers
 * type the same beginnings ("москва тв", "спб нев"), so an answer made once serves every shop's
 * buyers until the register changes (an import in any process: the directory's generation).
 * What depends on the account is never remembered: an answer where the shop's own DaData key may
 * be asked (a house number the register lacks) goes the whole way each time.
 *
 * Answers are kept gzipped (a street suggestion's 3.4 kB of Cyrillic JSON is 0.74 kB), so the budget
 * holds four times as many; a client is sent them as the route would (plain under 16 kB: unzipped
 * per request, ~17 µs; gzipping a new one costs ~37 µs).
 */
import { gzipSync } from 'node:zlib';
import { BoundedMap } from '../../platform/cache.js';
import { JsonBody } from '../../platform/compression.js';

const IDLE_MS = 10 * 60_000;

interface Remembered {
  generation: number;
  gzip: Buffer;
  length: number;
}

export class SuggestionAnswers {
  private readonly answers: BoundedMap<string, Remembered>;

  /** `maxBytes`: the budget of the gzipped answers and their keys. */
  constructor(maxBytes: number) {
    this.answers = new BoundedMap<string, Remembered>(100_000, maxBytes, IDLE_MS);
    // what no buyer typed for IDLE_MS goes, so the memory comes back when the checkout is quiet
    setInterval(() => this.answers.forgetIdle(), IDLE_MS / 4).unref();
  }

  /** The answer remembered under this key for this generation of the register, if any. */
  get(key: string, generation: number): JsonBody | undefined {
    const known = this.answers.get(key);
    if (!known) return undefined;
    if (known.generation !== generation) {
      this.answers.delete(key);
      return undefined;
    }
    return JsonBody.ofGzip(known.gzip, known.length);
  }

  /** Remembers the bytes and returns them as a body to send. */
  remember(key: string, generation: number, plain: Buffer): JsonBody {
    const gzip = gzipSync(plain, { level: 1 });
    this.answers.set(key, { generation, gzip, length: plain.length }, gzip.length + key.length * 2 + 64);
    return JsonBody.of(plain);
  }

  clear(): void {
    this.answers.clear();
  }
}

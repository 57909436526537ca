/**
 * Identical calculator calls within a few seconds get the same bytes back: checkout widgets
 * ask the same question for every visitor of a city. Only answers made by built-in
 * (deterministic) companies are kept; the key holds everything the answer depends on.
 */
import type { JsonBody } from '../../platform/compression.js';

/** A calculator answer: its JSON bytes, gzipped once when a client asks for that. */
export type Answer = JsonBody;

/**
 * What an answer is counted as: its JSON and one compressed copy made on a client's request,
 * counted when it is kept (the copy is made later: `weight` would change while it is kept).
 */
const weightOf = (answer: Answer) => answer.length * 2;

export class AnswerCache {
  private readonly entries = new Map<string, { answer: Answer; expires: number }>();
  private bytes = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxBytes = 16 * 1024 * 1024,
  ) {
    // expired answers go even when no call comes to replace them: memory comes back when the load stops
    if (ttlMs > 0) setInterval(() => this.forgetExpired(), Math.max(1000, ttlMs)).unref();
  }

  get enabled(): boolean {
    return this.ttlMs > 0;
  }

  get(key: string, now = Date.now()): Answer | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expires <= now) {
      this.drop(key);
      return undefined;
    }
    return entry.answer;
  }

  set(key: string, answer: Answer, now = Date.now()): void {
    if (!this.enabled || weightOf(answer) > this.maxBytes / 4) return;
    this.drop(key);
    this.forgetExpired(now);
    this.entries.set(key, { answer, expires: now + this.ttlMs });
    this.bytes += weightOf(answer);
    // oldest first: Map keeps insertion order
    for (const [oldest] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.drop(oldest);
    }
  }

  /** Drops the expired answers: the oldest first, as they were kept (every answer lives `ttlMs`). */
  forgetExpired(now = Date.now()): void {
    for (const [key, entry] of this.entries) {
      if (entry.expires > now) break;
      this.drop(key);
    }
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  private drop(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.bytes -= weightOf(entry.answer);
    this.entries.delete(key);
  }
}

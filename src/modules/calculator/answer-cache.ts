/**
 * Identical calculator calls within a few seconds get the same bytes back: checkout widgets
 * ask the same question for every visitor of a city. Only answers made by built-in
 * (deterministic) companies are kept; the key holds everything the answer depends on.
 */
import type { JsonBody } from '../../platform/compression.js';

/** A calculator answer: its JSON bytes, gzipped once when a client asks for that. */
export type Answer = JsonBody;

export class AnswerCache {
  private readonly entries = new Map<string, { answer: Answer; expires: number }>();
  private bytes = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxBytes = 64 * 1024 * 1024,
  ) {}

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
    if (!this.enabled || answer.length > this.maxBytes / 4) return;
    this.drop(key);
    this.entries.set(key, { answer, expires: now + this.ttlMs });
    this.bytes += answer.length;
    // oldest first: Map keeps insertion order
    for (const [oldest] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.drop(oldest);
    }
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  private drop(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.bytes -= entry.answer.length;
    this.entries.delete(key);
  }
}

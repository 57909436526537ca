/**
 * Gives the start's garbage back to the system once, before the port opens. Figure: RSS 5 s
 * after a second start 156–162 → 131–137 MB (`npx tsx bench/memory.ts`), for ~0.25 s more
 * start time. Why by hand: V8's memory reducer, which would do the same, waits 8 s and then
 * declines while the pollers keep allocating ("high alloc" in `--trace-memory-reducer`), so
 * the young generation grown during the start (16 MB) and the pages pooled after it stay
 * resident for good. A plain full collection frees objects but keeps those pages; V8's
 * "last resort" collection (what it runs before giving up on an allocation) also shrinks the
 * young generation and returns pooled pages. Node exposes no call for it other than the `gc`
 * function of `--expose-gc`, which is taken into a context of its own here, so the service's
 * own global scope never gains a `gc`.
 */
import v8 from 'node:v8';
import vm from 'node:vm';

interface GcOptions {
  type: 'major';
  execution: 'sync';
  flavor: 'last-resort';
}

/**
 * Runs V8's memory-reducing collection now; the milliseconds it took, or null when this Node
 * offers no such collection (the start goes on without it: it only saves memory).
 */
export function releaseStartupGarbage(): number | null {
  try {
    v8.setFlagsFromString('--expose-gc');
    const collect: unknown = vm.runInNewContext('gc');
    if (typeof collect !== 'function') return null;
    const started = performance.now();
    (collect as (options: GcOptions) => void)({ type: 'major', execution: 'sync', flavor: 'last-resort' });
    return Math.round(performance.now() - started);
  } catch {
    return null;
  }
}

/** How often the settle after a load looks at the traffic, and what counts as quiet in that time. */
const LOOK_EVERY_MS = 15_000;
const QUIET_REQUESTS = 15;
/** A load worth settling after: this many requests since the last settle. */
const LOAD_REQUESTS = 2_000;
/**
 * The quiet looks after which memory is given back: 30 s (the load's own garbage), then 90 s
 * (what the caches' sweeps let go by then: remembered answers go after 60 s unused).
 */
const SETTLE_AT_QUIET_LOOKS = new Set([2, 6]);

/**
 * Gives a load's garbage back once the load has stopped (the memory-reducing collection above).
 * Figure and why: see docs/decisions/platform.md, "Memory … given back after a load". V8 keeps
 * the pages its heap grew to under load, and its memory reducer declines to run while the
 * service's pollers allocate; so after a busy hour a quiet service stayed at 2.4 times its start.
 * A collection on a quiet process delays no request worth speaking of: at most one arriving in
 * its 0.1–0.3 s.
 */
export class LoadSettler {
  private served = 0;
  private servedAtLastLook = 0;
  private sinceSettle = 0;
  private quietLooks = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly settle: () => number | null = releaseStartupGarbage,
    private readonly onSettled: (tookMs: number) => void = () => undefined,
  ) {}

  /** Counts a request answered. */
  requestServed(): void {
    this.served++;
  }

  start(): void {
    this.timer ??= setInterval(() => this.look(), LOOK_EVERY_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** One look at the traffic since the last (public for tests: the timer calls it). */
  look(): void {
    const recent = this.served - this.servedAtLastLook;
    this.servedAtLastLook = this.served;
    this.sinceSettle += recent;
    if (recent > QUIET_REQUESTS) {
      this.quietLooks = 0;
      return;
    }
    this.quietLooks++;
    if (this.sinceSettle < LOAD_REQUESTS || !SETTLE_AT_QUIET_LOOKS.has(this.quietLooks)) return;
    const took = this.settle();
    if (took !== null) this.onSettled(took);
    // the second settle of a quiet spell needs no new load; a new load starts the count again
    if (this.quietLooks >= Math.max(...SETTLE_AT_QUIET_LOOKS)) this.sinceSettle = 0;
  }
}

/**
 * A test hook for what a process dying at the worst moment leaves behind. With
 * `TEST_CRASH_AT=<point>` (or `<point>#<n>`: the n-th time it is reached) the process kills
 * itself with SIGKILL there, as a lost machine would: no handler, no rollback from our side.
 * Unset (always, outside the multi-process tests) it costs one comparison.
 */
const wanted = /^(.+?)(?:#(\d+))?$/.exec(process.env.TEST_CRASH_AT ?? '');
const point = wanted?.[1] ?? null;
let remaining = Number(wanted?.[2] ?? 1);

let failing: string | null = null;

/**
 * In-process tests: reaching `name` throws instead of killing, so the transaction around it
 * rolls back as a dead process's does (null: off).
 */
export function failAtCrashPoint(name: string | null): void {
  failing = name;
}

export function crashPoint(name: string): void {
  if (failing === name) throw new Error(`crash point ${name}`);
  if (point === null || name !== point) return;
  remaining--;
  if (remaining === 0) process.kill(process.pid, 'SIGKILL');
}

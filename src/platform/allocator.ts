/**
 * Hand-written, and why. Figure: bench/memory.ts (calculator, orders, stickers and pages at 50
 * connections, three rounds): with glibc's malloc the process held 442–569 MB 90 s after the
 * load, 283–386 MB of it anonymous, of which malloc_trim(0) gave back 130–228 MB (freed inside
 * malloc's heaps, never returned); with jemalloc as set here 368 MB, 162 MB anonymous (72 after
 * start), and 473–607 MB under the load (519–620 with glibc). Measured against: glibc with its
 * tunables (MALLOC_ARENA_MAX=2, MALLOC_MMAP_THRESHOLD_=65536); jemalloc's own defaults (8 arenas,
 * 10 s decay: 602–747 MB under the load). Node has no call for malloc_trim, and an FFI library
 * would need a native build on install.
 *
 * The service's process runs on jemalloc when the system has it (Debian's `libjemalloc2`, which
 * the container image installs): it gives memory back when the load stops. The library must be
 * loaded before anything allocates, so the process replaces itself (`process.execve`, same pid,
 * arguments and flags) with one that preloads it. `ALLOCATOR=system` keeps glibc's malloc.
 */
import fs from 'node:fs';

/** Where Debian, Ubuntu and most distributions put the library. */
const JEMALLOC_PATHS = [
  `/usr/lib/${process.arch === 'arm64' ? 'aarch64' : 'x86_64'}-linux-gnu/libjemalloc.so.2`,
  '/usr/lib64/libjemalloc.so.2',
  '/usr/lib/libjemalloc.so.2',
];

/**
 * jemalloc's settings unless MALLOC_CONF names others: two arenas (as MALLOC_ARENA_MAX=2 for
 * glibc), freed pages returned after a second rather than ten, by its background thread.
 */
export const JEMALLOC_CONF = 'narenas:2,dirty_decay_ms:1000,muzzy_decay_ms:0,background_thread:true';

/** The jemalloc library to preload, or null when the process should keep the malloc it has. */
export function jemallocToPreload(env: NodeJS.ProcessEnv, exists: (file: string) => boolean): string | null {
  if (process.platform !== 'linux' || env.ALLOCATOR === 'system') return null;
  // already preloaded (by us, or an operator's own LD_PRELOAD, which is kept as it is)
  if (env.LD_PRELOAD) return null;
  return JEMALLOC_PATHS.find(exists) ?? null;
}

/**
 * Replaces this process with itself on jemalloc when the system has it; returns only when it
 * does not (or cannot: a Node without `process.execve`), and the service goes on with glibc.
 */
export function runOnJemallocWhenPresent(): void {
  const library = jemallocToPreload(process.env, (file) => fs.existsSync(file));
  if (!library || typeof process.execve !== 'function') return;
  process.execve(process.execPath, [process.execPath, ...process.execArgv, ...process.argv.slice(1)], {
    ...process.env,
    LD_PRELOAD: library,
    MALLOC_CONF: process.env.MALLOC_CONF ?? JEMALLOC_CONF,
  });
}

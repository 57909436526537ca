/** Shared pieces of the load scenarios: servers in child processes, autocannon runs, tables. */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import autocannon from 'autocannon';

/**
 * autocannon appends every response body to a string (UTF-8 decoding) whether or not anyone
 * reads it; for binary bodies (gzip) and non-ASCII JSON that decoding took 70% of the load
 * generator's core, so the figures measured the client, not the server. Our scenarios never
 * read bodies: the load generator drops them.
 */
const PipelinedRequestsQueue = createRequire(import.meta.url)('autocannon/lib/pipelinedRequestsQueue.js') as {
  prototype: { addBody(data: unknown): void };
};
PipelinedRequestsQueue.prototype.addBody = () => undefined;

export const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));

export interface RunningServer {
  url: string;
  /** Whatever the server printed as its ready line (JSON after "READY "). */
  info: Record<string, unknown>;
  /** The server process's CPU time so far (user + system) and its resident memory now, from /proc. */
  usage(): ProcessUsage;
  stop(): Promise<void>;
}

export interface ProcessUsage {
  cpuMs: number;
  rssMb: number;
  /** RSS split: the process's own memory, and pages of files mapped (SQLite's file read through its map: the kernel's to drop). */
  anonMb?: number;
  fileMb?: number;
}

/** Linux only (the bench machine): /proc/<pid>/stat fields 14 and 15 are user and system ticks of 10 ms. */
export function processUsage(pid: number | undefined): ProcessUsage {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const megabytes = (name: string) => {
      const found = new RegExp(`${name}:\\s+(\\d+)`).exec(status);
      return found ? Math.round(Number(found[1]) / 1024) : 0;
    };
    return {
      cpuMs: (Number(fields[11]) + Number(fields[12])) * 10,
      rssMb: megabytes('VmRSS'),
      anonMb: megabytes('RssAnon'),
      fileMb: megabytes('RssFile'),
    };
  } catch {
    return { cpuMs: 0, rssMb: 0 };
  }
}

/** package.json's start script, split into words. */
function startScriptWords(): string[] {
  return (
    JSON.parse(fs.readFileSync(path.join(BENCH_DIR, '..', 'package.json'), 'utf8')) as { scripts: { start: string } }
  ).scripts.start
    .split(' ')
    .filter(Boolean);
}

/**
 * The V8 flags `npm start` gives node (package.json's start script), so the benches run what
 * users run; BENCH_NODE_FLAGS="..." tries others ("" for none).
 */
export const START_NODE_FLAGS: string[] =
  process.env.BENCH_NODE_FLAGS !== undefined
    ? process.env.BENCH_NODE_FLAGS.split(' ').filter(Boolean)
    : startScriptWords().filter((word) => word.startsWith('--'));

/**
 * The environment `npm start` sets before node (`NAME=${NAME:-default}` in the start script):
 * the default, unless this process's own environment names a value, as the script would.
 */
export const START_ENV: Record<string, string> = Object.fromEntries(
  startScriptWords().flatMap((word) => {
    const assignment = /^([A-Z_][A-Z0-9_]*)=\$\{\1:-([^}]*)\}$/.exec(word);
    if (!assignment) return [];
    const [, name, fallback] = assignment as unknown as [string, string, string];
    return [[name, process.env[name] ?? fallback]];
  }),
);

/**
 * Starts `bench/<script>` in its own process (so the load generator does not share its
 * event loop) and waits for the line `READY {json with url}`.
 */
export function startServer(
  script: string,
  env: Record<string, string> = {},
  timeoutMs = 180_000,
): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    // BENCH_CPU_PROF_DIR=dir: the server writes a V8 CPU profile there when it stops (open it in Chrome DevTools)
    const profile = process.env.BENCH_CPU_PROF_DIR
      ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF_DIR}`]
      : [];
    const child: ChildProcess = spawn(
      process.execPath,
      [...START_NODE_FLAGS, ...profile, '--import', 'tsx', path.join(BENCH_DIR, script)],
      {
        env: { ...process.env, ...START_ENV, LOG_LEVEL: 'warn', ...env },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const timer = setTimeout(() => reject(new Error(`${script} did not start in ${timeoutMs} ms`)), timeoutMs);
    // with BENCH_NODE_FLAGS the server's other lines are shown (V8's traces, such as --trace-gc,
    // go to standard output); the READY line never is (it holds a token)
    const showOutput = process.env.BENCH_NODE_FLAGS !== undefined;
    let pending = '';
    let ready = false;
    child.stdout?.on('data', (chunk: Buffer) => {
      // whole lines only, and none kept once read: a traced server prints for minutes
      const lines = (pending + chunk.toString('utf8')).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        if (ready || !line.startsWith('READY ')) {
          if (showOutput && line) process.stderr.write(`${line}\n`);
          continue;
        }
        ready = true;
        clearTimeout(timer);
        const info = JSON.parse(line.slice('READY '.length)) as Record<string, unknown>;
        resolve({
          url: String(info.url),
          info,
          usage: () => processUsage(child.pid),
          stop: () =>
            new Promise<void>((done) => {
              child.once('exit', () => done());
              child.kill('SIGTERM');
            }),
        });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited with ${code} before it was ready`));
    });
  });
}

export interface LoadResult {
  name: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  bytesPerResponse: number;
  errors: number;
  non2xx: number;
  /** With `server`: the server's CPU time per answer during the measured run, and its RSS after it. */
  cpuMsPerResponse?: number;
  rssMbAfter?: number;
}

export interface LoadOptions {
  name: string;
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  connections?: number;
  durationSeconds?: number;
  /** Ask for these paths (with query) in turn instead of the url's path, e.g. page after page. */
  paths?: string[];
  /** Send these bodies in turn (e.g. a cart's cargo varied per request) instead of `body`. */
  bodies?: string[];
  /** The server under load: its CPU time per answer and its memory are reported. */
  server?: RunningServer;
}

/** A short warm-up, then the measured run. */
export async function load(options: LoadOptions): Promise<LoadResult> {
  let turn = 0;
  const paths = options.paths;
  const bodies = options.bodies;
  const requests =
    paths || bodies
      ? [
          {
            setupRequest: (request: Record<string, unknown>) => {
              const next = turn++;
              return {
                ...request,
                ...(paths ? { path: paths[next % paths.length] } : {}),
                ...(bodies ? { body: bodies[next % bodies.length] } : {}),
              };
            },
          },
        ]
      : undefined;
  const base = {
    url: options.url,
    method: options.method ?? 'GET',
    headers: options.headers,
    body: options.body,
    connections: options.connections ?? 50,
    ...(requests ? { requests } : {}),
  };
  await autocannon({ ...base, duration: 2 });
  const before = options.server?.usage();
  const result = await autocannon({ ...base, duration: options.durationSeconds ?? 10 });
  const after = options.server?.usage();
  const responses = result.requests.total || 1;
  return {
    name: options.name,
    requestsPerSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    bytesPerResponse: Math.round(result.throughput.total / responses),
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    ...(before && after
      ? {
          cpuMsPerResponse: Math.round(((after.cpuMs - before.cpuMs) / responses) * 100) / 100,
          rssMbAfter: after.rssMb,
        }
      : {}),
  };
}

/** Prints results with each one's throughput as a share of the baseline's. */
export function printTable(title: string, baseline: LoadResult, results: LoadResult[]): void {
  console.log(`\n${title}`);
  console.log(
    '| scenario | req/s | p50 ms | p99 ms | bytes/resp | vs hello-world | errors | non-2xx | server CPU-ms/resp | server RSS MB after |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const result of [baseline, ...results]) {
    const ratio = ((result.requestsPerSecond / baseline.requestsPerSecond) * 100).toFixed(0);
    console.log(
      `| ${result.name} | ${result.requestsPerSecond} | ${result.p50} | ${result.p99} | ${result.bytesPerResponse} | ${ratio}% | ${result.errors} | ${result.non2xx} | ${result.cpuMsPerResponse ?? ''} | ${result.rssMbAfter ?? ''} |`,
    );
  }
}

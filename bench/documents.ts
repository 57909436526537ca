/**
 * Figures of the documents issue: stickers for 500 orders in one call, per format and as
 * the ZIP of all three, plus a 500-order handover act. Each scenario runs in its own
 * process so that its peak memory is its own: wall time of the first (cold) call and the
 * best of three warm calls, peak RSS of the process, heap in use after the calls.
 * Run: npx tsx bench/documents.ts      (ORDERS=500 by default)
 */
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { renderHandoverAct, renderStickers, renderStickerZip } from '../src/documents/index.js';
import { sampleHandoverAct, sampleStickerOrder } from '../test/support/document-samples.js';

const ORDERS = Number(process.env.ORDERS ?? 500);

interface Scenario {
  name: string;
  run(): Promise<Buffer>;
}

const orders = Array.from({ length: ORDERS }, (_, index) => sampleStickerOrder(index));
const labels = orders.reduce((total, order) => total + (order.places?.length || 1), 0);

const scenarios: Record<string, Scenario> = {
  a4: { name: `stickers type 1 (A4, 4 per sheet)`, run: () => renderStickers(orders, 1) },
  thermal100: { name: `stickers type 2 (thermal 100x150)`, run: () => renderStickers(orders, 2) },
  thermal75: { name: `stickers type 3 (thermal 75x120)`, run: () => renderStickers(orders, 3) },
  zip: { name: `stickers, no type (ZIP of the 3 PDFs)`, run: () => renderStickerZip(orders) },
  act: { name: `handover act, ${ORDERS} orders`, run: () => renderHandoverAct(sampleHandoverAct(ORDERS)) },
};

interface Figures {
  name: string;
  coldMs: number;
  coldCpuMs: number;
  warmMs: number;
  /** CPU time of the best warm call: less disturbed than wall time on a shared machine. */
  warmCpuMs: number;
  /** Longest the event loop was held during the warm calls: what other requests would wait. */
  maxBlockMs: number;
  bytes: number;
  peakRssMb: number;
  heapMb: number;
}

async function measure(key: string): Promise<Figures> {
  const scenario = scenarios[key];
  let started = performance.now();
  const coldCpu = process.cpuUsage();
  const first = await scenario.run();
  const coldMs = performance.now() - started;
  const coldSpent = process.cpuUsage(coldCpu);
  let warmMs = Infinity;
  let warmCpuMs = Infinity;
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  for (let round = 0; round < 3; round += 1) {
    started = performance.now();
    const cpu = process.cpuUsage();
    await scenario.run();
    const spent = process.cpuUsage(cpu);
    warmMs = Math.min(warmMs, performance.now() - started);
    warmCpuMs = Math.min(warmCpuMs, (spent.user + spent.system) / 1000);
    // Let the delay monitor's timer run once more, so a block at the very end is recorded.
    await new Promise((resolve) => setTimeout(resolve, 30));
  }
  loopDelay.disable();
  return {
    name: scenario.name,
    coldMs,
    coldCpuMs: (coldSpent.user + coldSpent.system) / 1000,
    warmMs,
    warmCpuMs,
    maxBlockMs: loopDelay.max / 1e6,
    bytes: first.length,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
    heapMb: process.memoryUsage().heapUsed / 1024 / 1024,
  };
}

const child = process.argv.indexOf('--scenario');
if (child >= 0) {
  process.stdout.write(JSON.stringify(await measure(process.argv[child + 1])));
} else {
  const rows: Figures[] = [];
  for (const key of Object.keys(scenarios)) {
    const result = spawnSync(
      process.execPath,
      [...process.execArgv, fileURLToPath(import.meta.url), '--scenario', key],
      { encoding: 'utf8', env: process.env },
    );
    if (result.status !== 0) throw new Error(`scenario ${key} failed:\n${result.stderr}`);
    rows.push(JSON.parse(result.stdout) as Figures);
  }
  const pad = (value: string, width: number): string => value.padStart(width);
  process.stdout.write(
    `\nDocuments: ${ORDERS} orders = ${labels} labels (every third order has 2 places); node ${process.version}; load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} CPUs\n`,
  );
  process.stdout.write(
    `${'scenario'.padEnd(40)}${pad('cold ms', 9)}${pad('cold CPU ms', 13)}${pad('warm ms', 9)}${pad('warm CPU ms', 13)}${pad('max block ms', 14)}${pad('size KB', 9)}${pad('peak RSS MB', 13)}${pad('heap MB', 9)}\n`,
  );
  for (const row of rows) {
    process.stdout.write(
      `${row.name.padEnd(40)}${pad(row.coldMs.toFixed(0), 9)}${pad(row.coldCpuMs.toFixed(0), 13)}${pad(row.warmMs.toFixed(0), 9)}${pad(row.warmCpuMs.toFixed(0), 13)}${pad(row.maxBlockMs.toFixed(0), 14)}${pad((row.bytes / 1024).toFixed(0), 9)}${pad(row.peakRssMb.toFixed(0), 13)}${pad(row.heapMb.toFixed(0), 9)}\n`,
    );
  }
}

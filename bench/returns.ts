/**
 * Figures of returns, in one run on one machine:
 *   1. GET /v2/returns over RETURNS (default 100000) returns of one account: the newest page, a
 *      status filter, a shop and date range, next to a bare fastify hello-world of the same run;
 *   2. the buyer's returns page on a phone-size Chromium (390×844, CPU slowed 4× as a mid-range
 *      phone): its JavaScript bytes (raw and gzip) and its time to interactive, median of 15 loads.
 * Run: npx tsx bench/returns.ts
 *      DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/returns.ts
 */
import fs from 'node:fs';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { load, printTable, startServer } from './lib.js';

const connections = Number(process.env.CONNECTIONS ?? 20);
const duration = Number(process.env.DURATION ?? 5);
const LOADS = 15;

const hello = await startServer('hello-server.ts');
const baseline = await load({
  name: 'hello-world (bare fastify)',
  url: `${hello.url}/hello`,
  connections,
  durationSeconds: duration,
});
await hello.stop();

const app = await startServer('returns-server.ts', {}, 600_000);
const info = app.info as {
  token: string;
  pagePath: string;
  returns: number;
  shopId: number;
  seedMs: number;
  database: string;
};
const auth = { authorization: `Bearer ${info.token}` };
const list = (label: string, query: string) =>
  load({
    name: `GET /v2/returns${label}`,
    url: `${app.url}/v2/returns${query}`,
    headers: auth,
    connections,
    durationSeconds: duration,
    server: app,
  });
const today = new Date().toISOString().slice(0, 10);
const monthAgo = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
// pages never read before (nothing remembered): page after page of 20, then of a status
const cold = (label: string, query: string, pages: number) =>
  load({
    name: `GET /v2/returns${label}, pages never read before`,
    url: `${app.url}/v2/returns`,
    paths: Array.from({ length: pages }, (_, page) => `/v2/returns?${query}page=${page + 1}&perPage=20`),
    headers: auth,
    connections,
    durationSeconds: duration,
    server: app,
  });
const results = [
  await cold('', '', 5000),
  await cold('?status=approved', 'status=approved&', 700),
  await list(' (newest 20)', ''),
  await list('?status=requested&perPage=50', '?status=requested&perPage=50'),
  await list('?shopId&dateFrom..dateTo (a month)', `?shopId=${info.shopId}&dateFrom=${monthAgo}&dateTo=${today}`),
];
printTable(
  `GET /v2/returns over ${info.returns} returns (${info.database}, ${connections} connections, ${duration} s; seeded in ${info.seedMs} ms)`,
  baseline,
  results,
);

// the buyer's page
const pageUrl = `${app.url}${info.pagePath}`;
const html = await (await fetch(pageUrl)).text();
const scripts = [...html.matchAll(/<script src="([^"]+)"/g)].map((match) => match[1]);
let jsBytes = 0;
let jsGzip = 0;
for (const src of scripts) {
  const body = Buffer.from(await (await fetch(`${app.url}${src}`)).arrayBuffer());
  jsBytes += body.length;
  jsGzip += gzipSync(body).length;
}
const inline = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].reduce((sum, match) => sum + match[1].length, 0);
const browser = await chromium.launch({
  executablePath: ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((file) => fs.existsSync(file)),
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
});
const timings: Array<{ interactive: number; loaded: number }> = [];
for (let round = 0; round < LOADS + 2; round++) {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
    locale: 'ru-RU',
  });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await page.goto(pageUrl, { waitUntil: 'load' });
  // interactive: the form's script has run (its submit handler is on) and the main thread is free
  const timing = await page.evaluate(() => {
    // in the page: its Navigation Timing entry (the bench's tsconfig has no DOM types)
    const [navigation] = (
      globalThis as unknown as {
        performance: {
          getEntriesByType(type: string): Array<{ domContentLoadedEventEnd: number; loadEventEnd: number }>;
        };
      }
    ).performance.getEntriesByType('navigation');
    return { interactive: navigation.domContentLoadedEventEnd, loaded: navigation.loadEventEnd };
  });
  if (round >= 2) timings.push(timing);
  await context.close();
}
await browser.close();
const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
console.log(`\nThe buyer's returns page (${html.length} bytes of HTML, ${gzipSync(Buffer.from(html)).length} gzip)`);
console.log(`| figure | value |\n|---|---:|`);
console.log(`| JavaScript (external), bytes | ${jsBytes} (${jsGzip} gzip) |`);
console.log(`| JavaScript (inline), bytes | ${inline} |`);
console.log(
  `| time to interactive (DOMContentLoaded end, deferred script run), median of ${LOADS}, CPU 4× slower, ms | ${median(timings.map((t) => t.interactive)).toFixed(1)} |`,
);
console.log(`| load event end, median, ms | ${median(timings.map((t) => t.loaded)).toFixed(1)} |`);
await app.stop();
process.exit(0);

/**
 * The service over a generated register (address-data.ts, HOUSES houses, default 1,000,000), for
 * bench/address-suggest.ts. Before serving it cleans CLEAN_COUNT generated messy addresses in this
 * process and reports the CPU time per address. Prints `READY {url, token, ...}`.
 */
import { buildApp } from '../src/app.js';
import { releaseStartupGarbage } from '../src/platform/heap.js';
import { generateRegister } from './address-data.js';
import { seedAccount, serveUntilTerm, startBenchService } from './fixture.js';

const bench = await startBenchService();
const { services } = bench.runtime;
const account = await seedAccount(services, 'Address bench');
const started = performance.now();
const register = await generateRegister(bench.runtime.database.db, Number(process.env.HOUSES ?? 1_000_000));
const seedMs = Math.round(performance.now() - started);
services.addresses.forgetLoaded();

// messy addresses as buyers write them: the type word left out or spelt out, a typo in a long name, the city last
const texts = register.samples.map(([city, street, house], index) => {
  const typo =
    street.length >= 7 && index % 3 === 0 ? `${street.slice(0, 3)}${street[4]}${street[3]}${street.slice(5)}` : street;
  const forms = [
    `${city}, ул. ${typo}, д. ${house}, кв. ${1 + (index % 90)}`,
    `${typo} ${house}, г ${city}`,
    `г.${city} ${typo} д${house}к1`,
    `Россия, ${city}, ${typo}, ${house}`,
  ];
  return forms[index % forms.length];
});
const cleanCount = Math.min(Number(process.env.CLEAN_COUNT ?? 2000), texts.length);
// warm: the localities and the streets of the cities the texts name are loaded once, as in a running service
for (const text of texts.slice(0, cleanCount)) await services.addresses.clean(text);
const cpuBefore = process.cpuUsage();
const wallBefore = performance.now();
let certain = 0;
for (const text of texts.slice(0, cleanCount))
  if ((await services.addresses.clean(text)).quality === 'certain') certain++;
const cpu = process.cpuUsage(cpuBefore);
const cleanCpuMsPerAddress = Math.round(((cpu.user + cpu.system) / 1000 / cleanCount) * 1000) / 1000;
const cleanWallMsPerAddress = Math.round(((performance.now() - wallBefore) / cleanCount) * 1000) / 1000;

// the generator's garbage given back, as `serve` gives back a start's
releaseStartupGarbage();
// RSS counts the pages of SQLite's file read through its map (the kernel's cache); the heap is the process's own
const memory = process.memoryUsage();
const heapMb = Math.round(memory.heapUsed / 1048576);
const app = await buildApp({ config: bench.config, database: bench.runtime.database, services });
await serveUntilTerm(bench, app, {
  token: account.token,
  houses: register.houses,
  streets: register.streets,
  localities: register.localities,
  seedMs,
  cleanCount,
  cleanCertain: certain,
  cleanCpuMsPerAddress,
  cleanWallMsPerAddress,
  heapMb,
  samples: register.samples.slice(0, 3000),
  texts: texts.slice(0, 500),
});

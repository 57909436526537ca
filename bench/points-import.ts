/**
 * A real company's point directory imported into our points: Russian Post's passport
 * unloading of OFFICES post offices (default 40,000, about the country's count) served as a
 * zip by the loopback fake, read through one account's contract. Times the first import (all
 * new), a second identical one (nothing to write) and a third after 1% changed and 1% closed.
 *
 *   npx tsx bench/points-import.ts               (OFFICES=40000; PostgreSQL with DATABASE_URL)
 */
import { passportOffice, startFakeRussianPost } from '../test/support/fake-real-carriers.js';
import { seedAccount, startBenchService } from './fixture.js';

const OFFICES = Number(process.env.OFFICES ?? 40_000);
const post = await startFakeRussianPost();
// spread over European Russia; indexes 100000.. are unique
const offices = Array.from({ length: OFFICES }, (_, n) =>
  passportOffice(
    String(100_000 + n),
    n % 7 === 0 ? 'г Москва' : 'г Тула',
    44 + ((n * 7919) % 1500) / 100,
    30 + ((n * 104_729) % 2500) / 100,
  ),
);
post.directory = offices;
const bench = await startBenchService({
  LOG_LEVEL: 'error',
  CARRIER_RUSSIAN_POST_URL: post.baseUrl,
  CARRIER_POINTS_IMPORT_HOURS: '0',
});
const { services } = bench.runtime;
const account = await seedAccount(services, 'Bench account');
await services.carrierIntegrations.connect(account.scope, 1003, {
  params: {
    accessToken: 'good-token',
    login: 'shop',
    password: 'pass',
    indexFrom: '125009',
    trackingLogin: 't',
    trackingPassword: 'p',
  },
});

async function timed(title: string): Promise<void> {
  const heapBefore = process.memoryUsage().heapUsed;
  const started = performance.now();
  const outcome = await services.carrierPoints.importPoints(1003, AbortSignal.timeout(600_000));
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `${title}: ${seconds} s, visible ${outcome.visible}, added ${outcome.added}, hidden ${outcome.hidden}, heap ${Math.round(heapBefore / 2 ** 20)} → ${Math.round(process.memoryUsage().heapUsed / 2 ** 20)} MB`,
  );
}

try {
  console.log(`${OFFICES} offices, ${bench.config.databaseUrl.startsWith('sqlite') ? 'SQLite' : 'PostgreSQL'}`);
  await timed('first import (all new)');
  await timed('second import (unchanged)');
  const step = 100;
  post.directory = offices
    .filter((_, n) => n % step !== 1)
    .map((office, n) =>
      n % step === 0
        ? {
            ...office,
            workTime: [
              'пн, открыто: 10:00 - 19:00',
              'вт, открыто: 10:00 - 19:00',
              'ср, открыто: 10:00 - 19:00',
              'чт, открыто: 10:00 - 19:00',
              'пт, открыто: 10:00 - 19:00',
              'сб, выходной',
              'вс, выходной',
            ],
          }
        : office,
    );
  await timed('third import (1% changed, 1% closed)');
} finally {
  await bench.cleanup();
  await post.close();
}

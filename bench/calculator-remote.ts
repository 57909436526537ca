/**
 * The calculator with the built-in companies plus four real-company connectors (CDEK,
 * Boxberry, Russian Post, Yandex Delivery under one account's contracts) answering from
 * loopback fakes in 150-400 ms: latency p50/p99 of POST /v2/calculator (should be about the
 * slowest company, not the sum), then the same with CDEK down (its circuit open: not asked at all).
 *
 *   npx tsx bench/calculator-remote.ts            (CALLS=200 CONCURRENCY=8 by default; DECLARED=5000 adds a declared value)
 */
import { buildApp } from '../src/app.js';
import { startFakeBoxberry, startFakeCdek, startFakeRussianPost } from '../test/support/fake-real-carriers.js';
import { startFakeYandexDelivery, YANDEX_STATION } from '../test/support/fake-yandex-delivery.js';
import { seedAccount, startBenchService } from './fixture.js';

const CALLS = Number(process.env.CALLS ?? 200);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 8);
const fakes = await Promise.all([
  startFakeCdek(),
  startFakeBoxberry(),
  startFakeRussianPost(),
  startFakeYandexDelivery(),
]);
const [cdek, boxberry, post, yandex] = fakes;
for (const fake of fakes) {
  fake.delayMs = 150;
  fake.jitterMs = 250;
}
const bench = await startBenchService({
  LOG_LEVEL: 'error',
  CALCULATOR_CACHE_SECONDS: '0',
  CARRIER_CDEK_URL: `${cdek.baseUrl}/v2`,
  CARRIER_BOXBERRY_URL: `${boxberry.baseUrl}/json.php`,
  CARRIER_RUSSIAN_POST_URL: post.baseUrl,
  CARRIER_RUSSIAN_POST_TRACKING_URL: `${post.baseUrl}/rtm34`,
  CARRIER_YANDEX_DELIVERY_URL: yandex.baseUrl,
  CARRIER_TIMEOUT_MS: '2000',
});
const { services } = bench.runtime;
const account = await seedAccount(services, 'Bench account');
await services.carrierIntegrations.connect(account.scope, 1001, {
  params: { clientId: 'good-id', clientSecret: 'good-secret' },
});
await services.carrierIntegrations.connect(account.scope, 1002, { params: { token: 'good-token' } });
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
await services.carrierIntegrations.connect(account.scope, 1004, {
  params: { token: 'good-token', platformStationId: YANDEX_STATION },
});
const app = await buildApp({ config: bench.config, database: bench.runtime.database, services });
// DECLARED=5000: a declared value (roubles), which makes CDEK price its insurance in a second round trip
const body = JSON.stringify({
  sender: { cityName: 'Москва' },
  reception: { cityName: 'Санкт-Петербург' },
  pickupType: 1,
  weight: 1.2,
  ...(process.env.DECLARED ? { priceDeclared: Number(process.env.DECLARED) } : {}),
});

async function one(): Promise<{ ms: number; drivers: Set<string> }> {
  const started = performance.now();
  const response = await app.inject({
    method: 'POST',
    url: '/v2/calculator',
    headers: { authorization: `Bearer ${account.token}`, 'content-type': 'application/json' },
    payload: body,
  });
  const ms = performance.now() - started;
  if (response.statusCode !== 200) throw new Error(`calculator answered ${response.statusCode}: ${response.body}`);
  const answer = JSON.parse(response.body) as Record<string, Array<{ deliveryDriver: string }>>;
  return {
    ms,
    drivers: new Set(
      Object.values(answer)
        .flat()
        .map((option) => option.deliveryDriver),
    ),
  };
}

async function run(title: string): Promise<void> {
  const times: number[] = [];
  const drivers = new Set<string>();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next++ < CALLS) {
        const result = await one();
        times.push(result.ms);
        for (const driver of result.drivers) drivers.add(driver);
      }
    }),
  );
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(0);
  console.log(
    `${title}: ${times.length} calls, concurrency ${CONCURRENCY}: p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${times[times.length - 1].toFixed(0)} ms; drivers answering: ${[...drivers].sort().join(', ')}`,
  );
}

await one(); // tokens, connections
await run('built-ins + CDEK, Boxberry, Russian Post, Yandex Delivery at 150-400 ms');
cdek.mode = '500';
cdek.delayMs = 0;
cdek.jitterMs = 0;
for (let index = 0; index < 10 && services.contractCompanies.remote(1001).circuit !== 'open'; index++) await one();
console.log(`CDEK circuit: ${services.contractCompanies.remote(1001).circuit}`);
const cdekCallsBefore = cdek.calls.length;
await run('same, CDEK down (circuit open)');
console.log(`calls that reached CDEK while open: ${cdek.calls.length - cdekCallsBefore}`);
await app.close();
await bench.cleanup();
await Promise.all(fakes.map((fake) => fake.close()));

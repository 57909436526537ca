/**
 * The assembly of a cold page's gzip from its packed documents (json-pieces.ts), alone, in µs a
 * page of 50: what the page reader's thread spends besides SQLite for every page never read
 * before. Run: npx tsx bench/page-assembly.ts
 */
import { gzipIdentifiedObjects, packObject } from '../src/platform/json-pieces.js';
import { seededRandom } from '../src/platform/seeded-random.js';

const random = seededRandom(47);
// documents of 1.2–2.4 kB, as the orders bench's are once unzipped
const docs = Array.from({ length: 50 }, (_, index) => ({
  id: 200_000 - index,
  packed: packObject(
    Buffer.from(
      JSON.stringify({
        number: `N-${index}`,
        recipient: { name: `Покупатель ${index}`, city: 'Москва', phone: `+7999${Math.floor(random() * 1e7)}` },
        note: 'ж'.repeat(Math.floor(400 + random() * 600)),
      }),
    ),
  ),
}));
const rounds = 20_000;
for (let pass = 0; pass < 3; pass++) {
  const started = process.hrtime.bigint();
  for (let index = 0; index < rounds; index++) gzipIdentifiedObjects(docs);
  const micros = Number(process.hrtime.bigint() - started) / rounds / 1000;
  console.log(`pass ${pass + 1}: ${micros.toFixed(1)} µs a page of 50`);
}

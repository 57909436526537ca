/**
 * Writes data/addresses/gar-sample/: the small hand-made sample in the register's (ГАР) format
 * that the service loads on a first start. Cities' ids, region codes, OKATO/OKTMO and KLADR codes
 * are the real ones; the streets are real streets of those cities; houses, flats, postcodes past
 * the city's own and every other id are made up (deterministic: seeded). `npx tsx scripts/gar-sample.ts`
 */
import fs from 'node:fs';
import path from 'node:path';
import { GarRegionWriter, guidOf, writeGarTypeLists } from '../bench/support/gar-writer.js';
import { seededRandom } from '../src/platform/seeded-random.js';
import { PROJECT_ROOT } from '../src/platform/reference-data.js';

interface SampleCity {
  region: number;
  /** The region as the register names it, when the city is not a region itself. */
  regionObject?: { name: string; type: string };
  name: string;
  guid: string;
  zip: number;
  okato: string;
  oktmo: string;
  kladr: string;
  /** "type name": the register's short type first. */
  streets: string[];
}

const CITIES: SampleCity[] = [
  {
    region: 77,
    name: 'Москва',
    guid: '0c5b2444-70a0-4932-980c-b4dc0d3f02b5',
    zip: 101000,
    okato: '45000000000',
    oktmo: '45000000',
    kladr: '7700000000000',
    streets: [
      'ул Тверская',
      'ул Арбат',
      'ул Новый Арбат',
      'пр-кт Ленинский',
      'ул Мясницкая',
      'ул Покровка',
      'ул Маросейка',
      'ул Пятницкая',
      'ул Большая Ордынка',
      'ул Садовая-Кудринская',
      'пр-кт Кутузовский',
      'ул Профсоюзная',
      'пр-кт Ленинградский',
      'пр-кт Мира',
      'ш Варшавское',
      'ул Остоженка',
      'ул Пречистенка',
      'ул Бауманская',
      'ул Вавилова',
      'ул 1-я Тверская-Ямская',
      'б-р Чистопрудный',
      'пр-кт Комсомольский',
      'ул Сретенка',
      'ул Лесная',
    ],
  },
  {
    region: 78,
    name: 'Санкт-Петербург',
    guid: 'c2deb16a-0330-4f05-821f-1d09c93331e6',
    zip: 190000,
    okato: '40000000000',
    oktmo: '40000000',
    kladr: '7800000000000',
    streets: [
      'пр-кт Невский',
      'ул Садовая',
      'ул Гороховая',
      'пр-кт Литейный',
      'ул Марата',
      'ул Рубинштейна',
      'ул Большая Морская',
      'ул Малая Морская',
      'пр-кт Московский',
      'пр-кт Лиговский',
      'пр-кт Каменноостровский',
      'ул Кирочная',
      'ул Фурштатская',
      'ул Пушкинская',
      'пр-кт Владимирский',
      'пр-кт Загородный',
      'наб Английская',
      'пр-кт Гражданский',
      'пр-кт Просвещения',
      'ул Савушкина',
      'ул Седова',
      'пр-кт Коломяжский',
    ],
  },
  {
    region: 54,
    regionObject: { name: 'Новосибирская', type: 'обл' },
    name: 'Новосибирск',
    guid: '8dea00e3-9aab-4d8e-887c-ef2aaa546456',
    zip: 630000,
    okato: '50401000000',
    oktmo: '50701000',
    kladr: '5400000100000',
    streets: [
      'пр-кт Красный',
      'ул Ленина',
      'ул Советская',
      'ул Кирова',
      'ул Большевистская',
      'ул Мичурина',
      'ул Фрунзе',
      'ул Гоголя',
      'ул Дуси Ковальчук',
      'ул Богдана Хмельницкого',
      'пр-кт Карла Маркса',
      'ул Станиславского',
      'ул Титова',
      'ул Ватутина',
      'ул Писарева',
      'ул Каменская',
      'ул Серебренниковская',
      'ул Линейная',
    ],
  },
  {
    region: 66,
    regionObject: { name: 'Свердловская', type: 'обл' },
    name: 'Екатеринбург',
    guid: '2763c110-cb8b-416a-9dac-ad28a55b4402',
    zip: 620000,
    okato: '65401000000',
    oktmo: '65701000',
    kladr: '6600000100000',
    streets: [
      'пр-кт Ленина',
      'ул Малышева',
      'ул 8 Марта',
      'ул Куйбышева',
      'ул Вайнера',
      'ул Радищева',
      'ул Белинского',
      'ул Луначарского',
      'ул Мамина-Сибиряка',
      'ул Челюскинцев',
      'ул Сурикова',
      'пр-кт Космонавтов',
      'ул Бориса Ельцина',
      'ул Репина',
      'ул Татищева',
      'ул Щорса',
      'ул Амундсена',
      'ул Викулова',
    ],
  },
  {
    region: 16,
    regionObject: { name: 'Татарстан', type: 'Респ' },
    name: 'Казань',
    guid: '93b3df57-4c89-44df-ac42-96f05e9cd3b9',
    zip: 420000,
    okato: '92401000000',
    oktmo: '92701000',
    kladr: '1600000100000',
    streets: [
      'ул Баумана',
      'ул Пушкина',
      'ул Кремлевская',
      'ул Островского',
      'ул Петербургская',
      'ул Декабристов',
      'пр-кт Ямашева',
      'пр-кт Победы',
      'ул Чистопольская',
      'ул Карла Маркса',
      'ул Гвардейская',
      'ул Сибгата Хакима',
      'ул Вишневского',
      'ул Толстого',
      'пр-кт Фатыха Амирхана',
      'ул Адоратского',
      'ул Короленко',
      'ул Чуйкова',
    ],
  },
  {
    region: 52,
    regionObject: { name: 'Нижегородская', type: 'обл' },
    name: 'Нижний Новгород',
    guid: '555e7d61-d9a7-4ba6-9770-6caa8198c483',
    zip: 603000,
    okato: '22401000000',
    oktmo: '22701000',
    kladr: '5200000100000',
    streets: [
      'ул Большая Покровская',
      'ул Рождественская',
      'ул Минина',
      'ул Белинского',
      'ул Ванеева',
      'ул Горького',
      'ул Родионова',
      'пр-кт Гагарина',
      'пр-кт Ленина',
      'ул Алексеевская',
      'ул Варварская',
      'ул Пискунова',
      'ул Нестерова',
      'ул Бекетова',
      'ул Июльских Дней',
    ],
  },
  {
    region: 59,
    regionObject: { name: 'Пермский', type: 'край' },
    name: 'Пермь',
    guid: 'a309e4ce-2f36-4106-b1ca-53e0f48a6d95',
    zip: 614000,
    okato: '57401000000',
    oktmo: '57701000',
    kladr: '5900000100000',
    streets: [
      'ул Ленина',
      'пр-кт Комсомольский',
      'ул Сибирская',
      'ул Петропавловская',
      'ул Пушкина',
      'ул Куйбышева',
      'ул Монастырская',
      'ул Екатерининская',
      'ул Революции',
      'ул Попова',
      'ул Борчанинова',
      'ул Луначарского',
      'ул Газеты Звезда',
      'ул Крисанова',
    ],
  },
];

/** A house number as the register writes them: plain, with a letter, a fraction, a корпус or a строение. */
function houseOf(
  random: () => number,
  previous: number,
): { num: string; add1: string | null; add2: string | null; next: number } {
  const next = previous + 1 + Math.floor(random() * 9);
  const roll = random();
  if (roll < 0.12) return { num: `${next}а`, add1: null, add2: null, next };
  if (roll < 0.22) return { num: `${next}/${1 + Math.floor(random() * 30)}`, add1: null, add2: null, next };
  if (roll < 0.4) return { num: String(next), add1: String(1 + Math.floor(random() * 3)), add2: null, next };
  if (roll < 0.5) return { num: String(next), add1: String(1 + Math.floor(random() * 3)), add2: '1', next };
  return { num: String(next), add1: null, add2: null, next };
}

async function main(): Promise<void> {
  const root = path.join(PROJECT_ROOT, 'data', 'addresses', 'gar-sample');
  for (const entry of fs.readdirSync(root, { withFileTypes: true }))
    if (entry.isDirectory() || entry.name.endsWith('.XML') || entry.name === 'version.txt')
      fs.rmSync(path.join(root, entry.name), { recursive: true });
  await writeGarTypeLists(root);
  const random = seededRandom(49);
  let nextId = 1_000_000;
  for (const city of CITIES) {
    const writer = new GarRegionWriter(root, city.region);
    let cityId: number;
    let cityPath: string;
    if (city.regionObject) {
      const regionId = nextId++;
      writer.object({
        objectId: regionId,
        guid: guidOf(regionId),
        name: city.regionObject.name,
        typeName: city.regionObject.type,
        level: 1,
      });
      writer.adm(regionId, 0, String(regionId));
      writer.mun(regionId, 0, String(regionId));
      writer.param('object', regionId, 10, `${city.kladr.slice(0, 2)}00000000000`);
      cityId = nextId++;
      writer.object({ objectId: cityId, guid: city.guid, name: city.name, typeName: 'г', level: 5 });
      writer.adm(cityId, regionId, `${regionId}.${cityId}`);
      writer.mun(cityId, regionId, `${regionId}.${cityId}`, city.oktmo);
      cityPath = `${regionId}.${cityId}`;
    } else {
      // Moscow and Saint Petersburg are regions themselves (level 1)
      cityId = nextId++;
      writer.object({ objectId: cityId, guid: city.guid, name: city.name, typeName: 'г', level: 1 });
      writer.adm(cityId, 0, String(cityId));
      writer.mun(cityId, 0, String(cityId), city.oktmo);
      cityPath = String(cityId);
    }
    writer.param('object', cityId, 5, String(city.zip));
    writer.param('object', cityId, 6, city.okato);
    writer.param('object', cityId, 7, city.oktmo);
    writer.param('object', cityId, 10, city.kladr);
    city.streets.forEach((street, streetIndex) => {
      const [typeName, ...words] = street.split(' ');
      const streetId = nextId++;
      writer.object({ objectId: streetId, guid: guidOf(streetId), name: words.join(' '), typeName, level: 8 });
      writer.adm(streetId, cityId, `${cityPath}.${streetId}`);
      writer.param('object', streetId, 10, `${city.kladr.slice(0, 11)}${String(streetIndex + 1).padStart(4, '0')}00`);
      const postcode = String(city.zip + 1 + Math.floor(random() * 120));
      let number = 0;
      const houses = 2 + Math.floor(random() * 3);
      for (let h = 0; h < houses; h++) {
        const house = houseOf(random, number);
        number = house.next;
        const houseId = nextId++;
        writer.house({
          objectId: houseId,
          guid: guidOf(houseId),
          houseNum: house.num,
          addNum1: house.add1,
          addNum2: house.add2,
        });
        writer.adm(houseId, streetId, `${cityPath}.${streetId}.${houseId}`);
        writer.param('house', houseId, 5, postcode);
        // a few flats in the first house of every third street
        if (h === 0 && streetIndex % 3 === 0)
          for (const flatNumber of ['1', '2', '15']) {
            const flatId = nextId++;
            writer.flat({ objectId: flatId, guid: guidOf(flatId), number: flatNumber });
            writer.adm(flatId, houseId, `${cityPath}.${streetId}.${houseId}.${flatId}`);
          }
      }
    });
    await writer.close();
  }
  process.stdout.write(`Wrote ${root}\n`);
}

await main();

/**
 * A country in the register's format (ГАР), generated deterministically (seeded): regions, towns,
 * streets with realistic Russian names, houses (with корпус, строение, letters and fractions),
 * flats in some of them, postcodes; both hierarchies for every object, as the register has them.
 * For the import bench (bench/address-import.ts); written as a folder, streamed, any size.
 */
import { seededRandom } from '../../src/platform/seeded-random.js';
import { GarRegionWriter, guidOf, writeGarTypeLists } from './gar-writer.js';

const STREET_NAMES = [
  'Ленина',
  'Советская',
  'Мира',
  'Молодежная',
  'Центральная',
  'Школьная',
  'Лесная',
  'Садовая',
  'Набережная',
  'Заречная',
  'Гагарина',
  'Пушкина',
  'Кирова',
  'Октябрьская',
  'Комсомольская',
  'Первомайская',
  'Полевая',
  'Зеленая',
  'Новая',
  'Строителей',
  'Пролетарская',
  'Южная',
  'Северная',
  'Луговая',
  'Чапаева',
  'Победы',
  'Свердлова',
  'Калинина',
  'Горького',
  'Юбилейная',
  'Солнечная',
  'Дзержинского',
  'Фрунзе',
  'Карла Маркса',
  'Маяковского',
  'Рабочая',
  'Мичурина',
  'Лермонтова',
  'Колхозная',
  'Энергетиков',
  'Вокзальная',
  'Трудовая',
  'Космонавтов',
  'Суворова',
  'Чехова',
  'Железнодорожная',
  'Весенняя',
  'Крупской',
  'Нагорная',
  'Береговая',
];
const STREET_TYPES = ['ул', 'ул', 'ул', 'ул', 'пер', 'пр-кт', 'б-р', 'проезд', 'ш', 'наб'];
const TOWN_ROOTS = [
  'Березов',
  'Покров',
  'Никольск',
  'Сосновск',
  'Заозерск',
  'Краснояр',
  'Светлогорск',
  'Озерск',
  'Каменск',
  'Лесогорск',
  'Волжск',
  'Приморск',
  'Железногорск',
  'Славянск',
  'Вознесенск',
  'Михайловск',
  'Андреевск',
];

export interface GeneratedCountry {
  regions: number;
  towns: number;
  streets: number;
  houses: number;
  flats: number;
}

/** Writes `houses` houses over regions of ~100,000 houses each under `root`; the same arguments give the same files. */
export async function generateGarCountry(root: string, houses: number, seed = 49): Promise<GeneratedCountry> {
  const random = seededRandom(seed);
  await writeGarTypeLists(root);
  const housesPerRegion = 100_000;
  const regionCount = Math.max(1, Math.ceil(houses / housesPerRegion));
  const totals: GeneratedCountry = { regions: regionCount, towns: 0, streets: 0, houses: 0, flats: 0 };
  let nextId = 10_000_000;
  for (let r = 0; r < regionCount; r++) {
    const region = r + 1;
    const writer = new GarRegionWriter(root, region);
    const regionId = nextId++;
    writer.object({
      objectId: regionId,
      guid: guidOf(regionId),
      name: `Генерированная ${region}`,
      typeName: 'обл',
      level: 1,
    });
    writer.adm(regionId, 0, String(regionId));
    writer.mun(regionId, 0, String(regionId));
    const target = Math.min(housesPerRegion, houses - totals.houses);
    let inRegion = 0;
    let town = 0;
    while (inRegion < target) {
      const townId = nextId++;
      town++;
      totals.towns++;
      const townName = `${TOWN_ROOTS[town % TOWN_ROOTS.length]}${town > TOWN_ROOTS.length ? `-${Math.ceil(town / TOWN_ROOTS.length)}` : ''}`;
      writer.object({ objectId: townId, guid: guidOf(townId), name: townName, typeName: 'г', level: 5 });
      writer.adm(townId, regionId, `${regionId}.${townId}`);
      writer.mun(
        townId,
        regionId,
        `${regionId}.${townId}`,
        `${String(region).padStart(2, '0')}7${String(town).padStart(5, '0')}`,
      );
      const townPostcode = 100_000 + ((region * 7919 + town * 104_729) % 899_000);
      const streets = 20 + Math.floor(random() * 80);
      for (let s = 0; s < streets && inRegion < target; s++) {
        const streetId = nextId++;
        totals.streets++;
        const name = `${STREET_NAMES[(s + town) % STREET_NAMES.length]}${s >= STREET_NAMES.length ? ` ${Math.floor(s / STREET_NAMES.length) + 1}-я` : ''}`;
        writer.object({
          objectId: streetId,
          guid: guidOf(streetId),
          name,
          typeName: STREET_TYPES[s % STREET_TYPES.length],
          level: 8,
        });
        const streetPath = `${regionId}.${townId}.${streetId}`;
        writer.adm(streetId, townId, streetPath);
        writer.mun(streetId, townId, streetPath);
        const postcode = String(townPostcode + (s % 40));
        const count = Math.min(10 + Math.floor(random() * 80), target - inRegion);
        let number = 0;
        for (let h = 0; h < count; h++) {
          number += 1 + Math.floor(random() * 3);
          const roll = random();
          const houseId = nextId++;
          writer.house({
            objectId: houseId,
            guid: guidOf(houseId),
            houseNum:
              roll < 0.05 ? `${number}/${1 + Math.floor(random() * 20)}` : roll < 0.12 ? `${number}а` : String(number),
            addNum1: roll > 0.8 ? String(1 + Math.floor(random() * 4)) : null,
            addNum2: roll > 0.93 ? '1' : null,
          });
          const housePath = `${streetPath}.${houseId}`;
          writer.adm(houseId, streetId, housePath);
          writer.mun(houseId, streetId, housePath);
          writer.param('house', houseId, 5, postcode);
          // one house in twenty has flats in the register (most of the country's flats are not in it)
          if (random() < 0.05)
            for (let f = 1; f <= 4; f++) {
              const flatId = nextId++;
              writer.flat({ objectId: flatId, guid: guidOf(flatId), number: String(f) });
              writer.adm(flatId, houseId, `${housePath}.${flatId}`);
              totals.flats++;
            }
          inRegion++;
          totals.houses++;
        }
        await writer.settle();
      }
    }
    await writer.close();
  }
  return totals;
}

/**
 * Pickup points of the built-in networks, generated deterministically (no public list of
 * them exists): placed around each covered locality's real coordinates, with addresses,
 * schedules, options and limits from the company's card. Same inputs, same points.
 */
import type { Locality } from './types.js';
import { readDataFile } from '../platform/reference-data.js';
import { seededRandom } from '../platform/seeded-random.js';
import type { CompanyFile, PointLimits } from './tariff/rate-card.js';

export interface WorkingHours {
  from: string;
  to: string;
}

export interface DeliveryPoint {
  id: number;
  companyId: number;
  localityId: number;
  /** 1 pickup point, 2 parcel locker, 3 post office */
  type: 1 | 2 | 3;
  name: string;
  latitude: number;
  longitude: number;
  description: string | null;
  address: string;
  zipCode: string;
  schedule: Array<WorkingHours | null>;
  district: string | null;
  metro: string[] | null;
  photos: string[] | null;
  fittingAvailable: boolean;
  checkupAvailable: boolean;
  partialBuyoutAvailable: boolean;
  cashPaymentAvailable: boolean;
  cardPaymentAvailable: boolean;
  limits: PointLimits;
  /** Points at one address or too close to tell apart on a map share it. */
  union: string;
  /** A real company's own code of a point imported from its directory (what its registration names). */
  code?: string;
}

const STREETS = [
  'ул. Ленина',
  'ул. Советская',
  'ул. Мира',
  'пр-т Победы',
  'ул. Гагарина',
  'ул. Пушкина',
  'ул. Садовая',
  'ул. Молодёжная',
  'ул. Лесная',
  'ул. Школьная',
  'ул. Центральная',
  'ул. Кирова',
  'ул. Октябрьская',
  'ул. Комсомольская',
  'ул. Первомайская',
  'ул. Заводская',
  'ул. Набережная',
  'пр-т Ленина',
  'ул. Чехова',
  'ул. Горького',
  'ул. Строителей',
  'ул. Маяковского',
  'ул. Южная',
  'бул. Гоголя',
  'ул. Лермонтова',
  'ул. Свободы',
  'ул. Карла Маркса',
  'ул. Московская',
  'ул. Пролетарская',
  'ул. Дзержинского',
  'ул. Фрунзе',
  'ул. Чапаева',
  'ул. Суворова',
  'ул. Новая',
  'ул. Полевая',
  'ул. Зелёная',
];
const DISTRICTS = [
  'Центральный',
  'Ленинский',
  'Кировский',
  'Октябрьский',
  'Советский',
  'Заводской',
  'Железнодорожный',
  'Фрунзенский',
];
const METRO: Record<number, string[]> = {
  524901: [
    'Тверская',
    'Пушкинская',
    'Арбатская',
    'Киевская',
    'Курская',
    'Таганская',
    'Белорусская',
    'Маяковская',
    'Сокол',
    'Аэропорт',
    'Динамо',
    'Войковская',
    'Речной вокзал',
    'Щукинская',
    'Тушинская',
    'Бауманская',
    'Электрозаводская',
    'Семёновская',
    'Измайловская',
    'Первомайская',
    'Выхино',
    'Кузьминки',
    'Текстильщики',
    'Марьино',
    'Братиславская',
    'Юго-Западная',
    'Беляево',
    'Тёплый Стан',
    'Медведково',
    'Бабушкинская',
    'ВДНХ',
    'Алексеевская',
    'Рижская',
    'Сокольники',
    'Преображенская площадь',
    'Черкизовская',
  ],
  498817: [
    'Невский проспект',
    'Гостиный двор',
    'Маяковская',
    'Площадь Восстания',
    'Владимирская',
    'Технологический институт',
    'Московская',
    'Звёздная',
    'Купчино',
    'Приморская',
    'Василеостровская',
    'Петроградская',
    'Чёрная речка',
    'Пионерская',
    'Озерки',
    'Проспект Просвещения',
    'Ладожская',
    'Новочеркасская',
    'Дыбенко',
    'Автово',
    'Кировский завод',
    'Нарвская',
  ],
  1496747: [
    'Площадь Ленина',
    'Октябрьская',
    'Речной вокзал',
    'Студенческая',
    'Красный проспект',
    'Гагаринская',
    'Заельцовская',
    'Маршала Покрышкина',
  ],
  1486209: [
    'Площадь 1905 года',
    'Динамо',
    'Уральская',
    'Машиностроителей',
    'Геологическая',
    'Чкаловская',
    'Ботаническая',
  ],
  551487: [
    'Кремлёвская',
    'Площадь Тукая',
    'Суконная слобода',
    'Аметьево',
    'Горки',
    'Проспект Победы',
    'Козья слобода',
    'Яшьлек',
  ],
  520555: [
    'Московская',
    'Горьковская',
    'Ленинская',
    'Заречная',
    'Двигатель Революции',
    'Пролетарская',
    'Буревестник',
    'Бурнаковская',
  ],
};

const SCHEDULES: Array<Array<WorkingHours | null>> = [
  [...Array(5).fill({ from: '10:00', to: '20:00' }), { from: '10:00', to: '18:00' }, null],
  Array(7).fill({ from: '09:00', to: '21:00' }),
  [...Array(6).fill({ from: '11:00', to: '20:00' }), { from: '11:00', to: '17:00' }],
];
const LOCKER_SCHEDULE: Array<WorkingHours | null> = Array(7).fill({ from: '00:00', to: '24:00' });
const POST_SCHEDULE: Array<WorkingHours | null> = [
  ...Array(5).fill({ from: '08:00', to: '20:00' }),
  { from: '09:00', to: '18:00' },
  null,
];
const DESCRIPTIONS = [
  'Вход со стороны двора',
  'В торговом центре, 1 этаж',
  'Рядом с остановкой',
  'В продуктовом магазине',
  'Отдельный вход, вывеска у двери',
];
const LOCKER_DESCRIPTIONS = [
  'В холле супермаркета',
  'У входа в торговый центр',
  'В вестибюле бизнес-центра',
  'На территории АЗС',
];

export const NO_POINT_LIMITS: PointLimits = {
  maxSizeA: null,
  maxSizeB: null,
  maxSizeC: null,
  maxSizeSum: null,
  minWeight: null,
  maxWeight: null,
  maxCod: null,
  maxVolume: null,
};

function pointCount(company: CompanyFile, locality: Locality): number {
  const network = company.points;
  if (!network) return 0;
  const exact = locality.population / network.perPopulation;
  const count = network.postOffices
    ? Math.max(1, Math.round(exact))
    : exact >= 0.5
      ? Math.max(1, Math.round(exact))
      : 0;
  return Math.min(count, network.max);
}

export function covers(
  company: Pick<CompanyFile, 'coverage'>,
  locality: Pick<Locality, 'population' | 'regionCode'>,
): boolean {
  if (locality.population < company.coverage.minPopulation) return false;
  return !company.coverage.regions || company.coverage.regions.includes(locality.regionCode);
}

/** Every point of every network; ids are companyId * 10^7 + a running number. */
/**
 * A plausible postal code for a point of a place whose own code GeoNames does not give: the
 * region's three digits and three of its own (the contract's zipCode is a string, never null).
 * A random stream of its own, so the other generated fields stay as they were.
 */
function regionalPostIndex(prefixes: Record<string, string>, locality: Locality, sequence: number): string {
  const prefix = prefixes[locality.region] ?? '000';
  const digits = Math.floor(seededRandom(hashText(`${locality.id}|zip|${sequence}`))() * 1000);
  return `${prefix}${String(digits).padStart(3, '0')}`;
}

export function generatePoints(companies: CompanyFile[], localities: Locality[]): DeliveryPoint[] {
  const postalPrefixes = readDataFile<Record<string, string>>('localities/ru-postal-prefixes.json');
  const all: DeliveryPoint[] = [];
  for (const company of companies) {
    const network = company.points;
    if (!network) continue;
    let sequence = 0;
    for (const locality of localities) {
      if (!covers(company, locality)) continue;
      const count = pointCount(company, locality);
      const next = seededRandom(company.id * 7919 + locality.id);
      const radiusKm = 1.2 + Math.sqrt(locality.population) / 170;
      const streets = STREETS.slice(0, Math.min(STREETS.length, 6 + Math.floor(Math.sqrt(locality.population) / 60)));
      const houses = 20 + Math.floor(Math.sqrt(locality.population) / 8);
      for (let i = 0; i < count; i++) {
        sequence += 1;
        const type: 1 | 2 | 3 = network.postOffices ? 3 : next() < network.lockerShare ? 2 : 1;
        const street = streets[Math.floor(next() * streets.length)];
        const house = 1 + Math.floor(next() * houses);
        const spot = seededRandom(hashText(`${locality.id}|${street}|${house}`));
        const angle = spot() * 2 * Math.PI;
        const distance = radiusKm * Math.sqrt(spot());
        const latitude = locality.latitude + (distance / 111.2) * Math.sin(angle);
        const longitude =
          locality.longitude + (distance / (111.2 * Math.cos((locality.latitude * Math.PI) / 180))) * Math.cos(angle);
        const address = `${locality.name}, ${street}, д. ${house}`;
        const metroLine = METRO[locality.id];
        const metro = metroLine ? [metroLine[Math.floor(spot() * metroLine.length)]] : null;
        const district =
          locality.population >= 300000
            ? `р-н ${DISTRICTS[Math.floor(((angle / (2 * Math.PI)) * DISTRICTS.length) % DISTRICTS.length)]}`
            : null;
        const limits = company.pointLimits?.[String(type)] ?? NO_POINT_LIMITS;
        const idNumber = company.id * 10_000_000 + sequence;
        const postIndex = locality.zip
          ? String(Number(locality.zip) + Math.floor(next() * 90)).padStart(6, '0')
          : regionalPostIndex(postalPrefixes, locality, sequence);
        all.push({
          id: idNumber,
          companyId: company.id,
          localityId: locality.id,
          type,
          name:
            type === 3
              ? `Отделение почтовой связи ${postIndex ?? sequence}`
              : type === 2
                ? lockerName(company.name, sequence)
                : `${company.name}, ${street}, ${house}`,
          latitude: Math.round(latitude * 1e6) / 1e6,
          longitude: Math.round(longitude * 1e6) / 1e6,
          description:
            type === 2
              ? LOCKER_DESCRIPTIONS[Math.floor(next() * LOCKER_DESCRIPTIONS.length)]
              : type === 3
                ? null
                : DESCRIPTIONS[Math.floor(next() * DESCRIPTIONS.length)],
          address,
          zipCode: postIndex,
          schedule:
            type === 2
              ? LOCKER_SCHEDULE
              : type === 3
                ? POST_SCHEDULE
                : SCHEDULES[Math.floor(next() * SCHEDULES.length)],
          district,
          metro,
          photos: null,
          fittingAvailable: type === 1 && next() < network.fitting,
          checkupAvailable: type !== 2 && next() < network.checkup,
          partialBuyoutAvailable: type === 1 && next() < network.partialBuyout,
          cashPaymentAvailable: type !== 2 && next() < network.cash,
          cardPaymentAvailable: next() < network.card,
          limits,
          union: '',
        });
      }
    }
  }
  assignUnions(all);
  return all;
}

/**
 * A parcel locker's name: "Постамат <company> №n", or the company's name and the number when
 * that name already says "Постамат" (a network of lockers only): every screen and sticker
 * shows the name as it is, so it must not say the word twice.
 */
function lockerName(companyName: string, sequence: number): string {
  return /^постамат/i.test(companyName) ? `${companyName} №${sequence}` : `Постамат ${companyName} №${sequence}`;
}

/** One marker per address, and per ~50 m cell of the map. */
function assignUnions(points: DeliveryPoint[]): void {
  const byAddress = new Map<string, string>();
  const byCell = new Map<string, string>();
  for (const point of points) {
    const addressKey = point.address.toLowerCase();
    const cellKey = `${Math.round(point.latitude / 0.00045)}:${Math.round(point.longitude / 0.0008)}`;
    const union = byAddress.get(addressKey) ?? byCell.get(cellKey) ?? `u${point.id.toString(36)}`;
    byAddress.set(addressKey, union);
    byCell.set(cellKey, union);
    point.union = union;
  }
}

function hashText(text: string): number {
  let hash = 2166136261;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 16777619);
  return hash >>> 0;
}

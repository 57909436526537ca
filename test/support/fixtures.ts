/** Valid request bodies to start tests from; override what a test is about. */
import { addDays, todayIn } from '../../src/platform/clock.js';

const WEEKDAYS = { from: '09:00', to: '18:00' };

export function warehouseBody(overrides: Record<string, unknown> = {}) {
  return {
    name: 'Склад на Складской',
    type: 1,
    address: {
      street: 'Складская улица',
      house: '7',
      bulk: null,
      flat: null,
      city: {
        countryCode: 'RU',
        name: 'Москва',
        fias: '0c5b2444-70a0-4932-980c-b4dc0d3f02b5',
        type: 'г',
        region: 'Москва',
        area: null,
      },
    },
    contact: { name: 'Иван Петров', position: 'Кладовщик', phone: '+79161234567' },
    schedule: [WEEKDAYS, WEEKDAYS, WEEKDAYS, WEEKDAYS, WEEKDAYS, null, null],
    holidays: [],
    markCompletedOrders: false,
    ...overrides,
  };
}

export function shopBody(warehouseId: number, overrides: Record<string, unknown> = {}) {
  return {
    name: 'Мой магазин',
    brand: 'МойБренд',
    warehouse: { id: warehouseId },
    platform: 'woocommerce',
    ...overrides,
  };
}

export function boxBody(overrides: Record<string, unknown> = {}) {
  return { name: 'Коробка S', dimensions: { width: 20, height: 10, length: 30 }, weight: 0.15, ...overrides };
}

export function productBody(overrides: Record<string, unknown> = {}) {
  return {
    name: 'Футболка красная',
    nameEn: 'Red T-shirt',
    vendorCode: 'TSHIRT-RED',
    vat: 20,
    priceDeclared: 1500,
    priceCod: 1990.5,
    weight: 0.25,
    volume: 0.0015,
    dimensions: { width: 20, height: 3, length: 25 },
    expirityDays: 365,
    photo: 'https://example.com/tshirt.jpg',
    tnved: '6109100000',
    barcodes: ['4601234567890', '4601234567891'],
    brand: 'МойБренд',
    producingCountry: 'RU',
    markCodeRequired: false,
    batchAccounting: true,
    bindings: [],
    ...overrides,
  };
}

export function kitBody(shopId: number, productIds: number[], overrides: Record<string, unknown> = {}) {
  return {
    shopId,
    name: 'Набор футболок',
    vendorCode: 'KIT-1',
    discount: 5,
    products: productIds.map((id, index) => ({ id, count: index + 1 })),
    ...overrides,
  };
}

/** The next Monday-to-Friday day after `after` (today in Moscow): the test warehouses work on weekdays. */
export function nextWorkday(after = todayIn('Europe/Moscow')): string {
  let day = addDays(after, 1);
  while ([0, 6].includes(new Date(`${day}T00:00:00Z`).getUTCDay())) day = addDays(day, 1);
  return day;
}

/** Realistic inputs for the document renderers (tests and bench/documents.ts). */
import type {
  ActOrder,
  AssemblyStatementInput,
  GoodsLine,
  HandoverActInput,
  StickerOrder,
  SupplyActInput,
} from '../../src/documents/types.js';

const RECIPIENTS = [
  'Иванова Мария Сергеевна',
  'Петров Пётр Ильич',
  'Сидоров Семён',
  'Ёлкина Юлия Эдуардовна',
  'Smith John',
];
const COMPANIES = ['СДЭК', 'Почта России', 'Боксберри', 'DPD'];

export function trackNumberOf(index: number): string {
  return `TRK${String(7_000_000 + index).padStart(9, '0')}RU`;
}

/** Order `index`: alternating door and point delivery, COD on odd orders, two places on every third. */
export function sampleStickerOrder(index: number): StickerOrder {
  return {
    orderId: 10_000 + index,
    cmsId: `WC-${5_000 + index}`,
    trackNumber: trackNumberOf(index),
    company: { name: COMPANIES[index % COMPANIES.length], tariff: 'Посылка склад-дверь' },
    sender: {
      name: 'Петров Пётр',
      legalName: 'ООО «Ромашка»',
      phone: '+7 495 000-00-00',
      address: { zipCode: '101000', city: 'Москва', street: 'ул. Мясницкая', house: '1' },
    },
    recipient: {
      name: RECIPIENTS[index % RECIPIENTS.length],
      phone: `+7 900 ${String(1_000_000 + index).slice(1, 4)}-45-67`,
    },
    destination:
      index % 2 === 0
        ? {
            kind: 'address',
            address: {
              zipCode: '190000',
              region: 'Ленинградская область',
              city: 'Санкт-Петербург',
              street: 'Невский проспект',
              house: '28',
              bulk: '2',
              flat: String(index),
            },
          }
        : {
            kind: 'point',
            point: {
              id: 77,
              name: 'Пункт выдачи «Невский»',
              address: 'Санкт-Петербург, Невский пр., 100',
              code: 'SPB-100',
            },
          },
    weightKg: 1.25 + (index % 5) * 0.5,
    places: index % 3 === 0 ? [{ weightKg: 0.75 }, { weightKg: 0.5 + (index % 5) * 0.5 }] : null,
    codKopecks: index % 2 === 1 ? 150_000 + index * 100 : 0,
    comment: index % 4 === 0 ? 'Хрупкое, не кантовать' : null,
  };
}

export function sampleActOrder(index: number): ActOrder {
  return {
    orderId: 10_000 + index,
    cmsId: `WC-${5_000 + index}`,
    trackNumber: trackNumberOf(index),
    recipientName: RECIPIENTS[index % RECIPIENTS.length],
    city: index % 2 === 0 ? 'Санкт-Петербург' : 'Казань',
    places: 1 + (index % 3),
    weightKg: 0.1 + (index % 7) * 0.2,
    declaredValueKopecks: 250_000 + index,
    codKopecks: index % 2 === 1 ? 99_900 : 0,
  };
}

export function sampleHandoverAct(orders: number): HandoverActInput {
  return {
    number: 17,
    date: '2026-11-21',
    company: { name: 'СДЭК' },
    sender: { name: 'Петров Пётр', legalName: 'ООО «Ромашка»', phone: '+7 495 000-00-00' },
    warehouse: {
      name: 'Склад на Мясницкой',
      address: { zipCode: '101000', city: 'Москва', street: 'ул. Мясницкая', house: '1' },
    },
    orders: Array.from({ length: orders }, (_, index) => sampleActOrder(index)),
  };
}

export const SAMPLE_GOODS: GoodsLine[] = [
  { name: 'Футболка хлопковая белая, размер M', vendorCode: 'TS-001-M', barcodes: ['4601234567890'], count: 2 },
  { name: 'Кружка керамическая «Утро»', vendorCode: 'MUG-7', barcodes: ['4600000000017', '2000000000015'], count: 1 },
];

export function sampleAssemblyStatement(orders: number): AssemblyStatementInput {
  return {
    number: 3,
    date: '2026-11-21',
    owner: 'Магазин «Ромашка»',
    warehouse: { name: 'Склад на Мясницкой', address: 'Москва, ул. Мясницкая, 1' },
    orders: Array.from({ length: orders }, (_, index) => ({
      orderId: 10_000 + index,
      cmsId: `WC-${5_000 + index}`,
      trackNumber: trackNumberOf(index),
      recipientName: RECIPIENTS[index % RECIPIENTS.length],
      company: 'СДЭК',
      goods: SAMPLE_GOODS,
      boxes: [{ name: 'Коробка S', dimensions: { length: 30, width: 20, height: 10 }, count: 1 }],
      commentForAssembly: index % 2 === 0 ? 'Положить подарочную открытку' : null,
      documentsForWarehouse: index % 2 === 1 ? 'Счёт-фактура в коробку' : null,
    })),
  };
}

export function sampleSupplyAct(): SupplyActInput {
  return {
    supplyId: 9,
    date: '2026-11-21',
    type: 'pallets',
    places: 2,
    sender: { name: 'Ромашка', legalName: 'ООО «Ромашка»', phone: '+7 495 000-00-00' },
    warehouse: { name: 'Фулфилмент Подольск', address: { city: 'Подольск', street: 'ул. Складская', house: '5' } },
    goods: SAMPLE_GOODS,
    comment: 'Паллеты обмотаны стрейч-плёнкой',
  };
}

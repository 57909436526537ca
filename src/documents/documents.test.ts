/**
 * The renderers' output opened with real tools: page count and size (pdfinfo), the text a
 * person reads (pdftotext, Cyrillic included), the barcodes a scanner reads (zbarimg).
 */
import { describe, expect, it } from 'vitest';
import { pdfBarcodes, pdfInfo, pdfText, pdfToolsMissing, readZip } from '../../test/support/pdf-tools.js';
import {
  sampleAssemblyStatement,
  sampleHandoverAct,
  sampleStickerOrder,
  sampleSupplyAct,
  trackNumberOf,
} from '../../test/support/document-samples.js';
import { code128 } from './barcode.js';
import { formatAddress } from './format.js';
import {
  renderAssemblyStatement,
  renderHandoverAct,
  renderStickers,
  renderStickerZip,
  renderSupplyAct,
  renderWaybill,
  STICKER_FORMATS,
} from './index.js';
import type { StickerFormat, StickerOrder } from './types.js';

const withTools = it.skipIf(pdfToolsMissing !== '');

/** Page sizes in points as pdfinfo prints them. */
const PAGE_POINTS: Record<StickerFormat, [number, number]> = {
  1: [595.276, 841.89],
  2: [283.465, 425.197],
  3: [212.598, 340.157],
};

const orders: StickerOrder[] = Array.from({ length: 6 }, (_, index) => sampleStickerOrder(index));
/** Orders 0 and 3 have two places each: 8 labels. */
const labelTracks = orders.flatMap((order) =>
  Array.from({ length: order.places?.length || 1 }, () => order.trackNumber),
);

function expectPageSizes(sizes: Array<[number, number]>, expected: [number, number]): void {
  for (const [width, height] of sizes) {
    expect(width).toBeCloseTo(expected[0], 1);
    expect(height).toBeCloseTo(expected[1], 1);
  }
}

describe('stickers', () => {
  it('are real PDFs with one label per place', async () => {
    for (const format of [1, 2, 3] as const) {
      const pdf = await renderStickers(orders, format);
      expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect(pdf.subarray(-6).toString('latin1')).toContain('%%EOF');
    }
  });

  withTools(`have the page count and page size of each format${pdfToolsMissing}`, async () => {
    for (const format of [1, 2, 3] as const) {
      const info = pdfInfo(await renderStickers(orders, format));
      expect(info.pages, `format ${format}`).toBe(
        format === 1 ? Math.ceil(labelTracks.length / 4) : labelTracks.length,
      );
      expect(info.sizes).toHaveLength(info.pages);
      expectPageSizes(info.sizes, PAGE_POINTS[format]);
    }
  });

  withTools(
    `carry sender, recipient, address or point, company, ids, places, weight and COD as text${pdfToolsMissing}`,
    async () => {
      for (const format of [1, 2, 3] as const) {
        const text = pdfText(await renderStickers(orders, format));
        for (const order of orders) {
          expect(text, `format ${format}`).toContain(order.trackNumber);
          expect(text).toContain(`Заказ № ${order.orderId}`);
          expect(text).toContain(order.cmsId as string);
        }
        expect(text).toContain('Иванова Мария Сергеевна');
        expect(text).toContain('Ёлкина Юлия Эдуардовна');
        expect(text).toContain('Получатель');
        expect(text).toContain('Отправитель');
        expect(text).toContain('ООО «Ромашка»');
        expect(text).toContain('СДЭК');
        expect(text).toContain('Почта России');
        expect(text).toContain('Санкт-Петербург');
        expect(text).toContain('Пункт выдачи «Невский»');
        expect(text).toContain('Место 1/2');
        expect(text).toContain('Место 2/2');
        expect(text).toContain('Место 1/1');
        // Order 1: COD 1 501,00 ₽; order 0: prepaid, weight of its places shown.
        expect(text).toContain('Наложенный платёж: 1 501,00 ₽');
        expect(text).toContain('Оплачено');
        expect(text).toContain('Вес места: 0,75 кг');
        expect(text).toContain('Вес: 1,75 кг');
      }
    },
  );

  withTools(
    `barcodes decode to the track numbers, label by label, at a thermal printer's 203 dpi${pdfToolsMissing}`,
    { timeout: 120_000 },
    async () => {
      // zbar reports the same symbol once per page: compare the distinct tracks of each sheet.
      const distinct = (tracks: string[]): string[] => [...new Set(tracks)].sort();
      const a4 = pdfBarcodes(await renderStickers(orders, 1));
      expect(a4.map(distinct)).toEqual([distinct(labelTracks.slice(0, 4)), distinct(labelTracks.slice(4, 8))]);
      for (const format of [2, 3] as const) {
        expect(pdfBarcodes(await renderStickers(orders, format)), `format ${format}`).toEqual(
          labelTracks.map((track) => [track]),
        );
      }
    },
  );

  withTools(
    `never overflow a label: long values are cut, pages stay one per label${pdfToolsMissing}`,
    { timeout: 120_000 },
    async () => {
      const long = `${'Очень длинное значение '.repeat(20)}${'Ж'.repeat(300)}`;
      const crowded: StickerOrder = {
        ...sampleStickerOrder(1),
        recipient: { name: long, phone: '+7 900 000-00-00', legalName: long },
        sender: { name: long, legalName: long, phone: long, address: long },
        destination: { kind: 'point', point: { name: long, address: long } },
        company: { name: long, tariff: long },
        comment: long,
      };
      const other: StickerOrder = { ...crowded, trackNumber: trackNumberOf(99) };
      for (const format of [1, 2, 3] as const) {
        const pdf = await renderStickers([crowded, other], format);
        expect(pdfInfo(pdf).pages, `format ${format}`).toBe(format === 1 ? 1 : 2);
        expect(pdfBarcodes(pdf).flat().sort()).toEqual([crowded.trackNumber, other.trackNumber].sort());
      }
    },
  );

  withTools(`print a track number Code128 cannot carry as text only${pdfToolsMissing}`, async () => {
    const cyrillicTrack: StickerOrder = { ...sampleStickerOrder(2), trackNumber: 'ТРЕК-1' };
    const pdf = await renderStickers([cyrillicTrack], 2);
    expect(pdfText(pdf)).toContain('ТРЕК-1');
    expect(pdfBarcodes(pdf)).toEqual([[]]);
  });

  withTools(`come as a ZIP of the three formats${pdfToolsMissing}`, async () => {
    const entries = readZip(await renderStickerZip(orders));
    expect([...entries.keys()].sort()).toEqual(['stickers-100x150.pdf', 'stickers-75x120.pdf', 'stickers-a4.pdf']);
    for (const format of [1, 2, 3] as const) {
      const pdf = entries.get(STICKER_FORMATS[format].fileName) as Buffer;
      const info = pdfInfo(pdf);
      expectPageSizes(info.sizes, PAGE_POINTS[format]);
      expect(pdfText(pdf)).toContain(trackNumberOf(5));
    }
  });

  it('encode Code128 only for printable ASCII', () => {
    expect(code128('TRK000000001RU')?.modules).toBeGreaterThan(50);
    expect(code128('ТРЕК')).toBeNull();
    expect(code128('')).toBeNull();
  });
});

describe('handover act and waybill', () => {
  withTools(`list every order with its track number, totals and signatures${pdfToolsMissing}`, async () => {
    const act = sampleHandoverAct(5);
    const pdf = await renderHandoverAct(act);
    const info = pdfInfo(pdf);
    expect(info.pages).toBe(1);
    expectPageSizes(info.sizes, PAGE_POINTS[1]);
    const text = pdfText(pdf);
    expect(text).toContain('Акт приёма-передачи отправлений № 17 от 21.11.2026');
    expect(text).toContain('Склад на Мясницкой, 101000, Москва, ул. Мясницкая, д. 1');
    for (const order of act.orders) expect(text).toContain(order.trackNumber);
    expect(text).toContain('Ёлкина Юлия Эдуардовна');
    // Places 1+2+3+1+2, weights 0.1+0.3+0.5+0.7+0.9 kg, COD on two orders.
    expect(text).toContain('Итого 5 заказ(ов)');
    expect(text).toContain('9 2,5 кг 12 500,10 ₽ 1 998,00 ₽');
    expect(text).toContain('Всего передано заказов: 5, мест: 9, общий вес: 2,5 кг.');
    expect(text).toContain('Сдал (отправитель)');
    expect(text).toContain('Принял (СДЭК)');
  });

  withTools(`break long lists across pages, repeating the table header${pdfToolsMissing}`, async () => {
    const act = sampleHandoverAct(150);
    const pdf = await renderHandoverAct(act);
    const info = pdfInfo(pdf);
    expect(info.pages).toBeGreaterThan(2);
    const text = pdfText(pdf);
    expect(text.split('Трек-номер').length - 1).toBe(info.pages);
    for (const order of act.orders) expect(text).toContain(order.trackNumber);
    expect(text).toContain('150 заказ(ов)');
  });

  withTools(`waybill carries the bag, box and pallet counts${pdfToolsMissing}`, async () => {
    const pdf = await renderWaybill({ ...sampleHandoverAct(3), containers: { bags: 3, pallets: 1 } });
    const text = pdfText(pdf);
    expect(text).toContain('Транспортная накладная № 17 от 21.11.2026');
    expect(text).toContain('Мешков: 3');
    expect(text).toContain('Паллет: 1');
    expect(text).not.toContain('Коробов');
    expect(text).toContain(trackNumberOf(2));
  });
});

describe('assembly statement and supply act', () => {
  withTools(`list per order the goods to pick, boxes and comments${pdfToolsMissing}`, async () => {
    const statement = sampleAssemblyStatement(12);
    const pdf = await renderAssemblyStatement(statement);
    const info = pdfInfo(pdf);
    expect(info.pages).toBeGreaterThan(1);
    expectPageSizes(info.sizes, PAGE_POINTS[1]);
    const text = pdfText(pdf);
    expect(text).toContain('Сборочный лист № 3 от 21.11.2026');
    for (const order of statement.orders) expect(text).toContain(`Заказ № ${order.orderId}`);
    expect(text).toContain('Футболка хлопковая белая, размер M');
    expect(text).toContain('TS-001-M');
    expect(text).toContain('4601234567890');
    expect(text).toContain('2000000000015');
    expect(text).toContain('Коробка S (30×20×10 см) — 1 шт.');
    expect(text).toContain('Комментарий для сборки: Положить подарочную открытку');
    expect(text).toContain('Документы: Счёт-фактура в коробку');
    expect(text).toContain('Единиц товара: 36');
  });

  withTools(`let a comment longer than a page flow on to the next pages${pdfToolsMissing}`, async () => {
    const statement = sampleAssemblyStatement(2);
    statement.orders[0].commentForAssembly = `${'Собрать аккуратно, проверить комплектность. '.repeat(300)}Конец комментария.`;
    const pdf = await renderAssemblyStatement(statement);
    const info = pdfInfo(pdf);
    expect(info.pages).toBeGreaterThan(2);
    expectPageSizes(info.sizes, PAGE_POINTS[1]);
    const text = pdfText(pdf);
    expect(text).toContain('Конец комментария.');
    expect(text).toContain(`Заказ № ${statement.orders[1].orderId}`);
    expect(text).toContain('Проверил');
  });

  withTools(`supply act lists goods, places and type${pdfToolsMissing}`, async () => {
    const text = pdfText(await renderSupplyAct(sampleSupplyAct()));
    expect(text).toContain('Акт поставки товаров № 9 от 21.11.2026');
    expect(text).toContain('Тип поставки: паллеты');
    expect(text).toContain('Количество паллет: 2');
    expect(text).toContain('Кружка керамическая «Утро»');
    expect(text).toContain('MUG-7');
    expect(text).toContain('Принял (склад)');
  });
});

describe('addresses', () => {
  it('read as a person writes them, skipping empty parts and a region equal to the city', () => {
    expect(
      formatAddress({
        zipCode: '101000',
        region: 'Москва',
        city: 'Москва',
        street: 'ул. Мясницкая',
        house: '1',
        bulk: null,
        flat: '',
      }),
    ).toBe('101000, Москва, ул. Мясницкая, д. 1');
    expect(
      formatAddress({
        city: 'Казань',
        region: 'Республика Татарстан',
        street: 'ул. Баумана',
        house: '5',
        bulk: '2',
        flat: '7',
      }),
    ).toBe('Республика Татарстан, Казань, ул. Баумана, д. 5, корп. 2, кв. 7');
    expect(formatAddress('  Москва, Тверская, 1 ')).toBe('Москва, Тверская, 1');
    expect(formatAddress(null)).toBe('');
  });
});

describe('movement report workbook', () => {
  it('goes on in a new worksheet when one is full, each with its header, the totals at the end', async () => {
    const { PassThrough } = await import('node:stream');
    const ExcelJS = (await import('exceljs')).default;
    const { writeMovementReport } = await import('./movement-report.js');
    async function* rows() {
      for (const date of ['2026-01-01', '2026-01-02', '2026-01-03', null])
        yield {
          productId: 1,
          vendorCode: 'A-1',
          name: 'Лампа',
          date,
          opening: 1,
          received: 1,
          shipped: 0,
          returned: 0,
          writtenOff: 0,
          defective: 0,
          closing: 2,
        };
    }
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (chunk: Buffer) => chunks.push(chunk));
    await writeMovementReport(out, {
      warehouseName: 'Склад',
      from: '2026-01-01',
      to: '2026-01-03',
      rows: rows(),
      rowsPerSheet: 3,
    });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.concat(chunks) as unknown as ArrayBuffer);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(['Движение товаров', 'Движение товаров 2']);
    const second: unknown[][] = [];
    workbook.worksheets[1].eachRow((row) => second.push((row.values as unknown[]).slice(1)));
    expect(String(second[0][0])).toContain('лист 2');
    expect(second.slice(2)).toEqual([
      ['A-1', 'Лампа', 'Итого', 1, 1, 0, 0, 0, 0, 2],
      ['Итого по складу', undefined, undefined, 1, 1, 0, 0, 0, 0, 2],
    ]);
  });
});

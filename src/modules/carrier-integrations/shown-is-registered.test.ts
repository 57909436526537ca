/**
 * Prices shown = prices registered: for every real company, delivery type and kind of point,
 * the tariff and price of the calculator's offer are the ones the order shows and the ones
 * the company registers it with (the fakes record what each registration is charged at,
 * pricing it by the same rules as their calculators). And the labels the companies print
 * are the ones the stickers give, ours only where a company gives none.
 */
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import {
  PDF,
  realCarrierEnv,
  startFakeBoxberry,
  startFakeCdek,
  startFakeRussianPost,
  type FakeRealCarrier,
} from '../../../test/support/fake-real-carriers.js';
import { startFakeYandexDelivery, YANDEX_STATION } from '../../../test/support/fake-yandex-delivery.js';
import { orderBody, orderingAccount, preparedOrder, type OrderingAccount } from '../../../test/support/orders.js';

let t: TestApp;
let fakes: { cdek: FakeRealCarrier; boxberry: FakeRealCarrier; post: FakeRealCarrier; yandex: FakeRealCarrier };
let account: OrderingAccount;

const CONTRACTS: Record<number, Record<string, string>> = {
  1001: { clientId: 'good-id', clientSecret: 'good-secret' },
  1002: { token: 'good-token' },
  1003: {
    accessToken: 'good-token',
    login: 'shop',
    password: 'pass',
    indexFrom: '125009',
    trackingLogin: 'tl',
    trackingPassword: 'tp',
  },
  1004: { token: 'good-token', platformStationId: YANDEX_STATION },
};

beforeAll(async () => {
  const [cdek, boxberry, post, yandex] = await Promise.all([
    startFakeCdek(),
    startFakeBoxberry(),
    startFakeRussianPost(),
    startFakeYandexDelivery(),
  ]);
  fakes = { cdek, boxberry, post, yandex };
  t = await createTestApp({ env: realCarrierEnv(fakes) });
  account = await orderingAccount(t);
  for (const [companyId, params] of Object.entries(CONTRACTS)) {
    expect((await account.owner.post(`/v2/carrier-integrations/${companyId}`, { params })).status).toBe(204);
    await t.runtime.services.carrierPoints.importPoints(Number(companyId));
  }
});
afterAll(async () => {
  await t.close();
  await Promise.all(Object.values(fakes).map((fake) => fake.close()));
});

interface Case {
  name: string;
  companyId: number;
  type: 1 | 2 | 3;
  /** The company's code of the point chosen (type 1: a pickup point or locker; type 3: a post office). */
  point?: string;
  fake: keyof typeof fakes;
  /** The number the company knows the order by: ours (CDEK) or the shop's. */
  number: (id: number, cmsId: string) => string;
  /** What the company's registration is charged at, as the order shows it: the delivery price, with the insurance where the company's charge holds it. */
  shown: (delivery: { price: number; priceCommissionDeclared: number }) => number;
  /** Whether the company registers a tariff by name that the order shows (CDEK). */
  tariffByName?: boolean;
  /**
   * The tariff of the point's kind where it is not the company option's: a calculator listing
   * names one tariff per company (CDEK's office one) and prices each locker at the locker's;
   * an order to a locker shows and registers the locker's.
   */
  pointTariff?: string;
}

const ours = (id: number) => String(id);
const shops = (_id: number, cmsId: string) => cmsId;
const price = (delivery: { price: number }) => delivery.price;
const CASES: Case[] = [
  { name: 'CDEK courier', companyId: 1001, type: 2, fake: 'cdek', number: ours, shown: price, tariffByName: true },
  {
    name: 'CDEK office',
    companyId: 1001,
    type: 1,
    point: 'MSK123',
    fake: 'cdek',
    number: ours,
    shown: price,
    tariffByName: true,
  },
  {
    name: 'CDEK locker',
    companyId: 1001,
    type: 1,
    point: 'MSK900',
    fake: 'cdek',
    number: ours,
    shown: price,
    tariffByName: true,
    pointTariff: 'Посылка дверь-постамат',
  },
  { name: 'Boxberry point', companyId: 1002, type: 1, point: '77961', fake: 'boxberry', number: shops, shown: price },
  { name: 'Boxberry courier', companyId: 1002, type: 2, fake: 'boxberry', number: shops, shown: price },
  // Russian Post's charge holds the insurance the order shows as its declared-value commission
  {
    name: 'Russian Post office',
    companyId: 1003,
    type: 3,
    point: '125009',
    fake: 'post',
    number: shops,
    shown: (delivery) => Math.round((delivery.price + delivery.priceCommissionDeclared) * 100) / 100,
  },
  {
    name: 'Yandex point',
    companyId: 1004,
    type: 1,
    point: '01946f4f013c7337874ec2fb848a58a4',
    fake: 'yandex',
    number: shops,
    shown: price,
  },
  { name: 'Yandex courier', companyId: 1004, type: 2, fake: 'yandex', number: shops, shown: price },
];

const pointId = (companyId: number, code: string) => {
  const moscow = t.runtime.services.reference.localities.find({ countryCode: 'RU', name: 'Москва' });
  const found = t.runtime.services.reference.registry
    .pointsIn(companyId, moscow?.id ?? 0)
    .find((point) => point.code === code);
  if (!found) throw new Error(`no imported point ${code} of ${companyId}`);
  return found.id;
};

describe('the tariff and price offered are the ones registered', () => {
  it.each(CASES)('$name', async (row) => {
    const cmsId = `SHOWN-${row.name.replace(/\W+/g, '-')}`;
    const point = row.point === undefined ? undefined : pointId(row.companyId, row.point);
    const goods = [
      {
        name: 'Книга',
        vendorCode: 'BOOK-1',
        priceDeclared: 800,
        priceCod: 900,
        count: 2,
        weight: 0.5,
        dimensions: { width: 15, height: 4, length: 22 },
      },
    ];
    const address = { city: { countryCode: 'RU', name: 'Москва' }, street: 'Тверская', house: '5', zipCode: '125009' };
    // the calculator's offer for this order: the same shop, goods, sums and recipient
    const offered = await account.owner.post(
      '/v2/calculator',
      {
        reception: { cityName: 'Москва', zipCode: '125009' },
        products: goods,
        priceClient: 150,
        companyIds: [row.companyId],
        type: row.type,
      },
      { headers: { 'shop-id': String(account.shopId) } },
    );
    expect(offered.status, JSON.stringify(offered.body)).toBe(200);
    const option = offered.body[String(row.type)].find(
      (item: { deliveryCompanyId: number }) => item.deliveryCompanyId === row.companyId,
    );
    expect(option, JSON.stringify(offered.body)).toBeDefined();
    const offeredPoint =
      point === undefined || row.type !== 1 ? null : option.points.find((item: { id: number }) => item.id === point);
    const offeredPrice: number = offeredPoint ? offeredPoint.priceDelivery : option.priceDelivery;

    const body = orderBody(
      { shopId: account.shopId, pointId: point ?? 0 },
      {
        cmsId,
        products: goods,
        clientPrice: 150,
        deliveryAddress: address,
        delivery: { company: { id: row.companyId }, type: row.type, ...(point ? { point: { id: point } } : {}) },
      },
    );
    const { id } = await preparedOrder(account.owner, account.worker, body);
    const order = (await account.owner.get(`/v2/orders/${id}`)).body;
    // the order shows the offer
    expect(order.delivery.price).toBe(offeredPrice);
    expect(order.delivery.company.tariff).toBe(row.pointTariff ?? option.tariffName);
    // and the company registered it at that tariff and price
    const registered = fakes[row.fake].created.get(row.number(id, cmsId));
    expect(registered, [...fakes[row.fake].created.keys()].join()).toBeDefined();
    expect(registered?.price).toBe(
      row.shown({ price: order.delivery.price, priceCommissionDeclared: order.delivery.priceCommissionDeclared ?? 0 }),
    );
    if (row.tariffByName) expect(registered?.tariff).toBe(order.delivery.company.tariff);
  });

  it('prices a CDEK office and a locker of one city at their own tariffs', async () => {
    const offered = await account.owner.post(
      '/v2/calculator',
      { reception: { cityName: 'Москва' }, products: [{ priceDeclared: 100, weight: 1 }], companyIds: [1001], type: 1 },
      { headers: { 'shop-id': String(account.shopId) } },
    );
    const option = offered.body['1'][0];
    const byCode = new Map(
      option.points.map((item: { id: number; priceDelivery: number }) => [item.id, item.priceDelivery]),
    );
    expect(byCode.get(pointId(1001, 'MSK123'))).toBe(380.5);
    expect(byCode.get(pointId(1001, 'MSK900'))).toBe(365);
  });
});

describe('stickers of orders of real companies', () => {
  it("give the company's own label, and ours where the company gives none", async () => {
    const point = pointId(1001, 'MSK123');
    const body = (cmsId: string) =>
      orderBody(
        { shopId: account.shopId, pointId: point },
        {
          cmsId,
          deliveryAddress: { city: { countryCode: 'RU', name: 'Москва' }, street: 'Тверская', house: '5' },
          delivery: { company: { id: 1001 }, type: 1, point: { id: point } },
        },
      );
    const first = await preparedOrder(account.owner, account.worker, body('LABEL-1'));
    const download = async (url: string) =>
      (await t.app.inject({ method: 'GET', url: url.slice(url.indexOf('/files/')) })).rawPayload;

    const one = await account.owner.post('/v2/orders/stickers', { ids: [first.id], type: 2 });
    expect(one.status, JSON.stringify(one.body)).toBe(200);
    // CDEK's own barcode label, as CDEK printed it (POST /print/barcodes, read until ready, the PDF)
    expect((await download(one.body.file)).equals(PDF)).toBe(true);
    expect(fakes.cdek.calls).toContain('POST /v2/print/barcodes');

    // a company order and a label CDEK cannot print: CDEK's label and ours for the other, in one ZIP
    const second = await preparedOrder(account.owner, account.worker, body('LABEL-2'));
    fakes.cdek.mode = '500';
    try {
      const both = await account.owner.post('/v2/orders/stickers', { ids: [second.id], type: 2 });
      // CDEK fails: ours (our own sticker PDF, not CDEK's)
      const fallback = await download(both.body.file);
      expect(fallback.subarray(0, 5).toString()).toBe('%PDF-');
      expect(fallback.equals(PDF)).toBe(false);
    } finally {
      fakes.cdek.mode = 'ok';
    }
    // with an order of a simulated company: CDEK's labels and our stickers of that order, in one ZIP
    const simulated = await preparedOrder(
      account.owner,
      account.worker,
      orderBody({ shopId: account.shopId, pointId: account.pointId }, { cmsId: 'LABEL-3' }),
    );
    const mixed = await account.owner.post('/v2/orders/stickers', {
      ids: [first.id, second.id, simulated.id],
      type: 2,
    });
    const entries = unzipSync(new Uint8Array(await download(mixed.body.file)));
    expect(Object.keys(entries).sort()).toEqual(
      [
        `labels/${first.id}-${first.trackNumber}.pdf`,
        `labels/${second.id}-${second.trackNumber}.pdf`,
        'stickers-100x150.pdf',
      ].sort(),
    );
    expect(Buffer.from(entries[`labels/${first.id}-${first.trackNumber}.pdf`]).equals(PDF)).toBe(true);
  });
});

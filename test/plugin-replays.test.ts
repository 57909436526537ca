/**
 * The calls real shop plugins make (field-notes.md, widget-era.md), replayed
 * for every built-in delivery company the calculator offers for their addresses: a rule that
 * refuses one of the offered companies' orders fails this test. None of the plugins sends a
 * drop-off point (`pickup.pointId`).
 *
 * - WooCommerce 3.4: the checkout's `POST /v2/calculator` (applyWidgetSettings), then a
 *   form-encoded `POST /v2/orders` with and without the goods' meta, cash on delivery;
 *   `POST /v2/orders/confirm` `ids[0]=…` with `Stay-New: true`; `POST /v2/orders/cancel`.
 * - Python order-sync services: `GET /v2/orders?page=&perPage=` (no list), `search`,
 *   `GET /v2/tracking?id=`, extend-hold at the point.
 * - Bitrix CRM sync: `GET /v2/tracking?orderId=` with the shop's key; stickers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/app.js';
import { phpForm } from './support/client.js';
import { orderingAccount, type OrderingAccount } from './support/orders.js';

let t: TestApp;
let a: OrderingAccount;

beforeAll(async () => {
  t = await createTestApp();
  a = await orderingAccount(t);
});
afterAll(async () => t.close());

interface Offer {
  deliveryCompanyId: number;
  deliveryCompanyName: string;
  points?: Array<{ id: number } | number>;
}

const RECIPIENT_CITY = { countryCode: 'RU', name: 'Санкт-Петербург', type: 'г', region: 'Санкт-Петербург' };

/** What the WooCommerce plugin's checkout asks: every company and type for the buyer's cart, with the shop's widget settings. */
async function offered(): Promise<Array<{ companyId: number; name: string; type: 1 | 2 | 3; pointId: number | null }>> {
  const body = phpForm({
    reception: { countryCode: 'RU', cityName: RECIPIENT_CITY.name, region: RECIPIENT_CITY.region },
    products: [
      {
        vendorCode: 'MUG-1',
        priceDeclared: 1500,
        priceCod: 1500,
        count: 2,
        weight: 0.4,
        dimensions: { width: 10, height: 12, length: 10 },
      },
    ],
    applyWidgetSettings: true,
    applyDefaultDimensions: true,
  });
  const answer = await a.owner.post('/v2/calculator', body, { form: true, headers: { 'Shop-Id': String(a.shopId) } });
  expect(answer.status, answer.text).toBe(200);
  const options: Array<{ companyId: number; name: string; type: 1 | 2 | 3; pointId: number | null }> = [];
  for (const type of [1, 2, 3] as const) {
    for (const offer of answer.body[String(type)] as Offer[]) {
      if (typeof offer.deliveryCompanyId !== 'number') continue;
      const first = offer.points?.[0];
      options.push({
        companyId: offer.deliveryCompanyId,
        name: offer.deliveryCompanyName,
        type,
        pointId: first === undefined ? null : typeof first === 'number' ? first : first.id,
      });
    }
  }
  return options;
}

/** The WooCommerce 3.4 plugin's order, form-encoded as wp_remote_post sends it; `meta`: the goods' extra fields some shops fill. */
function wooOrder(
  option: { companyId: number; type: number; pointId: number | null },
  cmsId: string,
  meta: boolean,
): string {
  const product = {
    name: 'Кружка керамическая',
    vendorCode: 'MUG-1',
    priceDeclared: 1500,
    priceCod: 1500,
    count: 2,
    weight: 0.4,
    dimensions: { width: 10, height: 12, length: 10 },
    ...(meta
      ? {
          nameEn: 'Ceramic mug',
          vat: 20,
          prePay: 0,
          tnved: '6912002100',
          brand: 'Гжель',
          producingCountry: 'RU',
          barcode: '4601234567893',
          discount: 0,
        }
      : {}),
  };
  return phpForm({
    cmsId,
    shopId: a.shopId,
    products: [product],
    discount: 0,
    dimensions: { places: 1 },
    deliveryAddress: { city: RECIPIENT_CITY, street: 'Литейный проспект', house: '3', flat: '12', zipCode: '191028' },
    recipient: { fullName: 'Светлана Котова', phone: '+79215556677', email: 'kotova@example.com' },
    applyWidgetSettings: true,
    applyDefaultDimensions: true,
    delivery: {
      company: { id: option.companyId },
      type: option.type,
      ...(option.pointId !== null ? { point: { id: option.pointId } } : {}),
    },
    clientPrice: 350,
    comment: 'Позвонить за час',
  });
}

describe('real plugins, for every company the calculator offers', () => {
  it("creates, confirms, registers, lists, searches, tracks, prints and cancels each offered company's orders", async () => {
    const options = await offered();
    // the four companies that take parcels only at a drop-off point chosen in advance are among them (where they have points)
    expect(new Set(options.map((option) => option.companyId)).size).toBeGreaterThanOrEqual(6);
    const shopKey = a.owner.withToken(a.shopKey);
    const failures: string[] = [];
    for (const [index, option] of options.entries()) {
      const label = `${option.name} (${option.companyId}), type ${option.type}`;
      for (const meta of [true, false]) {
        const cmsId = `WOO-${index}-${meta ? 'M' : 'P'}`;
        const created = await a.owner.post('/v2/orders', wooOrder(option, cmsId, meta), {
          form: true,
          headers: { 'Shop-Id': String(a.shopId) },
        });
        if (created.status !== 201) {
          failures.push(`${label}: create ${created.status} ${created.text}`);
          continue;
        }
        const id = created.body.id as number;
        const draft = (await a.owner.get(`/v2/orders/${id}`)).body;
        if (draft.error !== null) failures.push(`${label}: created with error ${draft.error}`);
        const confirmed = await a.owner.post('/v2/orders/confirm', phpForm({ ids: [id] }), {
          form: true,
          headers: { 'Stay-New': 'true', 'Shop-Id': String(a.shopId) },
        });
        if (confirmed.status !== 204) {
          failures.push(`${label}: confirm ${confirmed.status} ${confirmed.text}`);
          continue;
        }
        await a.worker.runDue();
        const prepared = (await a.owner.get(`/v2/orders/${id}`)).body;
        if (prepared.status !== 13 || !prepared.trackNumber) {
          failures.push(`${label}: not registered (${prepared.status}, ${prepared.error})`);
          continue;
        }
        // Python: every order without `list`, search by the shop's number, tracking by id
        const page = await a.owner.get('/v2/orders?page=1&perPage=50');
        if (!(page.body as Array<{ id: number }>).some((order) => order.id === id))
          failures.push(`${label}: not in GET /v2/orders without list`);
        const found = await a.owner.get(`/v2/orders?search=${cmsId}`);
        if ((found.body as Array<{ id: number }>).map((order) => order.id).join() !== String(id))
          failures.push(`${label}: search ${found.status} ${found.text.slice(0, 200)}`);
        const tracked = await a.owner.get(`/v2/tracking?id=${id}`);
        if (tracked.status !== 200) failures.push(`${label}: tracking?id= ${tracked.status} ${tracked.text}`);
        // Bitrix: tracking by orderId with the shop's key; stickers
        const bitrix = await shopKey.get(`/v2/tracking?orderId=${id}`);
        if (bitrix.status !== 200) failures.push(`${label}: tracking?orderId= ${bitrix.status} ${bitrix.text}`);
        const stickers = await a.owner.post('/v2/orders/stickers', phpForm({ ids: [id], type: 1 }), { form: true });
        if (stickers.status !== 200) failures.push(`${label}: stickers ${stickers.status} ${stickers.text}`);
        if (meta) {
          // at the point (pushed by the company), the Python client asks for longer storage
          if (option.type === 1) {
            const pushed = await t
              .client()
              .post(
                `/v2/tracking/events/${option.companyId}`,
                { events: [41, 42].map((statusCode) => ({ trackNumber: prepared.trackNumber, statusCode })) },
                { headers: { 'x-carrier-secret': t.runtime.services.tracking.pushSecret(option.companyId) } },
              );
            if (pushed.body?.applied !== 2) failures.push(`${label}: push ${pushed.status} ${pushed.text}`);
            const extended = await a.owner.post('/v2/orders/extend-hold', { ids: [id], days: 3 });
            if (extended.status !== 204) failures.push(`${label}: extend-hold ${extended.status} ${extended.text}`);
          }
        } else {
          const canceled = await a.owner.post('/v2/orders/cancel', phpForm({ ids: [id] }), { form: true });
          if (canceled.status !== 204) failures.push(`${label}: cancel ${canceled.status} ${canceled.text}`);
        }
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);
});

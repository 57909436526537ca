/**
 * The dashboard's logic that lives in the page, without a browser: the orders view in the URL
 * and in the API's query, per-order errors of a batch, field errors, the order form's bodies and
 * declared value, the kept drafts, dates in the account's zone, and the two dictionaries.
 */
import { describe, expect, it } from 'vitest';
import { DeliveryApiError } from './api';
import { batchErrorsOf, fieldErrorsOf } from './batch';
import { draftStore } from './drafts';
import { formatInstant, todayIn } from './format';
import { dictionaries, translator } from './i18n';
import {
  ALL_ORDERS,
  countFilters,
  LISTS,
  ordersQuery,
  searchFromView,
  viewFromSearch,
} from './pages/orders/order-filters';
import {
  calculatorBodyOf,
  declaredValueOf,
  EMPTY_DRAFT,
  optionKey,
  orderBodyOf,
  type OrderDraft,
} from './pages/orders/order-draft';

describe('the orders view', () => {
  it('reads every filter from the URL and writes it back the same, defaults left out', () => {
    const search = new URLSearchParams(
      'list=2&page=3&perPage=100&deliveryType=1&shopId=5&stickerFormed=0&packed=1&statuses=12&statuses=13&deliveryCompanies=1&deliveryCompanies=7_2&search=+SITE-1+&recipientCity=Казань&bogus=1&withCod=yes',
    );
    const view = viewFromSearch(search);
    expect(view).toEqual({
      list: 2,
      page: 3,
      perPage: 100,
      filters: {
        deliveryType: 1,
        shopId: 5,
        stickerFormed: 0,
        packed: 1,
        statuses: [12, 13],
        deliveryCompanies: [1, '7_2'],
        search: 'SITE-1',
        recipientCity: 'Казань',
      },
    });
    expect(viewFromSearch(searchFromView(view))).toEqual(view);
    expect(ordersQuery(view, 6)).toMatchObject({ list: 6, page: 3, perPage: 100, stickerFormed: 0 });
    expect(countFilters(view)).toBe(7);
  });

  it('opens on all orders, the first tab, when the URL names no list', () => {
    expect(viewFromSearch(new URLSearchParams('')).list).toBe(ALL_ORDERS);
    expect(LISTS[0]).toBe(ALL_ORDERS);
  });

  it('falls back to the default list, page 1 and 50 a page for nonsense', () => {
    expect(viewFromSearch(new URLSearchParams('list=42&page=-1&perPage=7'), 6)).toEqual({
      list: 6,
      page: 1,
      perPage: 50,
      filters: {},
    });
    expect(searchFromView({ list: 1, page: 1, perPage: 50, filters: {} }).toString()).toBe('list=1');
  });
});

describe('refusals', () => {
  const refusal = new DeliveryApiError(409, {
    code: 'order_state',
    message: '1 of 2 orders cannot be processed',
    errors: [
      { id: 2, message: 'only a draft can be confirmed' },
      { field: 'recipient.phone', message: 'must be a phone number' },
    ],
    logId: 'abc',
  });

  it("puts each order's message next to its id, and each field's on its field", () => {
    expect([...batchErrorsOf(refusal)]).toEqual([[2, 'only a draft can be confirmed']]);
    expect(fieldErrorsOf(refusal)).toEqual({ 'recipient.phone': 'must be a phone number' });
    expect(batchErrorsOf(new Error('network')).size).toBe(0);
  });
});

describe('the order form', () => {
  const filled: OrderDraft = {
    ...EMPTY_DRAFT,
    shopId: 3,
    cmsId: ' A-1 ',
    fullName: ' Анна ',
    phone: '+79990001122',
    city: { name: 'Казань', fias: 'f-1', type: 'г', region: 'Татарстан', countryCode: 'RU' },
    street: 'Баумана',
    house: '1',
    goods: [
      {
        name: 'Чай',
        vendorCode: '',
        count: 2,
        priceDeclared: 500,
        priceCod: 600,
        weight: 0.3,
        width: 10,
        height: 5,
        length: 10,
      },
    ],
    option: { key: optionKey(1, { deliveryCompanyId: 1, tariffName: 'ПВЗ' }), type: 1, companyId: 1, tariff: 'ПВЗ' },
    pointId: 77,
  };

  it('makes the body of POST /v2/orders: trimmed text, the point for a pickup point, no courier fields', () => {
    const body = orderBodyOf(filled) as Record<string, any>;
    expect(body.cmsId).toBe('A-1');
    expect(body.recipient).toEqual({ fullName: 'Анна', phone: '+79990001122', email: null });
    expect(body.deliveryAddress.city).toEqual({
      countryCode: 'RU',
      name: 'Казань',
      fias: 'f-1',
      type: 'г',
      region: 'Татарстан',
    });
    expect(body.products[0]).toMatchObject({
      name: 'Чай',
      vendorCode: null,
      count: 2,
      weight: 0.3,
      dimensions: { width: 10, height: 5, length: 10 },
    });
    expect(body.delivery).toEqual({ company: { id: 1, tariff: 'ПВЗ' }, type: 1, point: { id: 77 } });
    expect(body).not.toHaveProperty('clientCourierTime');
    const courier = orderBodyOf({
      ...filled,
      option: { key: '2:1:', type: 2, companyId: 1, tariff: null },
      courierDate: '2026-12-01',
      courierTime: 4,
    }) as Record<string, any>;
    expect(courier.delivery).toEqual({ company: { id: 1, tariff: null }, type: 2 });
    expect(courier).toMatchObject({ clientDeliveryDate: '2026-12-01', clientCourierTime: 4 });
  });

  it('asks the calculator only once a city is chosen and every line weighs something', () => {
    expect(calculatorBodyOf(EMPTY_DRAFT)).toBeNull();
    expect(calculatorBodyOf({ ...filled, goods: [{ ...filled.goods[0], weight: null }] })).toBeNull();
    expect(calculatorBodyOf(filled)).toMatchObject({
      reception: { cityFias: 'f-1', cityName: 'Казань' },
      applyWidgetSettings: true,
      products: [{ count: 2, priceCod: 600, weight: 0.3 }],
    });
  });

  it('counts the declared value as the service does: the lines times their counts, else the order’s own', () => {
    expect(declaredValueOf(filled)).toBe(1000);
    expect(declaredValueOf({ goods: [{ ...filled.goods[0], priceDeclared: null }], priceDeclared: 300 })).toBe(300);
    expect(declaredValueOf({ goods: [{ ...filled.goods[0], priceDeclared: null }], priceDeclared: null })).toBeNull();
  });

  it("keeps a draft in the session's storage and gives it back", () => {
    const memory = new Map<string, string>();
    const storage = {
      getItem: (key: string) => memory.get(key) ?? null,
      setItem: (key: string, value: string) => void memory.set(key, value),
      removeItem: (key: string) => void memory.delete(key),
    };
    const drafts = draftStore(storage);
    drafts.save('order-new', filled);
    expect(drafts.load<OrderDraft>('order-new')?.fullName).toBe(' Анна ');
    drafts.forget('order-new');
    expect(drafts.load('order-new')).toBeNull();
    memory.set('dashboard.draft.broken', '{');
    expect(drafts.load('broken')).toBeNull();
  });
});

describe('words and dates', () => {
  it('has every English word in Russian, and fills values', () => {
    expect(Object.keys(dictionaries.ru).sort()).toEqual(Object.keys(dictionaries.en).sort());
    expect(translator('en')('freeFrom', { count: 5 })).toBe('free from 5 orders');
  });

  it("shows instants in the account's zone, and its today", () => {
    expect(formatInstant('2026-11-26T22:30:00Z', 'en', 'Europe/Moscow')).toBe('27/11/2026, 01:30');
    expect(formatInstant('2026-11-26T22:30:00Z', 'en', 'America/New_York')).toBe('26/11/2026, 17:30');
    expect(todayIn('Asia/Vladivostok', new Date('2026-11-26T15:00:00Z'))).toBe('2026-11-27');
  });
});

/**
 * Cleaning of addresses as people write them: a table of messy inputs (abbreviations, typos,
 * missing parts, the Latin layout, house fractions and blocks, nicknames, settlements inside
 * cities, postcodes first, reversed order, extra words) with the address each must clean to and
 * its quality, through POST /v2/addresses/clean on the register's fixture (test-fixture.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import type { ApiClient } from '../../../test/support/client.js';
import { writeAddressFixture } from './test-fixture.js';

let t: TestApp;
let owner: ApiClient;

beforeAll(async () => {
  t = await createTestApp();
  await writeAddressFixture(t.runtime.database.db);
  t.runtime.services.addresses.forgetLoaded();
  owner = (await t.newAccount('Cleaning')).client;
});
afterAll(async () => t.close());

const M = 'г Москва';
const LENINA = `${M}, ул Ленина`;
const KHIMKI = 'Московская обл, г Химки';
const SPB = 'г Санкт-Петербург';
// cleaning's result names the region of a region's centre too, as DaData's does
const KAZAN = 'респ Татарстан, г Казань';
const EKB = 'Свердловская обл, г Екатеринбург';
const KOMMUNARKA = `${M}, п Коммунарка`;
const RAZDORY = 'Московская обл, Одинцовский р-н, д Раздоры';

/** [as typed, the address it cleans to (without the postcode), quality]. */
const TABLE: [string, string | null, 'certain' | 'check' | 'unrecognised'][] = [
  // the brief's own, and the usual ways of writing a Moscow flat
  ['ул. Ленина 5к2 кв 3, мск', `${LENINA}, д 5 к 2, кв 3`, 'certain'],
  ['Москва, ул. Ленина, д. 5, корп. 2, кв. 3', `${LENINA}, д 5 к 2, кв 3`, 'certain'],
  ['г. Москва, ул Ленина д5 к2 кв3', `${LENINA}, д 5 к 2, кв 3`, 'certain'],
  ['москва ленина 5 к2 кв 3', `${LENINA}, д 5 к 2, кв 3`, 'certain'],
  ['г.Москва ул.Ленина д.5 кв.3', `${LENINA}, д 5, кв 3`, 'certain'],
  ['МОСКВА,,, УЛ.ЛЕНИНА,,Д.5', `${LENINA}, д 5`, 'certain'],
  ['мск ленина 5-3', `${LENINA}, д 5, кв 3`, 'certain'],
  ['Москва Ленина 5, 3', `${LENINA}, д 5, кв 3`, 'certain'],
  ['Россия, Москва, улица Ленина, дом 5, корпус 2, строение 1', `${LENINA}, д 5 к 2 стр 1`, 'certain'],
  ['РФ, г Москва, Ленина ул, 5 корпус 1', `${LENINA}, д 5 к 1`, 'certain'],
  ['Москва, Ленина, 5, к.2, стр.1, кв.7', `${LENINA}, д 5 к 2 стр 1, кв 7`, 'certain'],
  ['москва ленина 5к2с1', `${LENINA}, д 5 к 2 стр 1`, 'certain'],
  ['Москва, Ленина 7 стр 1', `${LENINA}, д 7 стр 1`, 'certain'],
  ['Москва, Ленина 7с1', `${LENINA}, д 7 стр 1`, 'certain'],
  ['Москва, Ленина 7 строение 1', `${LENINA}, д 7 стр 1`, 'certain'],
  // fractions and letters
  ['101000, Москва, Ленина 12/2', `${LENINA}, д 12/2`, 'certain'],
  ['Москва, ул. Ленина, д. 12 / 2', `${LENINA}, д 12/2`, 'certain'],
  ['москва ленина 12/2 кв 5', `${LENINA}, д 12/2, кв 5`, 'certain'],
  ['Москва, Ленина 10а', `${LENINA}, д 10А`, 'certain'],
  ['Москва, Ленина 10 А', `${LENINA}, д 10А`, 'certain'],
  ['Москва, Ленина д 10 лит А', `${LENINA}, д 10А`, 'certain'],
  // reversed order, postcode first, extra words
  ['Ленина 5к2с1, Москва', `${LENINA}, д 5 к 2 стр 1`, 'certain'],
  ['кв 3, д 5, ул Ленина, г Москва', `${LENINA}, д 5, кв 3`, 'certain'],
  ['д 5 ул Ленина Москва', `${LENINA}, д 5`, 'certain'],
  ['123456, Москва, Ленина 5', `${LENINA}, д 5`, 'certain'],
  ['Россия 101000 Москва Ленина 1', `${LENINA}, д 1`, 'certain'],
  ['Адрес: Москва, ул Ленина 5, подъезд 2, этаж 3', `${LENINA}, д 5`, 'certain'],
  ['доставка по адресу москва ленина 5 кв 3 домофон 3', `${LENINA}, д 5, кв 3`, 'certain'],
  // typos
  ['Москва, ул Ленена 5', `${LENINA}, д 5`, 'certain'],
  ['Масква, Тверская 1', `${M}, ул Тверская, д 1`, 'certain'],
  ['Москва Тверскя 3', `${M}, ул Тверская, д 3`, 'certain'],
  ['Москва, Энтузиастов шоссе 21', `${M}, ш Энтузиастов, д 21`, 'certain'],
  ['Москва, шоссе Энтузаистов 21', `${M}, ш Энтузиастов, д 21`, 'certain'],
  ['Москва, Пречистенсакя наб 17', `${M}, наб Пречистенская, д 17`, 'certain'],
  ['Екатеринбугр, Малышева 10', `${EKB}, ул Малышева, д 10`, 'certain'],
  ['Казнь, Баумана 2', `${KAZAN}, ул Баумана, д 2`, 'certain'],
  // street types both ways
  ['Москва, Тверской бульвар, 7 стр 1', `${M}, б-р Тверской, д 7 стр 1`, 'certain'],
  ['Москва, б-р Тверской 3', `${M}, б-р Тверской, д 3`, 'certain'],
  ['Москва, Тверская ул 10', `${M}, ул Тверская, д 10`, 'certain'],
  ['Москва, пр. Мира, 25', `${M}, пр-кт Мира, д 25`, 'certain'],
  ['Москва, проспект Мира 1', `${M}, пр-кт Мира, д 1`, 'certain'],
  ['Москва, пр-т Мира 2', `${M}, пр-кт Мира, д 2`, 'certain'],
  ['Москва Ленинский проспект 5', `${M}, пр-кт Ленинский, д 5`, 'certain'],
  ['Москва, Ленинский пр-кт, д.14, корп.2', `${M}, пр-кт Ленинский, д 14 к 2`, 'certain'],
  ['Москва, пер. Большой Козихинский, 5', `${M}, пер Большой Козихинский, д 5`, 'certain'],
  ['Москва, Б. Козихинский пер., 5', `${M}, пер Большой Козихинский, д 5`, 'certain'],
  ['Москва Красная площадь 1', `${M}, пл Красная, д 1`, 'certain'],
  ['Москва, пл. Красная, 3', `${M}, пл Красная, д 3`, 'certain'],
  ['Москва, Пречистенская набережная, 5', `${M}, наб Пречистенская, д 5`, 'certain'],
  ['Москва, Энтузиастов ш., 21', `${M}, ш Энтузиастов, д 21`, 'certain'],
  ['Москва, Арбат 10', `${M}, ул Арбат, д 10`, 'certain'],
  ['Москва, Новый Арбат 10', `${M}, ул Новый Арбат, д 10`, 'certain'],
  ['Москва, ул. Казанская 3', `${M}, ул Казанская, д 3`, 'certain'],
  ['Москва, Казанская 3', `${M}, ул Казанская, д 3`, 'certain'],
  // numbers in street names
  ['Москва, 8 Марта ул, 4', `${M}, ул 8 Марта, д 4`, 'certain'],
  ['Москва, ул 8 Марта, 8', `${M}, ул 8 Марта, д 8`, 'certain'],
  ['москва тверская-ямская 1-я 3', `${M}, ул 1-я Тверская-Ямская, д 3`, 'certain'],
  ['Москва, 1-я Тверская-Ямская ул., д. 12/2', `${M}, ул 1-я Тверская-Ямская, д 12/2`, 'certain'],
  ['Екатеринбург, 8 Марта, 1', `${EKB}, ул 8 Марта, д 1`, 'certain'],
  ['Москва, пр-кт Маршала Жукова 3', `${M}, пр-кт Маршала Жукова, д 3`, 'certain'],
  // the Latin keyboard layout
  ['vjcrdf ktybyf 5', `${LENINA}, д 5`, 'certain'],
  ['vjcrdf? ek ktybyf? 5', `${LENINA}, д 5`, 'certain'],
  ['vcr ktybyf 5 rd 3', `${LENINA}, д 5, кв 3`, 'certain'],
  ['rfpfym? ,fevfyf 1', `${KAZAN}, ул Баумана, д 1`, 'certain'],
  ['trfnthby,ehu vfksitdf 10', `${EKB}, ул Малышева, д 10`, 'certain'],
  ['cg,? ytdcrbq 23', `${SPB}, пр-кт Невский, д 23`, 'certain'],
  // nicknames
  ['мск, Тверская 1', `${M}, ул Тверская, д 1`, 'certain'],
  ['СПб, Невский пр., 10', `${SPB}, пр-кт Невский, д 10`, 'certain'],
  ['спб невский 23', `${SPB}, пр-кт Невский, д 23`, 'certain'],
  ['Питер, Садовая 5', `${SPB}, ул Садовая, д 5`, 'certain'],
  ['С-Петербург, Ленина 3', `${SPB}, ул Ленина, д 3`, 'certain'],
  ['Санкт Петербург, наб реки Мойки 12', `${SPB}, наб Реки Мойки, д 12`, 'certain'],
  ['г. Санкт-Петербург, Невский проспект, д. 5, кв. 12', `${SPB}, пр-кт Невский, д 5, кв 12`, 'certain'],
  ['екб, Ленина 5', `${EKB}, пр-кт Ленина, д 5`, 'certain'],
  ['Екатеринбург, ул Ленина 5', `${EKB}, пр-кт Ленина, д 5`, 'certain'],
  ['ЕКАТЕРИНБУРГ МАЛЫШЕВА 10', `${EKB}, ул Малышева, д 10`, 'certain'],
  // region centres, regions, areas
  ['Казань, Баумана 1', `${KAZAN}, ул Баумана, д 1`, 'certain'],
  ['Республика Татарстан, Казань, ул Пушкина 5', `${KAZAN}, ул Пушкина, д 5`, 'certain'],
  ['Казань Победы пр 3', `${KAZAN}, пр-кт Победы, д 3`, 'certain'],
  ['Балашиха, Советская 3', 'Московская обл, г Балашиха, ул Советская, д 3', 'certain'],
  ['Московская обл, г Химки, ул Ленинградская, д 1', `${KHIMKI}, ул Ленинградская, д 1`, 'certain'],
  ['Химки, Ленинградская 1', `${KHIMKI}, ул Ленинградская, д 1`, 'certain'],
  ['МО, Химки, мкр Северный, 5', `${KHIMKI}, мкр Северный, д 5`, 'certain'],
  ['Химки Ленина 5к1', `${KHIMKI}, ул Ленина, д 5 к 1`, 'certain'],
  ['Химки, ул. Зеленая, 2', `${KHIMKI}, ул Зелёная, д 2`, 'certain'],
  ['Химки, ул. Зелёная, 2', `${KHIMKI}, ул Зелёная, д 2`, 'certain'],
  // settlements inside cities, villages without streets
  ['Москва, п Коммунарка, ул Липовый Парк, 5', `${KOMMUNARKA}, ул Липовый Парк, д 5`, 'certain'],
  ['Коммунарка, Липовый парк 3', `${KOMMUNARKA}, ул Липовый Парк, д 3`, 'certain'],
  ['Москва, Коммунарка, Александры Монаховой 12/2', `${KOMMUNARKA}, ул Александры Монаховой, д 12/2`, 'certain'],
  [
    'поселок Коммунарка улица Александры Монаховой дом 5 корпус 2',
    `${KOMMUNARKA}, ул Александры Монаховой, д 5 к 2`,
    'certain',
  ],
  ['Московская область, Одинцовский район, д. Раздоры, 5', `${RAZDORY}, д 5`, 'certain'],
  ['Раздоры 7', `${RAZDORY}, д 7`, 'certain'],
  ['д Раздоры д 3', `${RAZDORY}, д 3`, 'certain'],
  ['Московская обл, село Троицкое, ул Центральная, 4', 'Московская обл, с Троицкое, ул Центральная, д 4', 'certain'],
  // flats the register does not list are kept
  ['Москва, Ленина 1, кв 41', `${LENINA}, д 1, кв 41`, 'certain'],
  ['Москва, Ленина 2, кв 7', `${LENINA}, д 2, кв 7`, 'certain'],
  ['Москва, Ленина 2, офис 7', `${LENINA}, д 2, офис 7`, 'certain'],
  // missing parts: a person looks
  ['Москва, ул Ленина', LENINA, 'check'],
  ['Москва', M, 'check'],
  ['Казань', KAZAN, 'check'],
  ['Республика Татарстан', 'респ Татарстан', 'check'],
  ['Свердловская обл, п Ленина', 'Свердловская обл, п Ленина', 'check'],
  ['Москва 101000', M, 'check'],
  ['Москва, Ленина 99', `${LENINA}, д 99`, 'check'],
  ['Москва, Ленина 3к5', `${LENINA}, д 3 к 5`, 'check'],
  ['Москва, Ленина д 5 стр 1', `${LENINA}, д 5 стр 1`, 'check'],
  ['Москва, Ленина 14', `${LENINA}, д 14`, 'check'],
  ['Москва, Жукова 3', `${M}, пр-кт Маршала Жукова, д 3`, 'check'],
  ['Москва, Тверская, 5, Большая Садовая', `${M}, ул Тверская, д 5`, 'check'],
  // nothing to go on
  ['абвгд', null, 'unrecognised'],
  ['12345', null, 'unrecognised'],
  ['Нью-Йорк, 5th avenue', null, 'unrecognised'],
  ['Ленина 5', 'Свердловская обл, п Ленина, д 5', 'check'],
  ['Самара, ул Куйбышева 5', null, 'unrecognised'],
];

const withoutPostcode = (result: string | null) => (result === null ? null : result.replace(/^\d{6}, /, ''));

describe('cleaning', () => {
  it(`cleans ${TABLE.length} messy inputs to the expected address and quality`, async () => {
    expect(TABLE.length).toBeGreaterThanOrEqual(100);
    const wrong: string[] = [];
    for (let i = 0; i < TABLE.length; i += 50) {
      const batch = TABLE.slice(i, i + 50);
      const answer = await owner.post('/v2/addresses/clean', { addresses: batch.map(([text]) => text) });
      expect(answer.status, answer.text).toBe(200);
      batch.forEach(([text, expected, quality], j) => {
        const cleaned = answer.body.addresses[j];
        const got = withoutPostcode(cleaned.result);
        if (got !== expected || cleaned.quality !== quality)
          wrong.push(
            `${text} → ${got} (${cleaned.quality}) [${cleaned.changes.join('; ')}], expected ${expected} (${quality})`,
          );
      });
    }
    expect(wrong).toEqual([]);
  });

  it('fills the structure: ids, postcode, coordinates and their precision, and says what it changed', async () => {
    const answer = await owner.post('/v2/addresses/clean', { address: 'ул. Ленина 5к2 кв 3, мск' });
    expect(answer.status, answer.text).toBe(200);
    const [cleaned] = answer.body.addresses;
    expect(cleaned).toMatchObject({
      source: 'ул. Ленина 5к2 кв 3, мск',
      quality: 'certain',
      region: 'Москва',
      city: 'Москва',
      streetWithType: 'ул Ленина',
      house: '5',
      blockType: 'к',
      block: '2',
      flatType: 'кв',
      flat: '3',
      postalCode: '101000',
      fiasLevel: 9,
      qcGeo: 0,
    });
    expect(cleaned.houseFiasId).toMatch(/^0b000000-/);
    expect(cleaned.flatFiasId).toMatch(/^0f000000-/);
    expect(cleaned.changes).toEqual(expect.arrayContaining(['"мск" read as г Москва', 'postcode added: 101000']));
    const typo = (await owner.post('/v2/addresses/clean', { address: 'Москва, ул Ленена 5' })).body.addresses[0];
    expect(typo.changes).toContain('street name corrected: ленена → ленина');
    const layout = (await owner.post('/v2/addresses/clean', { address: 'vjcrdf ktybyf 5' })).body.addresses[0];
    expect(layout.changes).toContain('typed in the Latin keyboard layout');
    const extras = (await owner.post('/v2/addresses/clean', { address: 'Москва, Ленина 5, подъезд 2, этаж 3' })).body
      .addresses[0];
    expect(extras.unparsed).toBe('подъезд 2 этаж 3');
  });

  it('refuses a body without an address, or with too many (400 naming the field)', async () => {
    const none = await owner.post('/v2/addresses/clean', {});
    expect(none.status).toBe(400);
    expect(none.body.code).toBe('validation_failed');
    expect(none.body.errors[0].field).toBe('address');
    const many = await owner.post('/v2/addresses/clean', { addresses: Array.from({ length: 51 }, () => 'Москва') });
    expect(many.status).toBe(400);
    expect(many.body.errors[0].field).toMatch(/addresses/);
    const anonymous = await t.client().post('/v2/addresses/clean', { address: 'Москва' });
    expect(anonymous.status).toBe(401);
  });
});

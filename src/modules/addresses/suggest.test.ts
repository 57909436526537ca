/** Suggestions as the buyer types, through HTTP, on the register's fixture (test-fixture.ts). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import type { ApiClient } from '../../../test/support/client.js';
import { FIXTURE_IDS, writeAddressFixture } from './test-fixture.js';

let t: TestApp;
let owner: ApiClient;

beforeAll(async () => {
  t = await createTestApp();
  await writeAddressFixture(t.runtime.database.db);
  t.runtime.services.addresses.forgetLoaded();
  owner = (await t.newAccount('Addresses')).client;
});
afterAll(async () => t.close());

interface Suggestion {
  value: string;
  unrestrictedValue: string;
  data: Record<string, unknown>;
}

async function suggest(query: Record<string, string | number>): Promise<Suggestion[]> {
  const search = new URLSearchParams(
    Object.entries(query).map(([key, value]): [string, string] => [key, String(value)]),
  );
  const answer = await owner.get(`/v2/addresses/suggest?${search}`);
  expect(answer.status, answer.text).toBe(200);
  return answer.body.suggestions as Suggestion[];
}
const values = async (query: Record<string, string | number>) => (await suggest(query)).map((each) => each.value);

describe('suggestions as the buyer types', () => {
  it('suggests cities from the first letters, the largest first', async () => {
    expect((await values({ query: 'мос' }))[0]).toBe('г Москва');
    expect(await values({ query: 'каз' })).toContain('г Казань');
  });

  it('forgives one typo, the Latin layout and nicknames', async () => {
    expect((await values({ query: 'мсоква' }))[0]).toBe('г Москва');
    expect((await values({ query: 'vjcrdf' }))[0]).toBe('г Москва');
    expect((await values({ query: 'екатеринбур' }))[0]).toBe('г Екатеринбург');
    expect((await values({ query: 'питер ' }))[0]).toBe('г Санкт-Петербург');
  });

  it('suggests streets of the city typed, with abbreviations both ways and typos', async () => {
    expect((await values({ query: 'москва твер' })).slice(0, 3)).toEqual(
      expect.arrayContaining(['г Москва, ул Тверская', 'г Москва, б-р Тверской']),
    );
    expect((await values({ query: 'мск улица ленин' }))[0]).toBe('г Москва, ул Ленина');
    expect((await values({ query: 'москва пр-т мира' }))[0]).toBe('г Москва, пр-кт Мира');
    expect((await values({ query: 'москва проспект мир' }))[0]).toBe('г Москва, пр-кт Мира');
    expect((await values({ query: 'москва энтузиаств' }))[0]).toBe('г Москва, ш Энтузиастов');
    expect((await values({ query: 'казань ул бауман' }))[0]).toBe('г Казань, ул Баумана');
  });

  it('suggests houses of the street, then flats', async () => {
    const houses = await values({ query: 'москва ленина 5' });
    expect(houses.slice(0, 4)).toEqual([
      'г Москва, ул Ленина, д 5',
      'г Москва, ул Ленина, д 5 к 1',
      'г Москва, ул Ленина, д 5 к 2',
      'г Москва, ул Ленина, д 5 к 2 стр 1',
    ]);
    expect((await values({ query: 'москва ленина 5к2с1' }))[0]).toBe('г Москва, ул Ленина, д 5 к 2 стр 1');
    expect((await values({ query: 'москва ул ленина д 12/2' }))[0]).toBe('г Москва, ул Ленина, д 12/2');
    const flats = await suggest({ query: 'москва ленина 5 к 2 кв 1' });
    expect(flats[0].value).toBe('г Москва, ул Ленина, д 5 к 2, кв 1');
    expect(flats[0].data.fiasLevel).toBe(9);
    expect(flats.map((each) => each.value)).toContain('г Москва, ул Ленина, д 5 к 2, кв 10');
    const house = (await suggest({ query: 'москва ленина 7 стр 1' }))[0];
    expect(house.value).toBe('г Москва, ул Ленина, д 7 стр 1');
    expect(house.data).toMatchObject({ house: '7', blockType: 'стр', block: '1', fiasLevel: 8, qcGeo: 0 });
  });

  it('keeps to a locality or region, and bounds by level', async () => {
    const inMoscow = await values({ query: 'ленина', locality: FIXTURE_IDS.moscow });
    expect(inMoscow[0]).toBe('г Москва, ул Ленина');
    expect(inMoscow.every((value) => value.startsWith('г Москва'))).toBe(true);
    const inYekaterinburg = await values({ query: 'ленина 1', locality: FIXTURE_IDS.yekaterinburg });
    expect(inYekaterinburg[0]).toBe('г Екатеринбург, пр-кт Ленина, д 1');
    expect(await values({ query: 'каз', region: '66' })).toEqual(['Свердловская обл, с Казанское']);
    expect(await values({ query: 'москва твер', toLevel: 'city' })).toEqual([]);
    // houses only: a street typed without a number lists its houses, never the street itself
    const housesOnly = await values({ query: 'москва ленина', fromLevel: 'house' });
    expect(housesOnly.length).toBeGreaterThan(0);
    expect(housesOnly.every((value) => value.startsWith('г Москва, ул Ленина, д '))).toBe(true);
    expect((await values({ query: 'хим', toLevel: 'city' }))[0]).toBe('Московская обл, г Химки');
  });

  it('suggests a settlement inside a city', async () => {
    expect((await values({ query: 'москва коммунарка ' }))[0]).toBe('г Москва, п Коммунарка');
    expect((await values({ query: 'коммунарка липовый' }))[0]).toBe('г Москва, п Коммунарка, ул Липовый Парк');
  });

  it('writes the structure as DaData does', async () => {
    const [house] = await suggest({ query: 'москва ленина 5к2' });
    expect(house.data).toMatchObject({
      regionFiasId: FIXTURE_IDS.moscow,
      regionWithType: 'г Москва',
      cityWithType: 'г Москва',
      streetWithType: 'ул Ленина',
      streetType: 'ул',
      streetTypeFull: 'улица',
      house: '5',
      blockType: 'к',
      block: '2',
      fiasLevel: 8,
      qcGeo: 0,
      postalCode: '101000',
    });
    expect(typeof house.data.geoLat).toBe('number');
    expect(house.unrestrictedValue).toBe('101000, г Москва, ул Ленина, д 5 к 2');
  });
});

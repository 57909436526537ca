/**
 * Houses of the register's sample placed on the map for a test. The sample's houses have no
 * coordinates (a house gets them only from an OpenStreetMap import), so a test that needs the
 * register to place a house writes its point into the house's row, as `addresses import-osm`
 * does ('house' precision). Houses are read from the database on every clean: no cache to clear.
 */
import { expect } from 'vitest';
import type { TestApp } from './app.js';
import type { ApiClient } from './client.js';

export const MOSCOW_FIAS = '0c5b2444-70a0-4932-980c-b4dc0d3f02b5';

export interface SampleHouse {
  street: string;
  house: string;
  houseFiasId: string;
}

/** The `index`-th house of the sample on a street of a city, as our suggestions give it. */
export async function sampleHouse(
  client: ApiClient,
  cityFias: string,
  street: string,
  index = 0,
): Promise<SampleHouse> {
  const answer = await client.get(
    `/v2/addresses/suggest?query=${encodeURIComponent(`${street} д 1`)}&locality=${cityFias}&fromLevel=house&toLevel=house&count=20`,
  );
  expect(answer.status, answer.text).toBe(200);
  const houses = (
    answer.body.suggestions as Array<{
      data: { house: string | null; streetWithType: string | null; houseFiasId: string | null; block: string | null };
    }>
  ).filter((item) => item.data.houseFiasId && item.data.house && !item.data.block);
  const found = houses[index];
  expect(found, `no house ${index} of ${street} in the sample`).toBeDefined();
  return {
    street: found.data.streetWithType as string,
    house: found.data.house as string,
    houseFiasId: found.data.houseFiasId as string,
  };
}

/** Gives a sample house a point of its own, as an OSM import would. */
export async function placeHouse(t: TestApp, houseFiasId: string, latitude: number, longitude: number): Promise<void> {
  const result = await t.runtime.database.db
    .updateTable('address_houses')
    .set({ lat: latitude, lon: longitude, geo_precision: 'house' })
    .where('guid', '=', houseFiasId)
    .executeTakeFirst();
  expect(Number(result.numUpdatedRows)).toBe(1);
}

/**
 * An own method's zone: listed localities, else a radius around the sender, measured between the
 * localities' centres or, where the register placed both houses, between them: either suffices.
 */
import { describe, expect, it } from 'vitest';
import { distanceKm } from '../../carriers/geo.js';
import { serves } from './rules.js';

const moscow = { id: 524901, fias: '0c5b2444-70a0-4932-980c-b4dc0d3f02b5', latitude: 55.75222, longitude: 37.61556 };
const kazan = { id: 551487, fias: '93b3df57-4c89-44df-ac42-96f05e9cd3b9', latitude: 55.78874, longitude: 49.12214 };
const courier = { localities: [] as string[], radiusKm: 10 };

describe('serves', () => {
  // 18 km north of Moscow's centre, and 3 km from it
  const farHouse = { latitude: 55.914, longitude: 37.6156 };
  const nearHouse = { latitude: 55.779, longitude: 37.6156 };
  const warehouse = { latitude: 55.7522, longitude: 37.6156 };

  it('measures centre to centre without the houses: one city is 0 km', () => {
    expect(serves(courier, moscow, moscow)).toBe(true);
    expect(serves(courier, kazan, moscow)).toBe(false);
    // one house known is not two
    expect(serves(courier, moscow, moscow, { sender: warehouse, recipient: null })).toBe(true);
    expect(serves(courier, moscow, moscow, { sender: null, recipient: farHouse })).toBe(true);
  });

  it('also measures house to house where the register placed both: either within the radius serves', () => {
    expect(distanceKm(warehouse.latitude, warehouse.longitude, farHouse.latitude, farHouse.longitude)).toBeGreaterThan(
      17,
    );
    // what the centres served before still is: the order says its house is beyond (composer's finding)
    expect(serves(courier, moscow, moscow, { sender: warehouse, recipient: farHouse })).toBe(true);
    expect(serves(courier, moscow, moscow, { sender: warehouse, recipient: nearHouse })).toBe(true);
    expect(
      serves(courier, kazan, moscow, { sender: warehouse, recipient: { latitude: 55.79, longitude: 49.12 } }),
    ).toBe(false);
    // a recipient's house in another locality, near the warehouse (the localities' centres are 700 km apart)
    expect(serves(courier, kazan, moscow, { sender: warehouse, recipient: nearHouse })).toBe(true);
    expect(serves({ ...courier, radiusKm: 20 }, moscow, moscow, { sender: warehouse, recipient: farHouse })).toBe(true);
  });

  it('a listed locality is served wherever its houses are; no radius and not listed is never', () => {
    const exact = { sender: warehouse, recipient: farHouse };
    expect(serves({ localities: [moscow.fias], radiusKm: 1 }, moscow, moscow, exact)).toBe(true);
    expect(serves({ localities: [`gn:${moscow.id}`], radiusKm: null }, moscow, moscow, exact)).toBe(true);
    expect(
      serves({ localities: [], radiusKm: null }, moscow, moscow, { sender: warehouse, recipient: nearHouse }),
    ).toBe(false);
  });
});

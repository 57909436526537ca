/**
 * How long a built-in (simulated) company's parcel really travels, in business days: the
 * declared range, a bias of its route (some routes keep to the declaration, most lose a day
 * or two, as this market's companies do), a day lost at a hub now and then with a heavy tail,
 * and a Friday hand-over that misses the week's last trunk. The same route and roll give the
 * same days. Pure.
 */
import { createHash } from 'node:crypto';
import { weekdayOf } from '../../platform/clock.js';
import type { Route } from './distribution.js';

/** A number in [0, 1) of a text: the same text, the same number. */
export function unitOf(text: string): number {
  return createHash('sha256').update(text).digest().readUInt32BE(0) / 2 ** 32;
}

/** Routes' rolls: a history of many parcels asks each route's again and again (a hash is ~1 µs). */
const routeRolls = new Map<string, number>();

/** Days a route adds to every parcel on it (its bias): a lookup of its key's roll. */
export function routeBiasOf(route: Route): number {
  const key = `route:${route.companyId}:${route.deliveryType}:${route.from.id}:${route.to.id}`;
  let roll = routeRolls.get(key);
  if (roll === undefined) {
    roll = unitOf(key);
    if (routeRolls.size >= 100_000) routeRolls.clear();
    routeRolls.set(key, roll);
  }
  if (roll < 0.3) return 0;
  if (roll < 0.7) return 1;
  if (roll < 0.9) return 2;
  return 3;
}

/**
 * The business days one parcel takes. `rolls` gives numbers in [0, 1) (a seeded generator,
 * or hashes of the order): three are read.
 */
export function simulatedTransitDays(
  route: Route,
  declared: { min: number; max: number },
  handOverDate: string,
  rolls: () => number,
): number {
  const spread = Math.max(0, declared.max - declared.min);
  let days = declared.min + Math.floor(rolls() * (spread + 1)) + routeBiasOf(route);
  const hub = rolls();
  if (hub < 0.04) {
    // a parcel stuck at a hub: two days or more, a tail that thins slowly (the week a hub is flooded)
    days += 2 + Math.min(12, Math.floor(-Math.log(Math.max(1e-9, rolls())) * 2));
  } else if (hub < 0.16) {
    days += 1;
  } else {
    rolls();
  }
  if (weekdayOf(handOverDate) === 4 && unitOf(`friday:${handOverDate}:${route.to.id}`) < 0.35) days += 1;
  return Math.max(0, days);
}

/** A seeded generator of numbers in [0, 1) (mulberry32): the same seed, the same history. */
export function seededRolls(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 2 ** 32;
  };
}

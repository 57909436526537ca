/** What is being sent, from the many ways a calculator call may describe it (pure). */
import type { Cargo, CargoPlace } from '../../carriers/types.js';

export interface Sides {
  width?: number;
  height?: number;
  length?: number;
}

export interface CargoItem {
  weight?: number;
  dimensions?: Sides;
  count?: number;
}

export interface CargoInput {
  products?: CargoItem[];
  kits?: CargoItem[];
  places?: CargoItem[];
  weight?: number;
  dimensions?: Sides;
  volume?: number;
  itemCount?: number;
}

export interface CargoDefaults {
  weightGrams: number | null;
  sides: [number, number, number] | null;
}

/** Used when nothing says what the parcel weighs (the contract's pickup default, section 8). */
export const DEFAULT_WEIGHT_GRAMS = 1000;

function sidesOf(dimensions: Sides | undefined): [number, number, number] | null {
  if (!dimensions || !dimensions.width || !dimensions.height || !dimensions.length) return null;
  return [dimensions.width, dimensions.height, dimensions.length].sort((a, b) => b - a) as [number, number, number];
}

/**
 * One of `count` equal places cut from a shipment across its longest side: the places'
 * volumes add up to the shipment's, so the number of places never changes the price by volume.
 */
export function splitSides(sides: [number, number, number], count: number): [number, number, number] {
  if (count <= 1) return sides;
  return [sides[0] / count, sides[1], sides[2]].sort((a, b) => b - a) as [number, number, number];
}

const grams = (kg: number | undefined) => (kg === undefined ? 0 : Math.round(kg * 1000));
const volumeOf = (sides: [number, number, number]) => sides[0] * sides[1] * sides[2];

/**
 * Places win; else goods (products and kits, per unit times count) stacked into one box;
 * overall weight, dimensions and volume, when sent, override what the goods add up to.
 * `defaults` (widget settings) fill a missing weight or size; else 1 kg.
 */
export function buildCargo(input: CargoInput, defaults: CargoDefaults | null): Cargo {
  const overallSides = sidesOf(input.dimensions);
  let places: CargoPlace[];
  if (input.places?.length) {
    places = input.places.map((place) => ({
      sidesCm: sidesOf(place.dimensions) ?? defaults?.sides ?? null,
      weightGrams: grams(place.weight),
    }));
  } else {
    const items = [...(input.products ?? []), ...(input.kits ?? [])];
    let weightGrams = 0;
    let stacked: [number, number, number] | null = null;
    for (const item of items) {
      const count = item.count ?? 1;
      weightGrams += grams(item.weight) * count;
      const sides = sidesOf(item.dimensions);
      if (sides) {
        // goods lie flat on each other: the longest sides are the box's, the thinnest add up
        const [a, b, c]: [number, number, number] = stacked ?? [0, 0, 0];
        stacked = [Math.max(a, sides[0]), Math.max(b, sides[1]), c + sides[2] * count];
      }
    }
    const count = Math.max(1, input.itemCount ?? 1);
    // Overall sizes and stacked goods describe the whole shipment: its places share it. The widget's default sizes are a parcel's.
    const wholeSides = overallSides ?? (stacked ? (stacked.sort((x, y) => y - x) as [number, number, number]) : null);
    const sides = wholeSides ? splitSides(wholeSides, count) : (defaults?.sides ?? null);
    const shipmentGrams = input.weight !== undefined ? grams(input.weight) : weightGrams;
    places = Array.from({ length: count }, (_, index) => ({
      sidesCm: sides,
      weightGrams: Math.floor(shipmentGrams / count) + (index === 0 ? shipmentGrams % count : 0),
    }));
  }
  let weightGrams =
    input.weight !== undefined ? grams(input.weight) : places.reduce((sum, place) => sum + place.weightGrams, 0);
  if (weightGrams <= 0) weightGrams = defaults?.weightGrams ?? DEFAULT_WEIGHT_GRAMS;
  const volumeCm3 =
    input.volume !== undefined
      ? Math.round(input.volume * 1e6)
      : Math.round(places.reduce((sum, place) => sum + (place.sidesCm ? volumeOf(place.sidesCm) : 0), 0));
  return { weightGrams, volumeCm3, places };
}

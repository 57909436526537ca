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
    places = input.places.map((place) => ({ sidesCm: sidesOf(place.dimensions) ?? defaults?.sides ?? null, weightGrams: grams(place.weight) }));
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
    const sides = overallSides ?? (stacked ? (stacked.sort((x, y) => y - x) as [number, number, number]) : null) ?? defaults?.sides ?? null;
    places = Array.from({ length: count }, (_, index) => ({
      sidesCm: sides,
      weightGrams: Math.floor(weightGrams / count) + (index === 0 ? weightGrams % count : 0),
    }));
  }
  let weightGrams = input.weight !== undefined ? grams(input.weight) : places.reduce((sum, place) => sum + place.weightGrams, 0);
  if (weightGrams <= 0) weightGrams = defaults?.weightGrams ?? DEFAULT_WEIGHT_GRAMS;
  const volumeCm3 =
    input.volume !== undefined ? Math.round(input.volume * 1e6) : places.reduce((sum, place) => sum + (place.sidesCm ? volumeOf(place.sidesCm) : 0), 0);
  return { weightGrams, volumeCm3, places };
}

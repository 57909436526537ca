/** Checks of sizes and weights that a schema cannot express exactly. */
import type { FieldErrorCollector } from './errors.js';

/** Whole grams of a kilogram value; reports a value finer than a gram. */
export function gramsOf(kg: number, field: string, problems: FieldErrorCollector): number {
  const grams = kg * 1000;
  const rounded = Math.round(grams);
  if (Math.abs(grams - rounded) > 1e-6) problems.add(field, 'must be given to the gram (at most 3 decimals)');
  return rounded;
}

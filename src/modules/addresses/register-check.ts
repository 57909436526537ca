/**
 * An address typed elsewhere (a courier order's recipient, a sender's warehouse) checked against
 * the federal address register: the address as typed stays where it was, and what the register
 * made of it is kept beside it as a `register` entry (the FIAS id, the postcode, the coordinates
 * and how sure the register is). An address less than a house is never refused (real clients
 * send what they have): its finding is said in `register.finding` (docs/decisions/addresses.md,
 * "Where addresses are used").
 */
import type { AddressLookup, AddressSuggestion, CleanedAddress, CleanQuality } from './model.js';

/** What a checking area needs of the address service: cleaning free text, and the object of a FIAS id a suggestion gave. */
export type AddressChecker = Pick<AddressLookup, 'clean' | 'findById'>;

/**
 * How long a check waits for the register (ms). The register's own answer takes a millisecond
 * or two; a shop's own DaData key may ask DaData (its own deadline and breaker are in the
 * addresses area), and an order or a warehouse must not wait for a remote company longer than this.
 */
export const ADDRESS_CHECK_DEADLINE_MS = 1_500;

/** The house (DaData's `fias_level` 8) or its flat (9): an address less exact is a finding (65, a planning structure, is less). */
const atHouse = (level: number): boolean => level === 8 || level === 9;

/** A `register` entry: the keys in the published schemas' order (stored documents are sent as they are). */
export interface RegisterEntry {
  /** The most exact object found (the flat, else the house, else the street …). */
  fiasId: string | null;
  fiasLevel: number;
  houseFiasId: string | null;
  postalCode: string | null;
  latitude: number | null;
  longitude: number | null;
  /** DaData's qc_geo: 0 the house, 1 the street, 2 the settlement, 3 the city, 4 the region, 5 none. */
  geoPrecision: number;
  quality: CleanQuality;
  /** The address written the register's way. */
  result: string | null;
  /** Why a person should look at it (less than a house, not recognised, not checked), or null. */
  finding: string | null;
}

/** A point on the map, degrees. */
export interface Position {
  latitude: number;
  longitude: number;
}

/**
 * The entry's coordinates when they place the address itself: a house's own point, or its
 * street's (qc_geo 0 or 1). A locality's centre put on an address says nothing the locality
 * does not already say, so it is no position: callers keep their locality rule then.
 */
export function exactPosition(
  entry: Pick<RegisterEntry, 'latitude' | 'longitude' | 'geoPrecision'> | null | undefined,
): Position | null {
  if (!entry || entry.latitude === null || entry.longitude === null || entry.geoPrecision > 1) return null;
  return { latitude: entry.latitude, longitude: entry.longitude };
}

/** The part of an address this reads (an order's deliveryAddress, a warehouse's address). */
export interface TypedAddress {
  city: { name: string; type?: string | null; region?: string | null; area?: string | null };
  street?: string | null;
  house?: string | null;
  bulk?: string | null;
  flat?: string | null;
  /** The house's (or flat's) FIAS id when the address was picked from our suggestions. */
  fiasId?: string | null;
}

/** The address on one line as cleaning reads it: region, city, street, house, block, flat, each once. */
export function addressLine(address: TypedAddress): string {
  const { city } = address;
  const cityName = [city.type, city.name].filter(Boolean).join(' ');
  const parts = [
    city.region && city.region !== city.name ? city.region : null,
    city.area,
    cityName,
    address.street,
    address.house ? (/^\p{L}/u.test(address.house) ? address.house : `д ${address.house}`) : null,
    address.bulk ? `к ${address.bulk}` : null,
    address.flat ? (/^\p{L}/u.test(address.flat) ? address.flat : `кв ${address.flat}`) : null,
  ];
  return parts
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(', ');
}

/**
 * How a finding ends, said by the area that checks: what a person should do about it ("check it
 * before the courier goes").
 */
export interface FindingWords {
  advice: string;
}

/** The finding of an address the register knows less well than a house, else null. */
function findingOf(
  found: { fiasLevel: number; quality: CleanQuality },
  typed: string,
  words: FindingWords,
): string | null {
  if (found.quality === 'unrecognised' || found.fiasLevel < 0)
    return `The address "${typed}" was not recognised in the federal address register; it is kept as typed: ${words.advice}.`;
  if (!atHouse(found.fiasLevel))
    return `The address "${typed}" was found in the federal address register only down to ${levelName(found.fiasLevel)}, not to the house; it is kept as typed: ${words.advice}.`;
  // a house found with changes (a flat the register does not list, a typo mended) is a house: its quality says "check"
  return null;
}

function levelName(level: number): string {
  if (level === 7) return 'the street';
  if (level === 65) return 'the planning structure';
  if (level === 6 || level === 5) return 'the settlement';
  if (level === 4) return 'the city';
  return 'the region';
}

function entryOf(
  found: CleanedAddress | (AddressSuggestion['data'] & { quality: CleanQuality; result: string | null }),
  typed: string,
  words: FindingWords,
): RegisterEntry {
  return {
    fiasId: found.fiasId,
    fiasLevel: found.fiasLevel,
    houseFiasId: found.houseFiasId,
    postalCode: found.postalCode,
    latitude: found.geoLat,
    longitude: found.geoLon,
    geoPrecision: found.qcGeo,
    quality: found.quality,
    result: found.result,
    finding: findingOf(found, typed, words),
  };
}

/**
 * What the register makes of an address: by the FIAS id its suggestion gave, else by cleaning
 * the text. Never throws: a register that fails or is late leaves the address as typed, with a
 * finding that says it was not checked.
 */
export async function checkAddress(
  checker: AddressChecker,
  address: TypedAddress,
  accountId: number,
  words: FindingWords,
  deadlineMs = ADDRESS_CHECK_DEADLINE_MS,
): Promise<RegisterEntry> {
  const typed = addressLine(address);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), deadlineMs);
    timer.unref();
  });
  try {
    const found = await Promise.race([lookUp(checker, address, typed, accountId, words), late]);
    if (found) return found;
    return notChecked(typed, `the register did not answer within ${deadlineMs} ms`);
  } catch (error) {
    return notChecked(typed, error instanceof Error ? error.message : String(error));
  } finally {
    clearTimeout(timer);
  }
}

async function lookUp(
  checker: AddressChecker,
  address: TypedAddress,
  typed: string,
  accountId: number,
  words: FindingWords,
): Promise<RegisterEntry> {
  if (address.fiasId) {
    const picked = await checker.findById(address.fiasId, accountId);
    // a suggestion's id is the person's own choice: the flat typed after it is kept in the contract's field
    if (picked && atHouse(picked.data.fiasLevel))
      return entryOf({ ...picked.data, quality: 'certain', result: picked.unrestrictedValue }, typed, words);
  }
  return entryOf(await checker.clean(typed, accountId), typed, words);
}

function notChecked(typed: string, reason: string): RegisterEntry {
  return {
    fiasId: null,
    fiasLevel: -1,
    houseFiasId: null,
    postalCode: null,
    latitude: null,
    longitude: null,
    geoPrecision: 5,
    quality: 'unrecognised',
    result: null,
    finding: `The address "${typed}" was not checked in the federal address register (${reason}); it is kept as typed.`,
  };
}

/**
 * A courier order's recipient address checked against the federal address register
 * (modules/addresses): the address as typed stays in the contract's fields, and what the
 * register made of it goes beside them in `deliveryAddress.register` (extension): the FIAS id,
 * the postcode, the coordinates and how sure the register is. An address that is less than a
 * house is never refused (real plugins send what they have): its finding is said in
 * `register.finding`, and the order stays confirmable (its `error` is the contract's "not
 * priced", which refuses confirmation; docs/decisions/addresses.md, "Where addresses are used").
 */
import type { AddressLookup, AddressSuggestion, CleanedAddress, CleanQuality } from '../addresses/model.js';

/** What orders need of the address service: cleaning free text, and the object of a FIAS id a suggestion gave. */
export type AddressChecker = Pick<AddressLookup, 'clean' | 'findById'>;

/**
 * How long creating an order waits for the register (ms). The register's own answer takes a
 * millisecond or two; a shop's own DaData key may ask DaData (its own deadline and breaker are
 * in the addresses area), and an order must not wait for a remote company longer than this.
 */
export const ADDRESS_CHECK_DEADLINE_MS = 1_500;

/** The house (DaData's `fias_level` 8) or its flat (9): an address less exact is a finding (65, a planning structure, is less). */
const atHouse = (level: number): boolean => level === 8 || level === 9;

/** `deliveryAddress.register` of an order: the keys in the Order schema's order (the stored order is sent as it is). */
export interface RecipientRegisterEntry {
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

/** The part of an order's request this reads. */
export interface TypedAddress {
  city: { name: string; type?: string | null; region?: string | null; area?: string | null };
  street?: string | null;
  house?: string | null;
  bulk?: string | null;
  flat?: string | null;
  /** Extension: the house's (or flat's) FIAS id when the address was picked from our suggestions. */
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

/** The finding of an address the register knows less well than a house, else null. */
function findingOf(found: { fiasLevel: number; quality: CleanQuality }, typed: string): string | null {
  if (found.quality === 'unrecognised' || found.fiasLevel < 0)
    return `The address "${typed}" was not recognised in the federal address register; it is kept as typed: check it before the courier goes.`;
  if (!atHouse(found.fiasLevel))
    return `The address "${typed}" was found in the federal address register only down to ${levelName(found.fiasLevel)}, not to the house; it is kept as typed: check it before the courier goes.`;
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
): RecipientRegisterEntry {
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
    finding: findingOf(found, typed),
  };
}

/**
 * What the register makes of a courier order's address: by the FIAS id its suggestion gave,
 * else by cleaning the text. Never throws: a register that fails or is late leaves the
 * address as typed, with a finding that says it was not checked.
 */
export async function checkRecipientAddress(
  checker: AddressChecker,
  address: TypedAddress,
  accountId: number,
  deadlineMs = ADDRESS_CHECK_DEADLINE_MS,
): Promise<RecipientRegisterEntry> {
  const typed = addressLine(address);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), deadlineMs);
    timer.unref();
  });
  try {
    const found = await Promise.race([lookUp(checker, address, typed, accountId), late]);
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
): Promise<RecipientRegisterEntry> {
  if (address.fiasId) {
    const picked = await checker.findById(address.fiasId, accountId);
    // a suggestion's id is the buyer's own choice: the flat typed after it is kept in the contract's field
    if (picked && atHouse(picked.data.fiasLevel))
      return entryOf({ ...picked.data, quality: 'certain', result: picked.unrestrictedValue }, typed);
  }
  return entryOf(await checker.clean(typed, accountId), typed);
}

function notChecked(typed: string, reason: string): RecipientRegisterEntry {
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

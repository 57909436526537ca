/**
 * What the order's page says of the federal address register's finding on a courier address, in
 * the page's language: the address found only down to a street (or less), not found, or found to
 * the house but beyond the radius of the shop's own courier (the service's sentence, whose two
 * distances are read back). Pure, so it is tested against the service's own sentences.
 */
import type { Order } from '../../api';
import type { TextKey } from '../../i18n';

type RegisterEntry = NonNullable<NonNullable<Order['deliveryAddress']>['register']>;

export type FindingWords =
  | { key: 'addressPartlyFound'; level: TextKey }
  | { key: 'addressNotFound' }
  | { key: 'addressBeyondRadius'; radius: string; km: string }
  /** A finding of another kind on a house that was found: said as the service wrote it. */
  | { key: 'addressFinding'; finding: string };

const BEYOND_RADIUS = /delivers within ([\d.]+) km of the warehouse; the recipient's house is ([\d.]+) km from it/;

export function findingWords(
  register: Pick<RegisterEntry, 'finding' | 'fiasLevel' | 'quality'> | undefined | null,
): FindingWords | null {
  if (!register?.finding) return null;
  if (register.fiasLevel < 0 || register.quality === 'unrecognised') return { key: 'addressNotFound' };
  if (register.fiasLevel === 8 || register.fiasLevel === 9) {
    const beyond = BEYOND_RADIUS.exec(register.finding);
    return beyond
      ? { key: 'addressBeyondRadius', radius: beyond[1], km: beyond[2] }
      : { key: 'addressFinding', finding: register.finding };
  }
  return { key: 'addressPartlyFound', level: foundLevelKey(register.fiasLevel) };
}

/** The most exact level the register found, as DaData's fias_level numbers it (8 the house is no finding). */
function foundLevelKey(fiasLevel: number): TextKey {
  if (fiasLevel === 7) return 'addressLevelStreet';
  if (fiasLevel === 65) return 'addressLevelPlanning';
  if (fiasLevel >= 4) return 'addressLevelLocality';
  return 'addressLevelRegion';
}

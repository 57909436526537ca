/**
 * A parcel's first arrival as the delivery promises count it (modules/delivery-promises): delivered
 * for a courier; at the pickup point or post office for the other types, or delivered when the
 * company never reported it there. Its route from the directory's localities, its two days in the
 * account's time zone.
 */
import type { Locality } from '../../carriers/types.js';
import { todayIn } from '../../platform/clock.js';
import { placeOf, type Arrival } from '../delivery-promises/service.js';
import type { LocalityDirectory } from '../localities/directory.js';
import type { OrderDoc } from './document.js';
import { handedOverAt } from './state.js';
import type { OrderRecord } from './store.js';

const DELIVERED_CODES: readonly number[] = [44, 47];
const ARRIVAL_CODES: readonly number[] = [42, 44, 47];

/**
 * The arrival that status `code` (already first in `doc.statusHistory`) makes, or null when it
 * makes none: not an arrival, one already counted, an own method's, not handed over, a locality
 * the directory does not know, a simulated parcel without declared days to model it on.
 */
export async function arrivalOf(
  record: Pick<OrderRecord, 'accountId' | 'id'>,
  doc: OrderDoc,
  code: number,
  at: string,
  context: {
    localities: Pick<LocalityDirectory, 'find'>;
    /** A built-in company's journey runs in minutes: its days are modelled (service.ts). */
    simulated: boolean;
    timeZone(): Promise<string>;
  },
): Promise<Arrival | null> {
  if (typeof doc.delivery.company.id !== 'number') return null;
  const arrives = doc.delivery.type === 2 ? DELIVERED_CODES : ARRIVAL_CODES;
  if (!arrives.includes(code)) return null;
  if (doc.statusHistory.slice(1).some((item) => ARRIVAL_CODES.includes(item.code))) return null;
  const handedOver = handedOverAt(doc);
  if (!handedOver) return null;
  const localityOf = (city: OrderDoc['deliveryAddress']['city']): Locality | undefined =>
    context.localities.find({ countryCode: city.countryCode, fias: city.fias, name: city.name, region: city.region });
  const from = localityOf(doc.senderAddress.city);
  const to = localityOf(doc.deliveryAddress.city);
  if (!from || !to) return null;
  const promise = doc.delivery.promise ?? null;
  const { min, max } = doc.delivery.days;
  const declared = promise?.declaredDays ?? (min !== null && max !== null ? { min, max } : null);
  if (context.simulated && !declared) return null;
  const zone = await context.timeZone();
  return {
    accountId: record.accountId,
    orderId: record.id,
    route: {
      companyId: doc.delivery.company.id,
      deliveryType: doc.delivery.type,
      tariff: doc.delivery.company.tariff,
      from: placeOf(from),
      to: placeOf(to),
    },
    fromName: from.name,
    toName: to.name,
    handedOver: todayIn(zone, new Date(handedOver)),
    arrived: todayIn(zone, new Date(at)),
    declared,
    promise,
    simulated: context.simulated,
  };
}

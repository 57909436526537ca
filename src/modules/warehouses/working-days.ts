/** Which days a warehouse hands parcels over: pickups are booked and orders wait for them only on those. */
import { weekdayOf } from '../../platform/clock.js';
import type { Warehouse } from './schemas.js';

/** Why nobody hands parcels over at the warehouse on `date` (`YYYY-MM-DD`), or null on a working day. */
export function closedReason(warehouse: Pick<Warehouse, 'holidays' | 'schedule'>, date: string): string | null {
  if (warehouse.holidays.includes(date)) return 'is a holiday of the warehouse';
  if (warehouse.schedule[weekdayOf(date)] === null) return 'is a day off of the warehouse (its schedule)';
  return null;
}

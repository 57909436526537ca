/**
 * CDEK's offices and parcel lockers ("Список офисов", GET /v2/deliverypoints) as our imported
 * points, with their week of opening hours. Apart from mapper.ts because the points import
 * reads the whole directory on its own schedule, for no order; mapper.ts re-exports it for the
 * driver.
 */
import type { ImportedPoint } from '../types.js';

const DAYS = 7;

/** GET /v2/deliverypoints items as imported points; items without a code or coordinates are dropped. */
export function pointsOf(body: unknown): ImportedPoint[] {
  if (!Array.isArray(body)) return [];
  const points: ImportedPoint[] = [];
  for (const item of body as Array<Record<string, unknown> | null>) {
    const where = item?.location as
      | {
          country_code?: unknown;
          city?: unknown;
          postal_code?: unknown;
          address?: unknown;
          latitude?: unknown;
          longitude?: unknown;
        }
      | undefined;
    if (
      !item ||
      typeof item.code !== 'string' ||
      !where ||
      typeof where.latitude !== 'number' ||
      typeof where.longitude !== 'number' ||
      typeof where.city !== 'string'
    )
      continue;
    const schedule: ImportedPoint['schedule'] = Array.from({ length: DAYS }, () => null);
    for (const slot of Array.isArray(item.work_time_list)
      ? (item.work_time_list as Array<{ day?: unknown; time?: unknown }>)
      : []) {
      const match = typeof slot?.time === 'string' ? /^(\d\d:\d\d)\/(\d\d:\d\d)$/.exec(slot.time) : null;
      if (match && typeof slot.day === 'number' && slot.day >= 1 && slot.day <= DAYS)
        schedule[slot.day - 1] = { from: match[1], to: match[2] };
    }
    points.push({
      code: item.code,
      type: item.type === 'POSTAMAT' ? 2 : 1,
      name: typeof item.name === 'string' ? item.name : item.code,
      countryCode: typeof where.country_code === 'string' ? where.country_code : 'RU',
      city: where.city,
      postalCode: typeof where.postal_code === 'string' ? where.postal_code : null,
      address: typeof where.address === 'string' ? where.address : '',
      latitude: where.latitude,
      longitude: where.longitude,
      schedule,
      cashPaymentAvailable: item.have_cash === true,
      cardPaymentAvailable: item.have_cashless === true,
      fittingAvailable: item.is_dressing_room === true,
      maxWeightGrams: typeof item.weight_max === 'number' ? Math.round(item.weight_max * 1000) : null,
      description: typeof item.address_comment === 'string' ? item.address_comment : null,
    });
  }
  return points;
}

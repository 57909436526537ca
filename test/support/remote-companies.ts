/**
 * What the real companies' driver tests share: a fast resilience policy, a quote request
 * and a recipient address, remote companies whose calls are recorded, and the checks every
 * connector's breaker and call records must pass.
 */
import { expect } from 'vitest';
import { RemoteCompany, type RemoteCallRecord, type RemotePolicy } from '../../src/carriers/remote-call.js';
import type { DeliveryType, QuoteRequest, ShipmentDetails, ShipmentRequest } from '../../src/carriers/types.js';
import type { FakeRealCarrier } from './fake-real-carriers.js';

/** Milliseconds instead of seconds; the breaker opens by the window (4 calls), not by calls in a row. */
export const FAST: RemotePolicy = {
  timeoutMs: 300,
  retries: 2,
  backoffMs: 5,
  perSecond: 1000,
  concurrent: 10,
  breaker: { errorPercent: 50, volume: 4, consecutive: 100, resetMs: 200, windowMs: 10_000 },
};
export const signal = () => AbortSignal.timeout(5000);
const place = (name: string, postalCode: string) => ({
  latitude: 55.75,
  longitude: 37.62,
  regionCode: '77',
  localityId: 524901,
  population: 1e7,
  name,
  postalCode,
  countryCode: 'RU',
});
/** Moscow to St Petersburg, 1.2 kg in a 30×20×10 box, every type asked. */
export const quoteRequest: QuoteRequest = {
  types: [1, 2, 3],
  sender: place('Москва', '125009'),
  recipient: place('Санкт-Петербург', '190000'),
  distanceKm: 630,
  cargo: { weightGrams: 1200, volumeCm3: 6000, places: [{ weightGrams: 1200, sidesCm: [30, 20, 10] }] },
  priceMode: 1,
};
export const recipientAddress = {
  countryCode: 'RU',
  postalCode: '190000',
  city: 'Санкт-Петербург',
  region: 'Санкт-Петербург',
  street: 'Невский проспект',
  house: '1',
  flat: '5',
};

const orderIds = new Map<string, number>();

/**
 * An order to St Petersburg as registration sees it: 1.2 kg, declared 1500 ₽, 1200 ₽ to
 * collect (two T-shirts at 500 ₽ and a delivery charge of 200 ₽); `details` replace the
 * defaults (a pickup point's code, a comment).
 */
export function shipmentRequest(
  number: string,
  type: DeliveryType,
  details: Partial<ShipmentDetails> = {},
  codKopecks = 120_000,
): ShipmentRequest {
  // one order id per shop number, as the service has: companies numbering by our id (CDEK) see one order per number
  const orderId = orderIds.get(number) ?? 7000 + orderIds.size;
  orderIds.set(number, orderId);
  const deliveryCod = Math.min(20_000, codKopecks);
  const unitCod = Math.floor((codKopecks - deliveryCod) / 2);
  return {
    orderId,
    accountId: 1,
    type,
    pointId: null,
    recipientLocalityId: 498817,
    cargo: { weightGrams: 1200, volumeCm3: 6000, places: [] },
    declaredKopecks: 150_000,
    codKopecks,
    details: {
      number,
      recipient: { fullName: 'Котова Светлана Ивановна', phone: '+79215556677', email: null },
      address: recipientAddress,
      sender: {
        name: 'Магазин',
        phone: '+74950000000',
        address: { ...recipientAddress, city: 'Москва', postalCode: '125009' },
      },
      pointCode: null,
      sidesCm: [30, 20, 10],
      comment: null,
      goods: [
        {
          name: 'Футболка хлопковая',
          article: 'TS-001',
          count: 2,
          codKopecks: unitCod,
          declaredKopecks: 75_000,
          weightGrams: 500,
          vat: 20,
        },
      ],
      deliveryCodKopecks: codKopecks - unitCod * 2,
      tariffName: null,
      ...details,
    },
  };
}

/** Remote companies made for a test file, their calls recorded; `shutdown` stops their breakers' timers. */
export class RecordedRemotes {
  readonly records: RemoteCallRecord[] = [];
  readonly made: RemoteCompany[] = [];

  remote(companyId: number, code: string, policy: RemotePolicy = FAST): RemoteCompany {
    const made = new RemoteCompany(
      companyId,
      code,
      policy,
      { remoteCall: (record) => this.records.push(record) },
      null,
    );
    this.made.push(made);
    return made;
  }

  /** The remote company made last (the one a driver just made holds). */
  get last(): RemoteCompany {
    return this.made[this.made.length - 1];
  }

  shutdown(): void {
    for (const made of this.made) made.shutdown();
  }

  /** Every record names company, operation, duration, outcome and attempts, and none holds a secret. */
  expectClean(secrets: RegExp): void {
    expect(this.records.length).toBeGreaterThan(10);
    for (const record of this.records) {
      expect(Object.keys(record).sort()).toEqual(['attempts', 'company', 'durationMs', 'operation', 'outcome']);
      expect(JSON.stringify(record)).not.toMatch(secrets);
    }
  }
}

/**
 * The breaker of `company` (policy FAST without retries) opens after the fake fails
 * repeatedly, answers at once while open, half-opens after `resetMs` and closes after a
 * good call; `quote` is one call through the driver, answering `quotes` quotes when well.
 */
export async function expectCircuitCycle(
  company: RemoteCompany,
  fake: FakeRealCarrier,
  records: RemoteCallRecord[],
  quote: () => Promise<unknown[]>,
  quotes: number,
): Promise<void> {
  await quote();
  fake.mode = '500';
  for (let index = 0; index < 4; index++) await quote().catch(() => undefined);
  expect(company.circuit).toBe('open');
  const before = fake.calls.length;
  await expect(quote()).rejects.toThrow(/not asked for a while/);
  expect(fake.calls.length).toBe(before);
  expect(records.some((record) => record.company === company.code && record.outcome === 'open')).toBe(true);
  fake.mode = 'ok';
  await new Promise((resolve) => setTimeout(resolve, 250));
  expect(company.circuit).toBe('halfOpen');
  await expect(quote()).resolves.toHaveLength(quotes);
  expect(company.circuit).toBe('closed');
}

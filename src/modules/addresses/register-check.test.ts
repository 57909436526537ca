/**
 * The check shared by orders and warehouses, with fake registers: a register that fails or is
 * late leaves the address as typed with a finding (never an exception), and only a house's or a
 * street's point is a position (a locality's centre put on an address is none).
 */
import { describe, expect, it } from 'vitest';
import type { CleanedAddress } from './model.js';
import { addressLine, checkAddress, exactPosition, type AddressChecker } from './register-check.js';

const address = { city: { name: 'Москва', type: 'г' }, street: 'ул Тверская', house: '1' };
const words = { advice: 'look at it' };

describe('checkAddress', () => {
  it('a register that fails: kept as typed, the reason in the finding', async () => {
    const failing: AddressChecker = {
      clean: async () => {
        throw new Error('database is locked');
      },
      findById: async () => null,
    };
    const entry = await checkAddress(failing, address, 1, words);
    expect(entry).toMatchObject({
      fiasId: null,
      fiasLevel: -1,
      latitude: null,
      geoPrecision: 5,
      quality: 'unrecognised',
    });
    expect(entry.finding).toBe(
      `The address "${addressLine(address)}" was not checked in the federal address register (database is locked); it is kept as typed.`,
    );
    expect(exactPosition(entry)).toBeNull();
  });

  it('a register that is late: the deadline, not the wait', async () => {
    const late: AddressChecker = {
      clean: () => new Promise<CleanedAddress>(() => undefined),
      findById: async () => null,
    };
    const started = Date.now();
    const entry = await checkAddress(late, address, 1, words, 50);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(entry.finding).toContain('did not answer within 50 ms');
  });

  it("ends a finding with the checking area's advice", async () => {
    const street = {
      fiasId: 'street',
      fiasLevel: 7,
      houseFiasId: null,
      postalCode: null,
      geoLat: 55.7,
      geoLon: 37.6,
      qcGeo: 1,
      quality: 'check',
      result: 'г Москва, ул Тверская',
    } as unknown as CleanedAddress;
    const entry = await checkAddress({ clean: async () => street, findById: async () => null }, address, 1, words);
    expect(entry.finding).toMatch(/only down to the street, not to the house; it is kept as typed: look at it\.$/);
  });
});

describe('exactPosition', () => {
  const entry = { latitude: 55.76, longitude: 37.6, geoPrecision: 0 };
  it("is a house's or a street's point, never a locality's centre", () => {
    expect(exactPosition(entry)).toEqual({ latitude: 55.76, longitude: 37.6 });
    expect(exactPosition({ ...entry, geoPrecision: 1 })).toEqual({ latitude: 55.76, longitude: 37.6 });
    expect(exactPosition({ ...entry, geoPrecision: 3 })).toBeNull();
    expect(exactPosition({ ...entry, latitude: null })).toBeNull();
    expect(exactPosition(undefined)).toBeNull();
  });
});

/**
 * The order page's words for the register's finding, read from the service's own sentences: the
 * beyond-radius finding's two distances come back from what orders' composer writes.
 */
import { describe, expect, it } from 'vitest';
import { beyondRadiusFinding } from '../../../../src/modules/delivery-methods/rules';
import { findingWords } from './address-finding';

describe("the register's finding on an order's page", () => {
  it('says nothing without a finding, even for a house found with changes', () => {
    expect(findingWords(undefined)).toBeNull();
    expect(findingWords({ finding: null, fiasLevel: 8, quality: 'check' })).toBeNull();
  });

  it('names the level found when it is less than a house, and says when nothing was found', () => {
    expect(findingWords({ finding: 'found only down to the street', fiasLevel: 7, quality: 'check' })).toEqual({
      key: 'addressPartlyFound',
      level: 'addressLevelStreet',
    });
    expect(findingWords({ finding: 'x', fiasLevel: 4, quality: 'check' })).toMatchObject({
      level: 'addressLevelLocality',
    });
    expect(findingWords({ finding: 'not checked', fiasLevel: -1, quality: 'unrecognised' })).toEqual({
      key: 'addressNotFound',
    });
  });

  it("reads the distances back from the service's beyond-radius sentence, never as a level", () => {
    const finding = beyondRadiusFinding('Свои курьеры', 10, 18.04);
    expect(findingWords({ finding, fiasLevel: 8, quality: 'certain' })).toEqual({
      key: 'addressBeyondRadius',
      radius: '10',
      km: '18.0',
    });
    expect(findingWords({ finding, fiasLevel: 9, quality: 'check' })).toMatchObject({ key: 'addressBeyondRadius' });
    expect(findingWords({ finding: 'another note', fiasLevel: 8, quality: 'certain' })).toEqual({
      key: 'addressFinding',
      finding: 'another note',
    });
  });
});

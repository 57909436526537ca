import { describe, expect, it } from 'vitest';
import { demandOf, discrepancyOf } from './rules.js';

describe('fulfilment rules', () => {
  it('adds up lines of one product and expands kits named by vendor code; unknown lines are kept apart', () => {
    const kits = new Map([
      [
        'KIT-1',
        [
          { productId: 7, count: 2 },
          { productId: 9, count: 1 },
        ],
      ],
    ]);
    const products = new Map([['SOCKS', 9]]);
    const demand = demandOf(
      [
        { productId: 7, vendorCode: 'TSHIRT', name: 'T-shirt', count: 1 },
        { productId: null, vendorCode: 'KIT-1', name: 'Kit', count: 3 },
        { productId: null, vendorCode: 'SOCKS', name: 'Socks', count: 2 },
        { productId: null, vendorCode: 'BOOK-1', name: 'Book', count: 1 },
      ],
      kits,
      products,
    );
    expect([...demand.needs]).toEqual([
      [7, 7],
      [9, 5],
    ]);
    expect(demand.unknown).toEqual([{ productId: null, vendorCode: 'BOOK-1', name: 'Book', count: 1 }]);
  });

  it('tells short, surplus and damaged goods of a counted supply line', () => {
    expect(discrepancyOf({ declared: 10, accepted: 10, damaged: 0 })).toEqual({ short: 0, surplus: 0, damaged: 0 });
    expect(discrepancyOf({ declared: 10, accepted: 7, damaged: 1 })).toEqual({ short: 2, surplus: 0, damaged: 1 });
    expect(discrepancyOf({ declared: 10, accepted: 11, damaged: 1 })).toEqual({ short: 0, surplus: 2, damaged: 1 });
  });
});

import { describe, expect, it } from 'vitest';
import { buildCargo } from './cargo.js';
import {
  addWorkingDays,
  applyPriceRules,
  calendarDaysBetween,
  commissionsOf,
  deliveryCostKopecks,
  totalKopecks,
} from './rules.js';
import type { CarrierQuote } from '../../carriers/types.js';

const quote: CarrierQuote = {
  type: 2,
  tariffName: null,
  priceDeliveryKopecks: 30000,
  days: { min: 1, max: 2 },
  services: [],
  commissions: {
    declared: { percent: 0.5, minimumKopecks: 1000 },
    codCash: { percent: 2, minimumKopecks: 2000 },
    codCard: { percent: 3, minimumKopecks: 2000 },
    acquiring: { percent: 2, minimumKopecks: 0 },
  },
};

describe('calculator rules (pure)', () => {
  it('takes insurance on the declared value, COD on cash plus the delivery price paid on delivery, acquiring on the prepayment', () => {
    const commissions = commissionsOf(quote, {
      declaredKopecks: 1_000_000,
      codKopecks: 500_000,
      clientPriceKopecks: 50_000,
      prePayKopecks: 20_000,
    });
    expect(commissions).toEqual({ declared: 5000, codCash: 11000, codCard: 16500, acquiring: 400 });
    expect(totalKopecks(30000, 5000, commissions, true)).toBe(30000 + 5000 + 5000 + 11000 + 400);
    expect(totalKopecks(30000, 0, commissions, false)).toBe(30000 + 5000 + 16500 + 400);
    expect(
      commissionsOf(quote, { declaredKopecks: 100, codKopecks: 0, clientPriceKopecks: 0, prePayKopecks: 0 }),
    ).toEqual({ declared: 1000, codCash: 0, codCard: 0, acquiring: 0 });
  });

  it('costs a priced delivery with the COD commission actually incurred: card, cash or none', () => {
    const delivery = {
      priceDelivery: 300,
      requiredServices: [{ price: 50 }],
      priceCommissionDeclared: 50,
      priceCommissionCod: 110,
      priceCommissionCodCard: 165,
      priceCommissionAcquiring: 4,
    };
    const commissions = { declared: 5000, codCash: 11000, codCard: 16500, acquiring: 400 };
    // what totalPrice contains, by the same sum
    expect(deliveryCostKopecks(delivery, 'cash')).toBe(totalKopecks(30000, 5000, commissions, true));
    expect(deliveryCostKopecks(delivery, 'card')).toBe(totalKopecks(30000, 5000, commissions, false));
    expect(deliveryCostKopecks(delivery, 'card')).toBe(30000 + 5000 + 5000 + 16500 + 400);
    expect(deliveryCostKopecks(delivery, 'none')).toBe(30000 + 5000 + 5000 + 400);
    expect(
      deliveryCostKopecks(
        {
          ...delivery,
          priceDelivery: 0.1,
          requiredServices: [],
          priceCommissionDeclared: 0.2,
          priceCommissionAcquiring: 0,
        },
        'none',
      ),
    ).toBe(30);
  });

  it('applies widget price rules by type and company, free delivery, then rounding', () => {
    const none = { rules: [], freeDeliveryFromKopecks: null, rounding: null };
    const at = { type: 1, companyId: 3, orderKopecks: 100000 };
    expect(applyPriceRules(31234, none, at)).toBe(31234);
    expect(applyPriceRules(30000, { ...none, rules: [{ kind: 'markup', percent: 10, amount: 50 }] }, at)).toBe(38000);
    expect(applyPriceRules(30000, { ...none, rules: [{ kind: 'discount', percent: 50 }] }, at)).toBe(15000);
    expect(applyPriceRules(30000, { ...none, rules: [{ kind: 'discount', amount: 1000 }] }, at)).toBe(0);
    expect(applyPriceRules(30000, { ...none, rules: [{ kind: 'fixed', amount: 99, type: 1 }] }, at)).toBe(9900);
    expect(applyPriceRules(30000, { ...none, rules: [{ kind: 'fixed', amount: 99, type: 2 }] }, at)).toBe(30000);
    expect(applyPriceRules(30000, { ...none, rules: [{ kind: 'fixed', amount: 99, companyId: 4 }] }, at)).toBe(30000);
    expect(applyPriceRules(30000, { ...none, freeDeliveryFromKopecks: 100000 }, at)).toBe(0);
    expect(applyPriceRules(30000, { ...none, freeDeliveryFromKopecks: 100001 }, at)).toBe(30000);
    expect(applyPriceRules(31234, { ...none, rounding: { stepKopecks: 1000, mode: 'up' } }, at)).toBe(32000);
    expect(applyPriceRules(31234, { ...none, rounding: { stepKopecks: 1000, mode: 'down' } }, at)).toBe(31000);
    expect(applyPriceRules(31634, { ...none, rounding: { stepKopecks: 1000, mode: 'nearest' } }, at)).toBe(32000);
  });

  it('counts working days past weekends and holidays', () => {
    const none = new Set<string>();
    expect(addWorkingDays('2026-11-20', 0, none)).toBe('2026-11-20'); // Friday
    expect(addWorkingDays('2026-11-20', 1, none)).toBe('2026-11-23'); // Monday
    expect(addWorkingDays('2026-11-21', 0, none)).toBe('2026-11-23'); // Saturday -> Monday
    expect(addWorkingDays('2026-11-20', 1, new Set(['2026-11-23']))).toBe('2026-11-24');
    expect(addWorkingDays('2026-12-30', 2, new Set(['2027-01-01']))).toBe('2027-01-04');
    expect(calendarDaysBetween('2026-11-20', '2026-11-23')).toBe(3);
  });

  it('builds the cargo from places, goods (per unit x count) or overall values, with defaults', () => {
    expect(buildCargo({}, null)).toEqual({
      weightGrams: 1000,
      volumeCm3: 0,
      places: [{ sidesCm: null, weightGrams: 0 }],
    });
    const goods = buildCargo(
      { products: [{ weight: 0.5, count: 3, dimensions: { width: 20, height: 5, length: 30 } }, { weight: 1 }] },
      null,
    );
    expect(goods.weightGrams).toBe(2500);
    expect(goods.places[0].sidesCm).toEqual([30, 20, 15]);
    expect(goods.volumeCm3).toBe(9000);
    const places = buildCargo(
      { places: [{ weight: 2, dimensions: { width: 10, height: 10, length: 10 } }, { weight: 3 }] },
      null,
    );
    expect(places.weightGrams).toBe(5000);
    expect(places.places).toHaveLength(2);
    // Overall sizes are the whole shipment's: two places share its 60 000 cm³ and its 4 kg.
    expect(buildCargo({ weight: 4, dimensions: { width: 40, height: 30, length: 50 }, itemCount: 2 }, null)).toEqual({
      weightGrams: 4000,
      volumeCm3: 60000,
      places: [
        { sidesCm: [40, 30, 25], weightGrams: 2000 },
        { sidesCm: [40, 30, 25], weightGrams: 2000 },
      ],
    });
    expect(
      buildCargo({ weight: 2, dimensions: { width: 40, height: 30, length: 30 }, itemCount: 3 }, null).volumeCm3,
    ).toBe(36000);
    // Sides of 0 are "not given": the goods' sizes apply.
    expect(
      buildCargo(
        {
          products: [{ weight: 0.5, dimensions: { width: 20, height: 5, length: 30 } }],
          dimensions: { width: 0, height: 0, length: 0 },
        },
        null,
      ).places[0].sidesCm,
    ).toEqual([30, 20, 5]);
    expect(buildCargo({ weight: 1, volume: 0.05 }, null).volumeCm3).toBe(50000);
    const defaults = buildCargo({}, { weightGrams: 700, sides: [40, 30, 20] });
    expect(defaults.weightGrams).toBe(700);
    expect(defaults.places[0].sidesCm).toEqual([40, 30, 20]);
  });
});

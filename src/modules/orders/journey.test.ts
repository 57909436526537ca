import { describe, expect, it } from 'vitest';
import { CARD_SHARE_PERCENT, journeyOf, returnLegStart } from './journey.js';

const codes = (steps: Array<{ code: number }>) => steps.map((step) => step.code);
const ORDERS = Array.from({ length: 1000 }, (_, index) => index + 1);

describe('simulated journey (pure)', () => {
  it('is the same for the same order, and ends delivered for most', () => {
    expect(journeyOf(3, 17, 1)).toEqual(journeyOf(3, 17, 1));
    const endings = ORDERS.map((id) => journeyOf(1, id, 1).at(-1)?.code);
    const delivered = endings.filter((code) => code === 44).length;
    expect(delivered).toBeGreaterThan(850);
    expect(endings.every((code) => code === 44 || code === 72)).toBe(true);
  });

  it('says how a COD recipient paid: cash only without a card, card where cash is not taken, else about 40% by card', () => {
    const deliveredStep = (id: number, options: Parameters<typeof journeyOf>[3]) =>
      journeyOf(1, id, 2, options).find((step) => step.code === 44);
    const delivered = ORDERS.filter((id) => journeyOf(1, id, 2).at(-1)?.code === 44);
    expect(deliveredStep(delivered[0], {})?.paymentMethod).toBeUndefined();
    expect(
      delivered.every((id) => deliveredStep(id, { cod: true, cardPaymentAvailable: false })?.paymentMethod === 'cash'),
    ).toBe(true);
    expect(
      delivered.every(
        (id) =>
          deliveredStep(id, { cod: true, cashPaymentAvailable: false, cardPaymentAvailable: true })?.paymentMethod ===
          'card',
      ),
    ).toBe(true);
    const byCard = delivered.filter(
      (id) =>
        deliveredStep(id, { cod: true, cashPaymentAvailable: true, cardPaymentAvailable: true })?.paymentMethod ===
        'card',
    ).length;
    expect(Math.abs(byCard / delivered.length - CARD_SHARE_PERCENT / 100)).toBeLessThan(0.05);
    // the payment does not change where the journey goes
    for (const id of ORDERS.slice(0, 50))
      expect(codes(journeyOf(1, id, 1, { cod: true, cardPaymentAvailable: true }))).toEqual(codes(journeyOf(1, id, 1)));
  });

  it('turns back from the point (51, 71, 72) or after delivery (61, 71, 72) when a return was requested', () => {
    for (const id of ORDERS.slice(0, 50)) {
      const atPoint = journeyOf(1, id, 1, { returnFrom: 42 });
      expect(codes(atPoint)).toEqual([41, 411, 412, 42, 51, 71, 72]);
      expect(returnLegStart(1, 42)).toBe(4);
      expect(atPoint[returnLegStart(1, 42)].code).toBe(51);
      // the steps before the return are the ones the order took: its journey resumes at the same index
      expect(codes(journeyOf(1, id, 1)).slice(0, 4)).toEqual(codes(atPoint).slice(0, 4));

      expect(codes(journeyOf(1, id, 1, { returnFrom: 44 }))).toEqual([41, 411, 412, 42, 44, 61, 71, 72]);
      expect(codes(journeyOf(1, id, 2, { returnFrom: 44 }))).toEqual([41, 411, 412, 43, 44, 61, 71, 72]);
      expect(returnLegStart(2, 44)).toBe(5);
      expect(journeyOf(1, id, 3, { returnFrom: 44 })[returnLegStart(3, 44)].code).toBe(61);
    }
  });
});

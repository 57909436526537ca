/** A quote's price as the buyer pays it, and the order of the order form's price list. */
import { describe, expect, it } from 'vitest';
import { type Quote, quotePrice, quotesByPrice } from './quote-price';

describe('the price list', () => {
  const quote = (name: string, price: Partial<Quote>, days: [number, number]): Quote =>
    ({ deliveryCompanyName: name, deliveryDays: { min: days[0], max: days[1] }, ...price }) as Quote;
  const point = (totalPrice: number) => ({ totalPrice }) as NonNullable<Quote['points']>[number];

  it('prices a pickup point company from its cheapest point, and one without point prices as unknown', () => {
    expect(quotePrice(quote('a', { points: [point(300), point(250)] }, [1, 2]))).toEqual({
      amount: 250,
      perPoint: true,
    });
    expect(quotePrice(quote('b', { points: [7, 8] }, [1, 2]))).toEqual({ amount: null, perPoint: true });
    expect(quotePrice(quote('c', { totalPrice: 400, priceDelivery: 380 }, [1, 2]))).toEqual({
      amount: 400,
      perPoint: false,
    });
  });

  it('lists every type together, cheapest first, equal prices by fewer days, unpriced last', () => {
    const sorted = quotesByPrice({
      '1': [quote('points', { points: [point(300)] }, [3, 4]), quote('ids only', { points: [1] }, [1, 1])],
      '2': [quote('courier slow', { totalPrice: 300 }, [5, 6]), quote('courier', { totalPrice: 500 }, [1, 2])],
      '3': [quote('post', { totalPrice: 200 }, [9, 12])],
    });
    expect(sorted.map(({ type, quote }) => `${type} ${quote.deliveryCompanyName}`)).toEqual([
      '3 post',
      '1 points',
      '2 courier slow',
      '2 courier',
      '1 ids only',
    ]);
  });
});

/** The not-matched list: goods without a catalogue product, one entry per marketplace and identifiers. */
import { describe, expect, it } from 'vitest';
import type { Schemas } from '../../api';
import { unmatchedGoods } from './unmatched';

type Order = Schemas['MarketplaceOrder'];
type Line = Order['products'][number];

const line = (identifiers: Record<string, string>, productId: number | null = null): Line => ({
  productId,
  vendorCode: null,
  name: `good ${Object.values(identifiers).join()}`,
  count: 1,
  price: 100,
  identifiers,
});
const order = (marketplaceId: number, products: Line[]): Order =>
  ({ marketplace: { id: marketplaceId, name: `mp ${marketplaceId}` }, products }) as Order;

describe('unmatchedGoods', () => {
  it('lists each unbound good once per marketplace, counting its orders, whatever the identifiers order', () => {
    const goods = unmatchedGoods([
      order(1, [line({ sku: 'A', offer: 'x' }), line({ sku: 'B' }, 7)]),
      order(1, [line({ offer: 'x', sku: 'A' })]),
      order(2, [line({ sku: 'A', offer: 'x' })]),
    ]);
    expect(goods.map((good) => [good.marketplaceId, good.identifiers, good.orders])).toEqual([
      [1, { offer: 'x', sku: 'A' }, 2],
      [2, { offer: 'x', sku: 'A' }, 1],
    ]);
  });

  it('leaves out orders without a marketplace and fully matched ones', () => {
    expect(
      unmatchedGoods([order(1, [line({ sku: 'A' }, 3)]), { ...order(1, [line({ sku: 'B' })]), marketplace: null }]),
    ).toEqual([]);
  });
});

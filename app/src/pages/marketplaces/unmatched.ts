/** The goods of marketplace orders that no catalogue product is bound to, one entry per marketplace and identifiers. */
import type { Schemas } from '../../api';

export interface UnmatchedGood {
  /** Marketplace and identifiers: the same good in many orders is one entry. */
  key: string;
  marketplaceId: number;
  marketplaceName: string;
  name: string;
  identifiers: Record<string, string>;
  /** Orders it is in (of those read). */
  orders: number;
}

export function unmatchedGoods(orders: Array<Schemas['MarketplaceOrder']>): UnmatchedGood[] {
  const goods = new Map<string, UnmatchedGood>();
  for (const order of orders) {
    if (!order.marketplace) continue;
    for (const product of order.products) {
      if (product.productId !== null) continue;
      const identifiers = Object.fromEntries(
        Object.entries(product.identifiers).sort(([one], [other]) => one.localeCompare(other)),
      );
      const key = `${order.marketplace.id}:${JSON.stringify(identifiers)}`;
      const known = goods.get(key);
      if (known) known.orders += 1;
      else
        goods.set(key, {
          key,
          marketplaceId: order.marketplace.id,
          marketplaceName: order.marketplace.name,
          name: product.name,
          identifiers,
          orders: 1,
        });
    }
  }
  return [...goods.values()];
}

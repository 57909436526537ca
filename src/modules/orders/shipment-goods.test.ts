/** The goods and delivery charge registration sends: what a company collects adds up to the order's COD to the kopeck. */
import { describe, expect, it } from 'vitest';
import type { OrderDoc } from './document.js';
import { shipmentGoods } from './tracking.js';

type Line = OrderDoc['products'][number];
const line = (over: Partial<Line>): Line => ({
  id: 1,
  name: 'Книга',
  nameEn: null,
  vendorCode: 'BOOK-1',
  vat: null,
  priceDeclared: 800,
  priceCod: 900,
  prePay: 0,
  discount: 0,
  tnved: null,
  count: 1,
  weight: 0.5,
  brand: null,
  producingCountry: null,
  barcode: null,
  dimensions: { width: null, height: null, length: null },
  ...over,
});
const order = (
  products: Line[],
  money: { priceCod: number; clientPrice?: number; clientPrePay?: number | null; priceDeclared?: number | null },
) =>
  ({
    products,
    priceCod: money.priceCod,
    clientPrice: money.clientPrice ?? 0,
    clientPrePay: money.clientPrePay ?? null,
    priceDeclared: money.priceDeclared ?? null,
  }) as unknown as OrderDoc;
const collected = (result: ReturnType<typeof shipmentGoods>) =>
  result.goods.reduce((sum, item) => sum + item.codKopecks * item.count, 0) + result.deliveryCodKopecks;

describe('the goods registration sends', () => {
  it('per unit, with the delivery charge apart', () => {
    const result = shipmentGoods(
      7,
      order(
        [
          line({ count: 2 }),
          line({ id: 2, name: 'Кружка', vendorCode: null, priceCod: 700, priceDeclared: 600, vat: 20 }),
        ],
        { priceCod: 2650, clientPrice: 150 },
      ),
    );
    expect(result).toEqual({
      goods: [
        {
          name: 'Книга',
          article: 'BOOK-1',
          count: 2,
          codKopecks: 90_000,
          declaredKopecks: 80_000,
          weightGrams: 500,
          vat: null,
        },
        {
          name: 'Кружка',
          article: '2',
          count: 1,
          codKopecks: 70_000,
          declaredKopecks: 60_000,
          weightGrams: 500,
          vat: 20,
        },
      ],
      deliveryCodKopecks: 15_000,
    });
  });

  it("the order's discount taken off the units in proportion; the kopecks of rounding go with the delivery", () => {
    // 3 × 100 ₽ less an order discount of 100 ₽: 66.66 ₽ a unit, and 0.02 ₽ with the delivery charge of 50 ₽
    const result = shipmentGoods(7, order([line({ count: 3, priceCod: 100 })], { priceCod: 250, clientPrice: 50 }));
    expect(result.goods[0].codKopecks).toBe(6666);
    expect(result.deliveryCodKopecks).toBe(5002);
    expect(collected(result)).toBe(25_000);
  });

  it('prepaid: nothing collected; no goods lines: one line of the order', () => {
    expect(
      collected(shipmentGoods(7, order([line({ count: 2 })], { priceCod: 0, clientPrice: 150, clientPrePay: 150 }))),
    ).toBe(0);
    expect(shipmentGoods(7, order([], { priceCod: 300, clientPrice: 100, priceDeclared: 1000 }))).toEqual({
      goods: [
        {
          name: 'Товары заказа 7',
          article: '7',
          count: 1,
          codKopecks: 20_000,
          declaredKopecks: 100_000,
          weightGrams: null,
          vat: null,
        },
      ],
      deliveryCodKopecks: 10_000,
    });
  });
});

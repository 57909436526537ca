/**
 * The order form's catalogue lines and measured places, and the problem fixes' choice of a new
 * quote: pure logic, without a browser.
 */
import { describe, expect, it } from 'vitest';
import { EMPTY_DRAFT, lineOfProduct, orderBodyOf, resizePlaces, type OrderDraft } from './order-draft';
import { quotePrice, requote, type Quote, type Quotes } from './order-fixes';

const product = {
  id: 41,
  name: 'Чай улун',
  vendorCode: 'TEA-1',
  priceDeclared: 450,
  priceCod: 500,
  weight: 0.25,
  dimensions: { width: 10, height: 5, length: 15 },
  barcodes: ['4601234567890', '4601234567891'],
};

describe('the order form: catalogue and places', () => {
  it('turns a catalogue product into a line that names it and keeps its price, weight, sizes and barcode', () => {
    expect(lineOfProduct(product)).toEqual({
      productId: 41,
      name: 'Чай улун',
      vendorCode: 'TEA-1',
      count: 1,
      priceDeclared: 450,
      priceCod: 500,
      weight: 0.25,
      width: 10,
      height: 5,
      length: 15,
      barcode: '4601234567890',
    });
  });

  it('sends the product id and barcode, and places only once one of them is measured', () => {
    const draft: OrderDraft = { ...EMPTY_DRAFT, goods: [lineOfProduct(product)], places: 2 };
    const unmeasured = orderBodyOf({ ...draft, placeSizes: resizePlaces([], 2) }) as Record<string, unknown>;
    expect((unmeasured.products as Array<Record<string, unknown>>)[0]).toMatchObject({
      id: 41,
      barcode: '4601234567890',
    });
    expect(unmeasured.places).toBeUndefined();
    expect(unmeasured.dimensions).toEqual({ places: 2 });

    const measured = orderBodyOf({
      ...draft,
      placeSizes: [
        { weight: 1.5, width: 20, height: 10, length: 30 },
        { weight: 0.7, width: null, height: null, length: null },
      ],
    }) as Record<string, unknown>;
    expect(measured.places).toEqual([
      { weight: 1.5, dimensions: { width: 20, height: 10, length: 30 } },
      { weight: 0.7 },
    ]);
    expect(measured.dimensions).toEqual({ places: 2 });
  });

  it('resizes the place list to the count, new places unmeasured', () => {
    const one = [{ weight: 1, width: 1, height: 1, length: 1 }];
    expect(resizePlaces(one, 3)).toHaveLength(3);
    expect(resizePlaces(one, 3)[2]).toEqual({ weight: null, width: null, height: null, length: null });
    expect(resizePlaces(resizePlaces(one, 3), 1)).toEqual(one);
  });
});

describe('the problem fixes', () => {
  const quote = (company: number, tariff: string | null, totalPrice: number | null) =>
    ({ deliveryCompanyId: company, tariffName: tariff, totalPrice }) as unknown as Quote;
  const quotes: Quotes = {
    '1': [],
    '2': [quote(7, 'Экспресс', 900), quote(7, 'Эконом', 400), quote(3, null, 100)],
    '3': [],
  };

  it("re-prices with the order's own tariff while offered, else its company's cheapest, else none", () => {
    const option = { key: '2:7:Экспресс', type: 2 as const, companyId: 7, tariff: 'Экспресс' };
    expect(requote(quotes, option)).toBe(quotes['2'][0]);
    expect(requote(quotes, { ...option, key: '2:7:Старый', tariff: 'Старый' })).toBe(quotes['2'][1]);
    expect(requote(quotes, { ...option, key: '2:9:', companyId: 9, tariff: null })).toBeNull();
  });

  it('prices a pickup quote by its cheapest point', () => {
    const withPoints = {
      deliveryCompanyId: 1,
      tariffName: null,
      points: [{ totalPrice: 300 }, 17, { totalPrice: 250 }],
    } as unknown as Quote;
    expect(quotePrice(withPoints)).toBe(250);
  });
});

/** The warehouse every bench account ships from: in Москва, open on weekdays (plain data, so a bench may post it over HTTP). */
const day = { from: '09:00', to: '18:00' };

export const MOSCOW_WAREHOUSE = {
  name: 'Склад',
  type: 1 as const,
  address: {
    street: 'Складская',
    house: '1',
    city: { countryCode: 'RU', name: 'Москва', fias: '0c5b2444-70a0-4932-980c-b4dc0d3f02b5', region: 'Москва' },
  },
  contact: { name: 'Иван', phone: '+79160000000' },
  schedule: [day, day, day, day, day, null, null],
};

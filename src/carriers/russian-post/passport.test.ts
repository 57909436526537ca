/**
 * The post-office passport unloading read element by element (a zip of one JSON text file),
 * and its elements mapped to our points: index as code, the week from `workTime`, closed
 * offices and elements without an index or coordinates left out.
 */
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { passportOffice } from '../../../test/support/fake-real-carriers.js';
import { officeOfPassport, weekOfWorkTime } from './mapper.js';
import { eachPassportElement } from './passport.js';

const zipOf = (text: string, name = 'OPS05_January_2026.txt') => zipSync({ [name]: strToU8(text) });

describe('reading the passport unloading', () => {
  it('hands on every element of passportElements, braces and quotes inside strings included', () => {
    const elements = [
      { a: 'a } ] { [ "quoted" \\ back', nested: { list: [1, { x: 2 }] } },
      { b: 'Москва, ул Тверская' },
    ];
    const seen: unknown[] = [];
    const count = eachPassportElement(
      zipOf(JSON.stringify({ passportElements: elements, unloadingDate: '2026-01-05', vsnapshot: '05_January_2026' })),
      (element) => seen.push(element),
    );
    expect(count).toBe(2);
    expect(seen).toEqual(elements);
  });

  it('reads a large unloading in 64 KB slices (multi-byte text split across them)', () => {
    const offices = Array.from({ length: 20_000 }, (_, i) =>
      passportOffice(String(100000 + i), 'г Москва', 55 + i / 1e5, 37.6),
    );
    const zip = zipOf(JSON.stringify({ passportElements: offices }, null, '\t'));
    let mapped = 0;
    expect(eachPassportElement(zip, (element) => (mapped += officeOfPassport(element) ? 1 : 0))).toBe(20_000);
    expect(mapped).toBe(20_000);
  });

  it('refuses a zip without a text file, and text that is not JSON', () => {
    expect(() => eachPassportElement(zipSync({ 'readme.pdf': strToU8('%PDF') }), () => undefined)).toThrow(
      /no text file/,
    );
    expect(() => eachPassportElement(zipOf('{"passportElements": [{"a": nope}]}'), () => undefined)).toThrow();
  });
});

describe('a passport element as our point', () => {
  it('maps index, address, week, payments and weight limit', () => {
    const point = officeOfPassport(
      passportOffice('216236', 'д Добрино', 55.612752, 32.433259, {
        address: { index: '216236', place: 'д Добрино', street: 'ул Пляжная', house: '7', corpus: '1' },
        ecomOptions: { cardPayment: false, withFitting: true, weightLimit: 15.5, getto: 'У магазина' },
      }),
    );
    expect(point).toEqual({
      code: '216236',
      type: 3,
      name: 'Отделение почтовой связи 216236',
      countryCode: 'RU',
      city: 'Добрино',
      postalCode: '216236',
      address: 'д Добрино, ул Пляжная, д. 7 к. 1',
      latitude: 55.612752,
      longitude: 32.433259,
      schedule: [...Array(5).fill({ from: '08:00', to: '20:00' }), { from: '09:00', to: '18:00' }, null],
      cashPaymentAvailable: true,
      cardPaymentAvailable: false,
      fittingAvailable: true,
      maxWeightGrams: 15500,
      description: 'У магазина',
    });
  });

  it('reads the workTime lines of the unloading', () => {
    expect(
      weekOfWorkTime([
        'пн, выходной',
        'вт, открыто: 9:00 - 15:30, перерыв: 12:00 - 13:00',
        'ср, открыто: круглосуточно',
        'чт, открыто:',
      ]),
    ).toEqual({
      schedule: [null, { from: '09:00', to: '15:30' }, { from: '00:00', to: '24:00' }, null, null, null, null],
      open: true,
      listed: true,
    });
    expect(weekOfWorkTime(undefined)).toMatchObject({ open: false, listed: false });
  });

  it('leaves out closed offices and elements without an index or coordinates; an unknown week is not closed', () => {
    const closed = ['пн', 'вт', 'ср', 'чт', 'пт', 'сб', 'вс'].map((day) => `${day}, выходной`);
    expect(officeOfPassport(passportOffice('101000', 'г Москва', 55.76, 37.63, { workTime: closed }))).toBeNull();
    expect(officeOfPassport(passportOffice('1010', 'г Москва', 55.76, 37.63))).toBeNull();
    expect(
      officeOfPassport(passportOffice('101000', 'г Москва', 55.76, 37.63, { latitude: '', longitude: 'x' })),
    ).toBeNull();
    expect(
      officeOfPassport({ address: { index: '101000', place: 'г Москва' }, latitude: '0', longitude: '0' }),
    ).toBeNull();
    expect(officeOfPassport(passportOffice('101000', 'г Москва', 55.76, 37.63, { workTime: [] }))?.schedule).toEqual(
      Array(7).fill(null),
    );
  });
});

/**
 * The SMS side of messaging: phones as the gateways want them, and how many parts a text takes.
 */
import { describe, expect, it } from 'vitest';
import { normalisePhone } from './phone.js';
import { smsSegments } from './sms-text.js';

describe('normalisePhone', () => {
  it.each([
    ['+7 916 123-45-67', '79161234567'],
    ['+7 (916) 123-45-67', '79161234567'],
    ['8 (916) 1234567', '79161234567'],
    ['8-916-123-45-67', '79161234567'],
    ['89161234567', '79161234567'],
    ['9161234567', '79161234567'],
    ['(916) 123 45 67', '79161234567'],
    ['79161234567', '79161234567'],
    ['  +79161234567  ', '79161234567'],
    ['+7\u00a0916\u00a0123\u201145\u201167', '79161234567'],
    ['8 (495) 123-45-67', '74951234567'],
    ['4951234567', '74951234567'],
    ['8 800 555-35-35', '78005553535'],
    ['+8 916 123-45-67', '79161234567'],
    ['+7 701 123 45 67', '77011234567'],
    ['8 701 123 45 67', '77011234567'],
    ['+44 20 7946 0958', '442079460958'],
    ['+1 (212) 555-0123', '12125550123'],
    ['+375 29 123-45-67', '375291234567'],
    ['00 44 20 7946 0958', '442079460958'],
    ['8 10 49 30 1234567', '49301234567'],
  ])('%s → %s', (raw, expected) => {
    expect(normalisePhone(raw)).toBe(expected);
  });

  it.each([
    ['', 'empty'],
    ['   ', 'blank'],
    ['abc', 'letters'],
    ['+7 916 CALL-NOW', 'letters among digits'],
    ['916 123 45', 'too few digits'],
    ['+7 916 123 45 678', 'eleven digits behind +7'],
    ['8 916 123 45 678', 'twelve digits with the trunk 8'],
    ['1234567890', 'ten digits that are no Russian number'],
    ['7011234567', 'a bare Kazakh number (its +7 or 8 is needed)'],
    ['375291234567', 'a foreign number without its +'],
    ['+12345', 'too short for E.164'],
    ['+1234567890123456', 'longer than E.164'],
    ['++79161234567', 'two pluses'],
    ['79161234567+', 'a plus at the end'],
    ['+0 916 123 45 67', 'no country code starts with 0'],
    ['8 (916) 123-45-67 доб. 12', 'an extension'],
  ])('%s is no phone (%s)', (raw) => {
    expect(normalisePhone(raw)).toBeNull();
  });
});

describe('smsSegments', () => {
  const cyrillic = (length: number) => 'Ваш заказ собран и передан в доставку. '.repeat(10).slice(0, length);
  const latin = (length: number) => 'Your order is packed and on its way. '.repeat(10).slice(0, length);

  it.each([
    [1, 1],
    [70, 1],
    [71, 2],
    [134, 2],
    [135, 3],
    [201, 3],
    [202, 4],
  ])('Cyrillic, %i characters: UCS-2 in %i part(s)', (length, segments) => {
    const text = cyrillic(length);
    expect(text).toHaveLength(length);
    expect(smsSegments(text)).toEqual({ encoding: 'ucs2', segments, characters: length });
  });

  it.each([
    [1, 1],
    [160, 1],
    [161, 2],
    [306, 2],
    [307, 3],
  ])('Latin, %i characters: GSM 7-bit in %i part(s)', (length, segments) => {
    const text = latin(length);
    expect(text).toHaveLength(length);
    expect(smsSegments(text)).toEqual({ encoding: 'gsm7', segments, characters: length });
  });

  it('counts an extension-table character as two septets', () => {
    expect(smsSegments('€'.repeat(80))).toEqual({ encoding: 'gsm7', segments: 1, characters: 160 });
    expect(smsSegments('€'.repeat(81))).toEqual({ encoding: 'gsm7', segments: 2, characters: 162 });
    expect(smsSegments(`Order [A-1] {ok} ~ ^ | \\ ${'x'.repeat(10)}`).encoding).toBe('gsm7');
  });

  it('never cuts an escape pair between parts', () => {
    // 152 plain septets then '€' (2): 154 do not fit the first part of 153; the '€' opens the second
    expect(smsSegments(`${'a'.repeat(152)}€${'a'.repeat(152)}`)).toEqual({
      encoding: 'gsm7',
      segments: 3,
      characters: 306,
    });
  });

  it('takes the GSM accented letters as GSM, and one Cyrillic letter or emoji as UCS-2 for the whole text', () => {
    expect(smsSegments('Café à Paris, ñ, ü, Ø').encoding).toBe('gsm7');
    expect(smsSegments(`${latin(100)}ж`)).toEqual({ encoding: 'ucs2', segments: 2, characters: 101 });
    expect(smsSegments('ç').encoding).toBe('ucs2'); // lower-case ç is not in the default alphabet
  });

  it('counts UTF-16 units: an emoji is two and is never cut between parts', () => {
    expect(smsSegments('😀'.repeat(35))).toEqual({ encoding: 'ucs2', segments: 1, characters: 70 });
    // 36 emoji = 72 units: 33 fit a part of 67 (66 units), 3 go to the second
    expect(smsSegments('😀'.repeat(36))).toEqual({ encoding: 'ucs2', segments: 2, characters: 72 });
    expect(smsSegments(`${'ж'.repeat(66)}😀${'ж'.repeat(10)}`)).toEqual({
      encoding: 'ucs2',
      segments: 2,
      characters: 78,
    });
  });

  it('gives an empty text no part', () => {
    expect(smsSegments('')).toEqual({ encoding: 'gsm7', segments: 0, characters: 0 });
  });
});

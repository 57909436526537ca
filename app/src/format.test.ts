/** Dates as a person types them: read day first or as yyyy-mm-dd, never month first. */
import { describe, expect, it } from 'vitest';
import { parseTypedDate } from './format';

describe('typed dates', () => {
  it('reads dd.mm.yyyy, d.m.yyyy and yyyy-mm-dd, day first, never month first', () => {
    expect(parseTypedDate('07.01.2027')).toBe('2027-01-07');
    expect(parseTypedDate('30.11.2026')).toBe('2026-11-30');
    expect(parseTypedDate(' 7.1.2027 ')).toBe('2027-01-07');
    expect(parseTypedDate('2027-01-07')).toBe('2027-01-07');
  });

  it('refuses what it cannot read, and days the calendar has not', () => {
    for (const text of ['31.02.2027', '01/07/2027', 'Jan 7 2027', '7.1.27', '2027-13-01', '', 'завтра'])
      expect(parseTypedDate(text), text).toBeNull();
  });
});

/** Decimal input read as German and English readers write it (a meter reading of 38.450,5 kWh stayed 38,5). */
import { describe, expect, it } from 'vitest';
import { parseDecimal, understood } from './decimal.ts';

describe('decimal input', () => {
  it('reads German: a decimal comma and dots between thousands', () => {
    expect(parseDecimal('38.450,5', 'de')).toBe(38450.5);
    expect(parseDecimal('38450,5', 'de')).toBe(38450.5);
    expect(parseDecimal('38.450', 'de')).toBe(38450);
    expect(parseDecimal('1.234.567,89', 'de')).toBe(1234567.89);
    expect(parseDecimal(' -2,5 ', 'de')).toBe(-2.5);
    expect(parseDecimal('38 450,5', 'de')).toBe(38450.5);
    // Typed on an English keyboard: a single point that is no thousands separator is a decimal point.
    expect(parseDecimal('38.5', 'de')).toBe(38.5);
  });

  it('reads English: a decimal point and commas between thousands', () => {
    expect(parseDecimal('38,450.5', 'en')).toBe(38450.5);
    expect(parseDecimal('38,450', 'en')).toBe(38450);
    expect(parseDecimal('38450.5', 'en')).toBe(38450.5);
    expect(parseDecimal('38,5', 'en')).toBe(38.5);
  });

  it('refuses what is no number rather than guessing', () => {
    for (const text of ['', 'abc', '38,450,5', '3.84.50,5', '38,4.5', '1,2,3', '12a'])
      expect(parseDecimal(text, 'de'), text).toBeNaN();
  });

  it("says what it read, in the reader's own format", () => {
    expect(understood('38.450,5', 'de')).toBe('38.450,5');
    expect(understood('38450.5', 'de')).toBe('38.450,5');
    expect(understood('38,450.5', 'en')).toBe('38,450.5');
    expect(understood('', 'de')).toBeNull();
    expect(understood('abc', 'de')).toBeNull();
  });
});

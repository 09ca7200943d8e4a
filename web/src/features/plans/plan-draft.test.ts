/** Season bounds typed the way a German or an English reader writes them, kept as the API's "MM-DD". */
import { describe, expect, it } from 'vitest';
import { formatMonthDay } from '../../lib/format.ts';
import { monthDayOf } from './plan-draft.ts';

describe('season bounds', () => {
  it("reads day-first dates with dots, month-first dates with a slash and the API's own form", () => {
    expect(monthDayOf('01.10.')).toBe('10-01');
    expect(monthDayOf(' 1.10 ')).toBe('10-01');
    expect(monthDayOf('30.4.')).toBe('04-30');
    expect(monthDayOf('10/1')).toBe('10-01');
    expect(monthDayOf('10-01')).toBe('10-01');
    // Not a date: sent as typed, so the server names the field.
    expect(monthDayOf('Oktober')).toBe('Oktober');
  });

  it('writes them back for German and English readers, the way they are read', () => {
    expect(formatMonthDay('10-01', 'de')).toBe('01.10.');
    expect(formatMonthDay('04-30', 'en')).toBe('04/30');
    expect(monthDayOf(formatMonthDay('12-24', 'de'))).toBe('12-24');
    expect(monthDayOf(formatMonthDay('12-24', 'en'))).toBe('12-24');
  });
});

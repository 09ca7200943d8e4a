import { describe, expect, it } from 'vitest';
import { findOverlap, type PlanCoverage } from './overlap.ts';

const season = (validFrom: string, validTo: string): PlanCoverage => ({
  kind: 'seasonal',
  validFrom,
  validTo,
});
const days = (...dates: string[]): PlanCoverage => ({ kind: 'specific_days', dates });

describe('findOverlap', () => {
  it.each([
    ['10-01', '04-30', '03-01', '05-31', true],
    ['10-01', '04-30', '12-20', '01-10', true],
    ['10-01', '04-30', '05-01', '09-30', false],
    ['05-01', '09-30', '10-01', '04-30', false],
    ['01-01', '12-31', '07-01', '07-01', true],
    ['12-01', '01-31', '11-01', '02-28', true],
    ['04-30', '04-30', '04-30', '05-01', true],
  ])('seasonal %s–%s against %s–%s: %s', (aFrom, aTo, bFrom, bTo, expected) => {
    expect(findOverlap(season(aFrom, aTo), [season(bFrom, bTo)]) !== null).toBe(expected);
    expect(findOverlap(season(bFrom, bTo), [season(aFrom, aTo)]) !== null).toBe(expected);
  });

  it('names the shared dates of specific-days plans, sorted, and ignores the other kind', () => {
    const other = days('2026-12-31', '2026-12-24', '2026-12-25');
    expect(findOverlap(days('2026-12-25', '2026-12-24', '2027-01-01'), [other])).toEqual({
      other,
      dates: ['2026-12-24', '2026-12-25'],
    });
    expect(findOverlap(days('2027-01-01'), [other])).toBeNull();
    expect(findOverlap(days('2026-12-24'), [season('01-01', '12-31')])).toBeNull();
  });
});

/**
 * School holidays (decision 0052): the shipped data file covers the current and the next two
 * school years for all 16 states with its source and licence, and a building's school holidays
 * become closures over whole local days named like "Weihnachtsferien (Bayern)".
 */
import { FEDERAL_STATES } from '@heizplan/contracts/buildings';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { calendarClosureName, parseCalendarClosureId } from './calendar-closures.ts';
import {
  parseSchoolHolidayClosureId,
  schoolHolidayClosures,
  schoolHolidayData,
  schoolHolidays,
} from './school-holidays.ts';

const building = {
  id: 'b1',
  state: 'BY',
  region: null,
  publicHolidays: 'ignore',
  holidayMode: 'frost',
  schoolHolidays: true,
} as const;

describe('school holiday data', () => {
  const data = schoolHolidayData();

  it('records its source and licence', () => {
    expect(data.source).toContain('openholidaysapi.org');
    expect(data.licence).toContain('ODbL');
  });

  it('has for every state a summer, autumn and Christmas break in each of three school years', () => {
    expect(Object.keys(data.states).sort()).toEqual([...FEDERAL_STATES].sort());
    for (const state of FEDERAL_STATES) {
      for (const year of [2026, 2027, 2028]) {
        const inYear = schoolHolidays(state, `${year}-08-01`, `${year + 1}-07-31`);
        const names = inYear.map((p) => p.name).join(' ');
        expect(names, `${state} ${year}/${year + 1}`).toMatch(/Herbstferien/);
        expect(names, `${state} ${year}/${year + 1}`).toMatch(/Weihnachtsferien/);
      }
      for (const year of [2027, 2028, 2029]) {
        const summer = schoolHolidays(state, `${year}-06-01`, `${year}-09-30`);
        expect(
          summer.map((p) => p.name),
          `${state} ${year}`,
        ).toContain('Sommerferien');
      }
    }
  });

  it('holds real dates, each period in order and none overlapping the next', () => {
    for (const state of FEDERAL_STATES) {
      const periods = data.states[state];
      periods.forEach((p, i) => {
        expect(DateTime.fromISO(p.start).isValid && DateTime.fromISO(p.end).isValid).toBe(true);
        expect(p.end >= p.start, `${state} ${p.start}`).toBe(true);
        // No break lasts longer than seven weeks (a typo such as 03-10 for 04-10 would).
        expect(DateTime.fromISO(p.end).diff(DateTime.fromISO(p.start), 'days').days).toBeLessThan(49);
        const next = periods[i + 1];
        if (next) expect(next.start > p.end, `${state} ${next.start}`).toBe(true);
        expect(p.name.de.length > 0 && p.name.en.length > 0).toBe(true);
      });
    }
  });
});

describe('school holidays of a building', () => {
  it('become closures from 00:00 of the first day to 00:00 after the last, in the company zone', () => {
    const closures = schoolHolidayClosures(
      building,
      'Europe/Berlin',
      new Date('2026-12-01T00:00:00Z'),
      new Date('2027-01-31T00:00:00Z'),
    );
    expect(closures.map((c) => [c.id, c.start.toISOString(), c.end.toISOString(), c.mode])).toEqual([
      ['school:b1:2026-12-24', '2026-12-23T23:00:00.000Z', '2027-01-08T23:00:00.000Z', 'frost'],
    ]);
    const off = { ...building, schoolHolidays: false };
    expect(
      schoolHolidayClosures(off, 'Europe/Berlin', new Date('2026-12-01'), new Date('2027-01-31')),
    ).toEqual([]);
    expect(parseSchoolHolidayClosureId('school:b1:2026-12-24')).toEqual({
      buildingId: 'b1',
      start: '2026-12-24',
    });
    expect(parseSchoolHolidayClosureId('holiday:b1:2026-12-25')).toBeNull();
  });

  it('are named with their state in the member language', () => {
    const ref = parseCalendarClosureId('school:b1:2026-12-24');
    expect(ref).toEqual({ buildingId: 'b1', date: '2026-12-24', kind: 'school_holiday' });
    if (!ref) return;
    expect(calendarClosureName(ref, building, 'de')).toBe('Weihnachtsferien (Bayern)');
    expect(calendarClosureName(ref, building, 'en')).toBe('Christmas holidays (Bavaria)');
    const holiday = parseCalendarClosureId('holiday:b1:2026-12-25');
    expect(holiday && calendarClosureName(holiday, building, 'de')).toBe('1. Weihnachtstag');
  });
});

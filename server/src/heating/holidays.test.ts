/**
 * Public holidays as closures (decision 0052): whole local days of the company's zone, only the
 * years and days that can still matter, one closure per date, cached lists, and entered
 * closures cut out of the holidays they overlap.
 */
import { describe, expect, it } from 'vitest';
import type { UnitClosure } from './closure-coverage.ts';
import {
  holidayClosures,
  holidayNameOn,
  holidaySundays,
  isHolidayRegion,
  outsideClosures,
  parseHolidayClosureId,
  publicHolidays,
} from './holidays.ts';

const building = {
  id: 'b1',
  state: 'BY',
  region: null,
  publicHolidays: 'closure',
  holidayMode: 'economy',
  schoolHolidays: false,
} as const;

describe('public holidays', () => {
  it('keeps only public holidays and caches each list', () => {
    const bavaria = publicHolidays('BY', null, 2026);
    // Christmas Eve is not a public holiday.
    expect(bavaria.some((h) => h.date === '2026-12-24')).toBe(false);
    expect(publicHolidays('BY', null, 2026)).toBe(bavaria);
    expect(holidayNameOn('BY', null, '2026-12-25')).toBe('1. Weihnachtstag');
    expect(holidayNameOn('BY', null, '2026-12-24')).toBeNull();
    expect(holidayNameOn('BY', 'A', '2026-08-08', 'en')).toBe('Augsburg Peace Festival');
  });

  it('makes closures only of a building treating holidays as closures, Sundays only of one treating them like Sundays', () => {
    const from = new Date('2026-12-20T00:00:00Z');
    const to = new Date('2026-12-31T00:00:00Z');
    const sunday = { ...building, publicHolidays: 'sunday' } as const;
    expect(holidayClosures(sunday, 'Europe/Berlin', from, to)).toEqual([]);
    expect(holidaySundays(sunday, 'Europe/Berlin', from, to)).toEqual(
      publicHolidays('BY', null, 2026).map((h) => h.date),
    );
    expect(holidaySundays(building, 'Europe/Berlin', from, to)).toEqual([]);
    const ignore = { ...building, publicHolidays: 'ignore' } as const;
    expect(holidayClosures(ignore, 'Europe/Berlin', from, to)).toEqual([]);
    expect(holidaySundays(ignore, 'Europe/Berlin', from, to)).toEqual([]);
  });

  it('knows the regions of each state', () => {
    expect(isHolidayRegion('BY', 'A')).toBe(true);
    expect(isHolidayRegion('SN', 'BZ')).toBe(true);
    expect(isHolidayRegion('BE', 'A')).toBe(false);
    expect(isHolidayRegion('BY', 'a')).toBe(false);
  });

  it('turns each holiday into a closure over its whole local day in the company zone', () => {
    const from = new Date('2026-12-20T00:00:00Z');
    const berlin = holidayClosures(building, 'Europe/Berlin', from, new Date('2027-01-10T00:00:00Z'));
    expect(berlin.map((c) => [c.id, c.start.toISOString(), c.end.toISOString(), c.mode])).toEqual([
      ['holiday:b1:2026-12-25', '2026-12-24T23:00:00.000Z', '2026-12-25T23:00:00.000Z', 'economy'],
      ['holiday:b1:2026-12-26', '2026-12-25T23:00:00.000Z', '2026-12-26T23:00:00.000Z', 'economy'],
      // The whole following year is loaded: the caller keeps what it needs.
      ...publicHolidays('BY', null, 2027).map((h) => [
        `holiday:b1:${h.date}`,
        expect.any(String),
        expect.any(String),
        'economy',
      ]),
    ]);
    const newYork = holidayClosures(building, 'America/New_York', from, from);
    expect(newYork[0]).toMatchObject({
      start: new Date('2026-12-25T05:00:00Z'),
      end: new Date('2026-12-26T05:00:00Z'),
    });
    // Easter Monday 2026 is after the clock change: 22:00 to 22:00 UTC.
    const spring = holidayClosures(
      building,
      'Europe/Berlin',
      new Date('2026-04-01T00:00:00Z'),
      new Date('2026-05-01T00:00:00Z'),
    );
    expect(spring.find((c) => c.id === 'holiday:b1:2026-04-06')).toMatchObject({
      start: new Date('2026-04-05T22:00:00Z'),
      end: new Date('2026-04-06T22:00:00Z'),
    });
  });

  it('parses its closure ids and no others', () => {
    expect(parseHolidayClosureId('holiday:3f1c2d1e-0000-4000-8000-000000000001:2026-12-25')).toEqual({
      buildingId: '3f1c2d1e-0000-4000-8000-000000000001',
      date: '2026-12-25',
    });
    expect(parseHolidayClosureId('3f1c2d1e-0000-4000-8000-000000000001')).toBeNull();
  });

  it('cuts entered closures out of the holidays they overlap', () => {
    const at = (iso: string) => new Date(iso);
    const holiday = (day: string): UnitClosure => ({
      id: `holiday:b1:${day}`,
      start: at(`${day}T00:00:00Z`),
      end: new Date(at(`${day}T00:00:00Z`).getTime() + 86_400_000),
      mode: 'economy',
    });
    const entered: UnitClosure[] = [
      { id: 'inside', start: at('2026-12-20T00:00:00Z'), end: at('2026-12-25T12:00:00Z'), mode: 'frost' },
      { id: 'middle', start: at('2026-12-26T08:00:00Z'), end: at('2026-12-26T10:00:00Z'), mode: 'frost' },
      { id: 'all', start: at('2027-01-01T00:00:00Z'), end: at('2027-01-02T00:00:00Z'), mode: 'frost' },
    ];
    const cut = outsideClosures(
      [holiday('2026-12-25'), holiday('2026-12-26'), holiday('2027-01-01')],
      entered,
    );
    expect(cut.map((c) => [c.id, c.start.toISOString(), c.end.toISOString()])).toEqual([
      ['holiday:b1:2026-12-25', '2026-12-25T12:00:00.000Z', '2026-12-26T00:00:00.000Z'],
      ['holiday:b1:2026-12-26', '2026-12-26T00:00:00.000Z', '2026-12-26T08:00:00.000Z'],
      ['holiday:b1:2026-12-26', '2026-12-26T10:00:00.000Z', '2026-12-27T00:00:00.000Z'],
    ]);
    const alone = [holiday('2026-12-25')];
    expect(outsideClosures(alone, [])).toBe(alone);
  });
});

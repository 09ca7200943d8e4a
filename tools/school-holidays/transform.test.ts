import { FEDERAL_STATES } from '@heizplan/contracts/buildings';
import { describe, expect, it } from 'vitest';
import { type ApiSchoolHoliday, periodsFrom, toSchoolHolidayData } from './transform.ts';

const entry = (
  startDate: string,
  endDate: string,
  de: string,
  codes: string[],
  en = 'X',
): ApiSchoolHoliday => ({
  startDate,
  endDate,
  name: [
    { language: 'DE', text: de },
    { language: 'EN', text: en },
  ],
  subdivisions: codes.map((code) => ({ code })),
});

describe('school holiday refresh', () => {
  it('keeps the general schools of Mecklenburg-Vorpommern and leaves out the islands of Schleswig-Holstein', () => {
    const mv = periodsFrom('MV', [
      entry('2027-07-12', '2027-08-28', 'Sommerferien', ['DE-MV-BBS']),
      entry('2027-07-05', '2027-08-14', 'Sommerferien', ['DE-MV-ABS']),
      entry('2027-10-14', '2027-10-23', 'Herbstferien', ['DE-MV-ABS', 'DE-MV-BBS']),
    ]);
    expect(mv.map((p) => [p.start, p.end])).toEqual([
      ['2027-07-05', '2027-08-14'],
      ['2027-10-14', '2027-10-23'],
    ]);
    const sh = periodsFrom('SH', [
      entry('2027-07-03', '2027-08-07', 'Sommerferien', ['DE-SH-INS']),
      entry('2027-07-03', '2027-08-14', 'Sommerferien', ['DE-SH']),
    ]);
    expect(sh).toEqual([
      { start: '2027-07-03', end: '2027-08-14', name: { de: 'Sommerferien', en: 'Summer holidays' } },
    ]);
  });

  it('sorts, drops repeats from overlapping requests and keeps the source English for unknown names', () => {
    const by = periodsFrom('BY', [
      entry('2027-11-17', '2027-11-17', 'Buß- und Bettag', ['DE-BY']),
      entry('2027-11-02', '2027-11-05', 'Herbstferien', []),
      entry('2027-11-02', '2027-11-05', 'Herbstferien', []),
      entry('2028-01-02', '2028-01-02', 'Sondertag', ['DE-BY'], 'Special day'),
    ]);
    expect(by.map((p) => `${p.start} ${p.name.de} / ${p.name.en}`)).toEqual([
      '2027-11-02 Herbstferien / Autumn holidays',
      '2027-11-17 Buß- und Bettag / Day of Repentance',
      '2028-01-02 Sondertag / Special day',
    ]);
  });

  it('refuses an answer that lacks a state, a German name or has an end before its start', () => {
    const all = Object.fromEntries(
      FEDERAL_STATES.map((s) => [s, [entry('2027-07-01', '2027-08-01', 'Sommerferien', [`DE-${s}`])]]),
    );
    all.MV = [entry('2027-07-01', '2027-08-01', 'Sommerferien', ['DE-MV-ABS'])];
    const data = toSchoolHolidayData(all, '2027-07-01', '2030-09-30', '2027-06-30');
    expect(data.licence).toContain('ODbL');
    expect(Object.keys(data.states)).toHaveLength(16);
    expect(() => toSchoolHolidayData({ ...all, TH: [] }, '2027-07-01', '2030-09-30', 'x')).toThrow(/TH/);
    expect(() =>
      periodsFrom('BY', [{ startDate: '2027-01-01', endDate: '2027-01-02', name: [], subdivisions: [] }]),
    ).toThrow(/German name/);
    expect(() => periodsFrom('BY', [entry('2027-01-05', '2027-01-02', 'Winterferien', [])])).toThrow(
      /before/,
    );
  });
});

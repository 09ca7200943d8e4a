/**
 * The recurrence syntax both sides check (decision 0051): what a closure may carry, what it may
 * not (no FREQ, below DAILY, a DTSTART, over 500 characters, unknown or repeated parts, values
 * out of range), and the closure rules with the building scope and the recurrence.
 */
import { describe, expect, it } from 'vitest';
import { closureDraftSchema, closureRuleIssues } from './closures.ts';
import { formatRecurrence, parseRecurrence, recurrenceProblem, untilDate } from './recurrence.ts';

describe('closure recurrence', () => {
  it.each([
    'FREQ=WEEKLY;BYDAY=SA,SU',
    'FREQ=YEARLY;UNTIL=20301231T235959Z',
    'FREQ=WEEKLY;INTERVAL=2;COUNT=10',
    'FREQ=DAILY',
    'FREQ=MONTHLY;BYDAY=1MO',
    'FREQ=MONTHLY;BYMONTHDAY=-1;UNTIL=20301231',
    'freq=yearly;bymonth=12;bymonthday=24',
  ])('accepts %s', (rule) => {
    expect(recurrenceProblem(rule)).toBeNull();
  });

  it.each([
    ['no FREQ', 'BYDAY=MO'],
    ['an hourly rule', 'FREQ=HOURLY'],
    ['a minutely rule', 'FREQ=MINUTELY'],
    ['a secondly rule', 'FREQ=SECONDLY'],
    ['hours of the day', 'FREQ=DAILY;BYHOUR=8,12'],
    ['a DTSTART', 'DTSTART:20260101T000000Z\nRRULE:FREQ=WEEKLY'],
    ['the RRULE: prefix', 'RRULE:FREQ=WEEKLY'],
    ['an unknown part', 'FREQ=WEEKLY;FOO=1'],
    ['a part twice', 'FREQ=WEEKLY;FREQ=DAILY'],
    ['UNTIL and COUNT', 'FREQ=WEEKLY;COUNT=2;UNTIL=20301231'],
    ['a count of 0', 'FREQ=WEEKLY;COUNT=0'],
    ['an interval that is no number', 'FREQ=WEEKLY;INTERVAL=x'],
    ['an unknown weekday', 'FREQ=WEEKLY;BYDAY=XX'],
    ['a numbered weekday in a weekly rule', 'FREQ=WEEKLY;BYDAY=1MO'],
    ['month 13', 'FREQ=YEARLY;BYMONTH=13'],
    ['31 February as UNTIL', 'FREQ=DAILY;UNTIL=20300231'],
    ['an empty rule', ''],
    [
      'more than 500 characters',
      `FREQ=YEARLY;BYMONTHDAY=${Array.from({ length: 300 }, () => '1').join(',')}`,
    ],
  ])('refuses %s', (_name, rule) => {
    expect(recurrenceProblem(rule)).toEqual(expect.any(String));
  });

  it('parses into upper-case parts and formats them back in the grammar order', () => {
    const parsed = parseRecurrence('byday=sa,su;freq=weekly;until=20270331T235959Z');
    expect(parsed).toEqual({ parts: { FREQ: 'WEEKLY', BYDAY: 'SA,SU', UNTIL: '20270331T235959Z' } });
    if ('parts' in parsed)
      expect(formatRecurrence(parsed.parts)).toBe('FREQ=WEEKLY;UNTIL=20270331T235959Z;BYDAY=SA,SU');
    expect(untilDate('20270331T235959Z')).toBe('2027-03-31');
  });

  it('words an invalid recurrence and a building scope without buildings as coded rule issues', () => {
    const base = { start: '2027-01-01T00:00:00Z', end: '2027-01-02T00:00:00Z' };
    expect(
      closureRuleIssues({ ...base, scope: 'buildings', buildings: [], recurrence: 'FREQ=HOURLY' }),
    ).toEqual([
      expect.objectContaining({ field: 'buildings', code: 'closure_no_targets' }),
      expect.objectContaining({ field: 'recurrence', code: 'invalid_recurrence' }),
    ]);
    expect(closureRuleIssues({ ...base, recurrence: null })).toEqual([]);
    const draft = closureDraftSchema.safeParse({
      ...base,
      name: 'Wochenende',
      recurrence: 'FREQ=WEEKLY;BYDAY=SA,SU',
      scope: 'buildings',
      buildings: [{ buildingId: '00000000-0000-4000-8000-000000000001' }],
    });
    expect(draft.success && draft.data.buildings).toEqual([
      { buildingId: '00000000-0000-4000-8000-000000000001', floor: null },
    ]);
  });
});

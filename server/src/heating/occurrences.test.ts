/**
 * Expansion of recurring closures (decision 0051): occurrences keep their local times and local
 * duration across daylight saving; UNTIL is compared as local time; COUNT includes the start,
 * also when the rule would skip it; INTERVAL; a window's expansion is capped; the occurrence
 * running or next and the end of the last one.
 */
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import {
  currentOrNextOccurrence,
  lastOccurrenceEnd,
  MAX_OCCURRENCES,
  type Occurrence,
  occurrencesWithin,
  recurrenceParseProblem,
} from './occurrences.ts';

const ZONE = 'Europe/Berlin';
const at = (local: string) => DateTime.fromISO(local, { zone: ZONE }).toJSDate();
const local = (d: Date) => DateTime.fromJSDate(d, { zone: ZONE }).toFormat("ccc yyyy-MM-dd'T'HH:mm");
const locals = (list: Occurrence[]) => list.map((o) => `${local(o.start)} → ${local(o.end)}`);
const FAR = { from: at('2020-01-01T00:00'), to: at('2040-01-01T00:00') };

/** Friday 18:00 to Monday 06:00, the weekend before the clocks go forward on 29 March 2026. */
const weekend = (recurrence: string | null) => ({
  start: at('2026-03-20T18:00'),
  end: at('2026-03-23T06:00'),
  recurrence,
});

describe('occurrences of a recurring closure', () => {
  it('keeps the local times and the local duration across both daylight-saving changes', () => {
    const list = occurrencesWithin(
      weekend('FREQ=WEEKLY'),
      ZONE,
      at('2026-03-01T00:00'),
      at('2026-04-08T00:00'),
    );
    expect(locals(list)).toEqual([
      'Fri 2026-03-20T18:00 → Mon 2026-03-23T06:00',
      'Fri 2026-03-27T18:00 → Mon 2026-03-30T06:00',
      'Fri 2026-04-03T18:00 → Mon 2026-04-06T06:00',
    ]);
    // The weekend the clocks go forward is an hour shorter in real time, not in wall-clock time.
    expect(list[1]?.start.toISOString()).toBe('2026-03-27T17:00:00.000Z');
    expect(list[1]?.end.toISOString()).toBe('2026-03-30T04:00:00.000Z');
    expect(list[0]?.start).toEqual(weekend(null).start);

    const autumn = occurrencesWithin(
      weekend('FREQ=WEEKLY'),
      ZONE,
      at('2026-10-20T00:00'),
      at('2026-11-01T00:00'),
    );
    expect(locals(autumn)).toEqual([
      'Fri 2026-10-23T18:00 → Mon 2026-10-26T06:00',
      'Fri 2026-10-30T18:00 → Mon 2026-11-02T06:00',
    ]);
    // The clocks go back on 25 October: 17:00 UTC → 05:00 UTC, an hour longer.
    expect(autumn[0]?.start.toISOString()).toBe('2026-10-23T16:00:00.000Z');
    expect(autumn[0]?.end.toISOString()).toBe('2026-10-26T05:00:00.000Z');
  });

  it('compares UNTIL as local wall-clock time', () => {
    const list = occurrencesWithin(weekend('FREQ=WEEKLY;UNTIL=20260410T235959Z'), ZONE, FAR.from, FAR.to);
    expect(list.map((o) => local(o.start))).toEqual([
      'Fri 2026-03-20T18:00',
      'Fri 2026-03-27T18:00',
      'Fri 2026-04-03T18:00',
      'Fri 2026-04-10T18:00',
    ]);
    // 01:00 in Berlin is 23:00 UTC the day before: as UTC, 5 July 01:00 would be before UNTIL.
    const night = { start: at('2026-07-01T01:00'), end: at('2026-07-01T05:00'), recurrence: '' };
    const nights = occurrencesWithin(
      { ...night, recurrence: 'FREQ=DAILY;UNTIL=20260705T003000Z' },
      ZONE,
      FAR.from,
      FAR.to,
    );
    expect(nights.map((o) => local(o.start)).at(-1)).toBe('Sat 2026-07-04T01:00');
    expect(lastOccurrenceEnd({ ...night, recurrence: 'FREQ=DAILY;UNTIL=20260705T003000Z' }, ZONE)).toEqual(
      at('2026-07-04T05:00'),
    );
  });

  it('counts the start as the first of COUNT, also when the rule would not produce it', () => {
    expect(locals(occurrencesWithin(weekend('FREQ=WEEKLY;COUNT=3'), ZONE, FAR.from, FAR.to))).toHaveLength(3);
    expect(lastOccurrenceEnd(weekend('FREQ=WEEKLY;COUNT=3'), ZONE)).toEqual(at('2026-04-06T06:00'));
    // Friday start, Saturdays and Sundays: the Friday, then the rule's first two.
    const day = { start: at('2026-03-20T08:00'), end: at('2026-03-20T20:00') };
    const list = occurrencesWithin(
      { ...day, recurrence: 'FREQ=WEEKLY;BYDAY=SA,SU;COUNT=3' },
      ZONE,
      FAR.from,
      FAR.to,
    );
    expect(list.map((o) => local(o.start))).toEqual([
      'Fri 2026-03-20T08:00',
      'Sat 2026-03-21T08:00',
      'Sun 2026-03-22T08:00',
    ]);
    expect(
      occurrencesWithin({ ...day, recurrence: 'FREQ=WEEKLY;COUNT=1' }, ZONE, FAR.from, FAR.to),
    ).toHaveLength(1);
  });

  it('repeats every INTERVAL periods', () => {
    const list = occurrencesWithin(weekend('FREQ=WEEKLY;INTERVAL=2;COUNT=10'), ZONE, FAR.from, FAR.to);
    expect(list).toHaveLength(10);
    expect(list.slice(0, 3).map((o) => local(o.start))).toEqual([
      'Fri 2026-03-20T18:00',
      'Fri 2026-04-03T18:00',
      'Fri 2026-04-17T18:00',
    ]);
  });

  it('gives only the occurrences overlapping the window, and at most MAX_OCCURRENCES of them', () => {
    const inside = occurrencesWithin(
      weekend('FREQ=WEEKLY'),
      ZONE,
      at('2027-01-04T00:00'),
      at('2027-01-16T00:00'),
    );
    expect(inside.map((o) => local(o.start))).toEqual([
      'Fri 2027-01-01T18:00',
      'Fri 2027-01-08T18:00',
      'Fri 2027-01-15T18:00',
    ]);
    const daily = { start: at('2026-01-01T00:00'), end: at('2026-01-01T01:00'), recurrence: 'FREQ=DAILY' };
    expect(occurrencesWithin(daily, ZONE, FAR.from, FAR.to)).toHaveLength(MAX_OCCURRENCES);
    expect(occurrencesWithin(daily, ZONE, FAR.from, FAR.to, 5)).toHaveLength(5);
    // A closure that does not recur is its one occurrence.
    expect(occurrencesWithin(weekend(null), ZONE, at('2026-03-22T00:00'), at('2026-03-22T01:00'))).toEqual([
      { start: weekend(null).start, end: weekend(null).end },
    ]);
    expect(occurrencesWithin(weekend(null), ZONE, at('2026-03-24T00:00'), at('2026-03-25T00:00'))).toEqual(
      [],
    );
  });

  it('finds the occurrence running or the next one, and the end of the last', () => {
    const closure = weekend('FREQ=WEEKLY;UNTIL=20260410T235959Z');
    expect(locals([currentOrNextOccurrence(closure, ZONE, at('2026-03-28T12:00')) as Occurrence])).toEqual([
      'Fri 2026-03-27T18:00 → Mon 2026-03-30T06:00',
    ]);
    expect(locals([currentOrNextOccurrence(closure, ZONE, at('2026-04-01T12:00')) as Occurrence])).toEqual([
      'Fri 2026-04-03T18:00 → Mon 2026-04-06T06:00',
    ]);
    expect(currentOrNextOccurrence(closure, ZONE, at('2026-03-01T00:00'))?.start).toEqual(closure.start);
    expect(currentOrNextOccurrence(closure, ZONE, at('2026-04-13T06:00'))).toBeNull();
    expect(lastOccurrenceEnd(closure, ZONE)).toEqual(at('2026-04-13T06:00'));
    expect(lastOccurrenceEnd(weekend('FREQ=WEEKLY'), ZONE)).toBeNull();
    expect(lastOccurrenceEnd(weekend(null), ZONE)).toEqual(weekend(null).end);
    // Years after the start, the next occurrence is still found.
    expect(
      local(
        (currentOrNextOccurrence(weekend('FREQ=WEEKLY'), ZONE, at('2036-03-20T12:00')) as Occurrence).start,
      ),
    ).toBe('Fri 2036-03-21T18:00');
  });

  it('tells which rules the rrule package cannot expand', () => {
    expect(recurrenceParseProblem('FREQ=WEEKLY;BYDAY=SA,SU')).toBeNull();
    expect(recurrenceParseProblem('freq=yearly;until=20301231T235959Z')).toBeNull();
    expect(recurrenceParseProblem('FREQ=WEEKLY;FOO=1')).toMatch(/FOO/);
    expect(recurrenceParseProblem('FREQ=HOURLY')).not.toBeNull();
    expect(recurrenceParseProblem('BYDAY=MO')).not.toBeNull();
  });
});

/**
 * The event rules of spec §5 that the web's dialog and the server's service both apply
 * (`eventRuleIssues`, `eventDraftSchema`): messages, codes, their order and when they apply.
 */
import { describe, expect, it } from 'vitest';
import { eventDraftSchema, eventRuleIssues } from './events.ts';

const UNIT = '00000000-0000-4000-8000-000000000001';
const at = (hour: number) => new Date(Date.UTC(2030, 0, 1, hour)).toISOString();

describe('event rules', () => {
  it('report every broken rule in the server’s order, each with its field and code', () => {
    expect(
      eventRuleIssues(
        { start: at(10), end: at(9), preventRegular: true, units: [], temperature: 40 },
        { range: { min: 5, max: 28 } },
      ).map(({ field, code }) => [field, code]),
    ).toEqual([
      ['end', 'event_end_before_start'],
      ['units', 'event_no_units'],
      ['temperature', 'out_of_range'],
    ]);
    expect(eventRuleIssues({ start: at(10), end: null, preventRegular: true, units: [UNIT] })).toEqual([
      {
        field: 'end',
        message: 'An end time is required when regular events are prevented.',
        code: 'event_end_required',
      },
    ]);
    expect(eventRuleIssues({ groupMode: true, units: [UNIT], groups: [] })[0]?.field).toBe('groups');
    // Below the range is not "exceeds"; both name the range so the text can give the limit.
    expect(eventRuleIssues({ units: [UNIT], temperature: 4 }, { range: { min: 5, max: 28 } })).toEqual([
      {
        field: 'temperature',
        message: 'Value is below the temperature range set by your company.',
        code: 'below_range',
        params: { min: 5, max: 28 },
      },
    ]);
  });

  it('refuse an end in the past only when it changed and a clock is given', () => {
    const event = { start: at(1), end: at(2), units: [UNIT] };
    const now = new Date(at(5));
    expect(eventRuleIssues(event)).toEqual([]);
    expect(eventRuleIssues(event, { now, endChanged: false })).toEqual([]);
    expect(eventRuleIssues(event, { now }).map((issue) => issue.code)).toEqual(['event_end_in_past']);
  });

  it('check a whole create body in one parse, the codes in the issues’ params', () => {
    const result = eventDraftSchema({ range: { min: 5, max: 28 } }).safeParse({
      start: at(10),
      end: at(9),
      temperature: Number.NaN,
      units: [],
    });
    const issues = result.error?.issues ?? [];
    expect(issues.map((issue) => [issue.path.join('.'), issue.code])).toEqual([
      ['temperature', 'invalid_type'],
      ['end', 'custom'],
      ['units', 'custom'],
    ]);
    expect(issues[1]).toMatchObject({ params: { code: 'event_end_before_start' } });
  });
});

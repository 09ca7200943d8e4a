/**
 * Heating plan validation (spec §5 messages). Pure; returns every issue found so a
 * form can mark each field, [] when the plan is valid.
 *
 * - invalid_schedule 'Invalid schedule!' ('There is an error in the schedule.'): a seasonal plan
 *   without validFrom/validTo, a specific_days plan without dates, duplicate dates, no switch
 *   points, a weekday outside 1–7, or two switch points on the same day and time.
 * - invalid_time 'Invalid time!' ('The time is not valid.'): hour outside 0–23, minute outside
 *   0–59, a malformed or impossible 'MM-DD' (02-30) or 'YYYY-MM-DD'.
 * - out_of_range 'Value exceeds temperature range set by your company.': a switch point
 *   temperature (°C) above the company range (or no number); below_range 'Value is below the
 *   temperature range set by your company.' one below it. Both carry the range as params.
 */
import { temperatureRangeIssue } from '@heizplan/contracts/heating';
import { isIntegerIn, parseDate, parseMonthDay } from './plans.ts';
import type { HeatingPlan, PlanIssue } from './types.ts';

/** Title per issue code (spec §5); `PLAN_ISSUE_DETAILS` holds the longer explanation. */
export const PLAN_ISSUE_MESSAGES: Record<PlanIssue['code'], string> = {
  invalid_schedule: 'Invalid schedule!',
  invalid_time: 'Invalid time!',
  out_of_range: 'Value exceeds temperature range set by your company.',
  below_range: 'Value is below the temperature range set by your company.',
};

/** Detail per issue code (spec §5), e.g. for a problem+json `detail`. */
export const PLAN_ISSUE_DETAILS: Record<PlanIssue['code'], string> = {
  invalid_schedule: 'There is an error in the schedule.',
  invalid_time: 'The time is not valid.',
  out_of_range: 'Value exceeds temperature range set by your company.',
  below_range: 'Value is below the temperature range set by your company.',
};

function issue(field: string, code: PlanIssue['code']): PlanIssue {
  return { field, code, message: PLAN_ISSUE_MESSAGES[code] };
}

function validateCoverage(plan: HeatingPlan): PlanIssue[] {
  if (plan.kind === 'seasonal') {
    return (['validFrom', 'validTo'] as const).flatMap((field) => {
      const value = plan[field];
      if (value === undefined || value === '') return [issue(field, 'invalid_schedule')];
      return Number.isNaN(parseMonthDay(value)) ? [issue(field, 'invalid_time')] : [];
    });
  }
  const dates = plan.dates ?? [];
  if (dates.length === 0) return [issue('dates', 'invalid_schedule')];
  const seen = new Set<number>();
  return dates.flatMap((date, index) => {
    const dayNum = parseDate(date);
    if (Number.isNaN(dayNum)) return [issue(`dates.${index}`, 'invalid_time')];
    if (seen.has(dayNum)) return [issue(`dates.${index}`, 'invalid_schedule')];
    seen.add(dayNum);
    return [];
  });
}

function validateSwitchPoints(plan: HeatingPlan, range: { min: number; max: number }): PlanIssue[] {
  if (plan.switchPoints.length === 0) return [issue('switchPoints', 'invalid_schedule')];
  const issues: PlanIssue[] = [];
  const seen = new Set<string>();
  plan.switchPoints.forEach((point, index) => {
    const field = `switchPoints.${index}`;
    const weekly = plan.kind === 'seasonal';
    const dayOk = !weekly || isIntegerIn(point.day, 1, 7);
    const hourOk = isIntegerIn(point.hour, 0, 23);
    const minuteOk = isIntegerIn(point.minute, 0, 59);
    if (!dayOk) issues.push(issue(`${field}.day`, 'invalid_schedule'));
    if (!hourOk) issues.push(issue(`${field}.hour`, 'invalid_time'));
    if (!minuteOk) issues.push(issue(`${field}.minute`, 'invalid_time'));
    const outside = temperatureRangeIssue(point.temperature, range);
    if (outside) {
      issues.push({ ...issue(`${field}.temperature`, outside.code), params: { ...outside.params } });
    }
    if (dayOk && hourOk && minuteOk) {
      // specific_days points repeat on every listed date, so their weekday does not matter.
      const key = `${weekly ? point.day : 0}:${point.hour}:${point.minute}`;
      if (seen.has(key)) issues.push(issue(field, 'invalid_schedule'));
      seen.add(key);
    }
  });
  return issues;
}

/**
 * Checks a heating plan against the spec §5 rules and the company range (°C).
 * @returns every issue found, each naming its field (e.g. 'switchPoints.2.hour'); [] when valid.
 */
export function validatePlan(plan: HeatingPlan, range: { min: number; max: number }): PlanIssue[] {
  return [...validateCoverage(plan), ...validateSwitchPoints(plan, range)];
}

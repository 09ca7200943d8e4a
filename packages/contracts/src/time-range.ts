/**
 * A time window `[from, to)` an endpoint accepts, checked the same way wherever one is asked for
 * (the calendar layers, the heating log export): the end after the start and at most a number of
 * days later. The refusal names the field `to`, an English message and the problem code the web
 * translates with `params.days`.
 */
import type { ProblemCode } from './problem-codes.ts';

/** A window an endpoint refuses: the field (`to`), an English message and the problem code. */
export interface TimeRangeIssue {
  field: 'to';
  message: string;
  code: ProblemCode;
  params?: { days: number };
}

/** What an endpoint allows and how it says no. */
export interface TimeRangeRule {
  maxDays: number;
  endNotAfterStart: { code: ProblemCode; message: string };
  tooLong: { code: ProblemCode; message: string };
}

/** Why `[from, to)` breaks `rule`, or null. Instants as ISO strings or dates. */
export function timeRangeIssue(
  from: string | Date,
  to: string | Date,
  rule: TimeRangeRule,
): TimeRangeIssue | null {
  const start = new Date(from).getTime();
  const end = new Date(to).getTime();
  if (!(end > start)) return { field: 'to', ...rule.endNotAfterStart };
  if (end - start > rule.maxDays * 86_400_000)
    return { field: 'to', ...rule.tooLong, params: { days: rule.maxDays } };
  return null;
}

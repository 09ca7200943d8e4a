/**
 * Overlap of active plans of one kind on one owner (docs/decisions/0042): the
 * engine lets the first of two such plans govern a shared day (plans.ts), so the second would
 * silently never apply there. The API refuses such a pair; this finds it. Pure.
 *
 * - Two seasonal plans overlap when their 'MM-DD' ranges (recurring yearly, a range with
 *   validTo < validFrom crosses New Year) share a day: on a circle of days two arcs intersect
 *   exactly when one contains the other's first day.
 * - Two specific_days plans overlap when they share a date.
 * - A seasonal and a specific_days plan never compete: the specific days win on their dates by
 *   design (decision 0004).
 */
import { parseMonthDay } from './plans.ts';

/** The fields of a plan the overlap rule reads (a stored row or a draft): 'MM-DD' or 'YYYY-MM-DD'. */
export interface PlanCoverage {
  kind: 'seasonal' | 'specific_days';
  validFrom?: string | null;
  validTo?: string | null;
  dates?: readonly string[] | null;
}

function contains(from: number, to: number, day: number): boolean {
  return from <= to ? from <= day && day <= to : day >= from || day <= to;
}

function seasonalOverlap(a: PlanCoverage, b: PlanCoverage): boolean {
  const [aFrom, aTo, bFrom, bTo] = [a.validFrom, a.validTo, b.validFrom, b.validTo].map((v) =>
    parseMonthDay(v ?? undefined),
  );
  // Malformed ranges are refused by validatePlan before this runs; NaN compares false anyway.
  return contains(aFrom!, aTo!, bFrom!) || contains(bFrom!, bTo!, aFrom!);
}

/**
 * The first of `others` that `plan` would compete with, and for specific days the shared dates
 * (sorted); null when none. Callers pass the other active plans of the same owner.
 */
export function findOverlap<T extends PlanCoverage>(
  plan: PlanCoverage,
  others: readonly T[],
): { other: T; dates: string[] } | null {
  for (const other of others) {
    if (other.kind !== plan.kind) continue;
    if (plan.kind === 'seasonal') {
      if (seasonalOverlap(plan, other)) return { other, dates: [] };
      continue;
    }
    const mine = new Set(plan.dates ?? []);
    const shared = [...new Set(other.dates ?? [])].filter((date) => mine.has(date)).sort();
    if (shared.length > 0) return { other, dates: shared };
  }
  return null;
}

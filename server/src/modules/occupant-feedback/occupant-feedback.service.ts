/**
 * Occupants' feedback on a room (decision 0070). The public page records a press of "Zu warm" or
 * "Zu kalt" through `record` (the token was resolved by the public heating view); staff read a
 * room's feedback over a window through `list`. Each press keeps the room as it was: its
 * temperature and setpoint (°C) and its trend over the hour before (K/h). Time comes from the
 * injected clock, never the machine's.
 */
import {
  feedbackRangeIssue,
  type OccupantFeeling,
  type UnitFeedback,
  type UnitFeedbackQuery,
} from '@heizplan/contracts/occupant-feedback';
import { requireMember } from '../../auth/membership.ts';
import type { Db } from '../../db/client.ts';
import { findCompanyHeating } from '../../heating/inputs.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import { findUnit } from '../units/units.service.ts';
import * as repo from './occupant-feedback.repository.ts';

/** The reports count presses per room through this (a module reaches another through its service). */
export { feedbackCounts } from './occupant-feedback.repository.ts';

/** The trend looks back this far (ms): one hour. */
export const TREND_WINDOW_MS = 3_600_000;
const HOUR_MS = 3_600_000;

/**
 * K/h the room's temperature changed over `readings` (instants, °C): the least-squares slope, so
 * one odd reading or two devices a few tenths apart move it little. Null with fewer than two
 * readings or when they all share one instant (no time to measure a change over).
 */
export function trendKPerHour(
  readings: ReadonlyArray<{ time: Date; roomTemperature: number }>,
): number | null {
  if (readings.length < 2) return null;
  const t0 = readings[0]?.time.getTime() ?? 0;
  const xs = readings.map((r) => (r.time.getTime() - t0) / HOUR_MS);
  const ys = readings.map((r) => r.roomTemperature);
  const meanX = xs.reduce((a, b) => a + b, 0) / xs.length;
  const meanY = ys.reduce((a, b) => a + b, 0) / ys.length;
  let sxy = 0;
  let sxx = 0;
  xs.forEach((x, i) => {
    sxy += (x - meanX) * ((ys[i] ?? 0) - meanY);
    sxx += (x - meanX) ** 2;
  });
  if (sxx === 0) return null;
  // Two decimals: a trend is read as "+0,8 K/h", and float noise should not reach the screen.
  return Math.round((sxy / sxx) * 100) / 100;
}

export class OccupantFeedbackService {
  constructor(private readonly deps: { db: Db; now: () => Date }) {}

  /**
   * Records a press for the company's `unit` as it is now: its room temperature and setpoint (°C,
   * null when unknown) and its trend over the last hour from its telemetry (K/h, null with fewer
   * than two readings). The caller has resolved and checked the token.
   */
  async record(
    companyId: string,
    unit: { id: string; roomTemperature: number | null; setpoint: number | null },
    feeling: OccupantFeeling,
  ): Promise<void> {
    const { db } = this.deps;
    const at = this.deps.now();
    const readings = await repo.roomReadings(db, companyId, unit.id, {
      from: new Date(at.getTime() - TREND_WINDOW_MS),
      to: at,
    });
    await repo.insertFeedback(db, {
      companyId,
      unitId: unit.id,
      at,
      feeling,
      roomTemperature: unit.roomTemperature,
      setpoint: unit.setpoint,
      trend: trendKPerHour(readings),
    });
  }

  /**
   * The room's feedback of `[from, to)` with its counts, newest first.
   * @throws 404 for a stranger to the company or an unknown room; 400
   * `feedback_range_end_not_after_start` or `feedback_range_too_long` (params.days) for a window
   * that is not one.
   */
  async list(
    userId: string,
    companyId: string,
    unitId: string,
    query: UnitFeedbackQuery,
  ): Promise<UnitFeedback> {
    const { db } = this.deps;
    await requireMember(db, userId, companyId, 'read');
    const unit = await findUnit(db, companyId, unitId);
    const company = await findCompanyHeating(db, companyId);
    if (!unit || !company) throw notFound('Unit not found.');
    const issue = feedbackRangeIssue(query.from, query.to);
    if (issue) {
      const reason = { code: issue.code, ...(issue.params ? { params: issue.params } : {}) };
      throw badRequest(issue.message, [{ field: issue.field, message: issue.message, ...reason }], reason);
    }
    const from = new Date(query.from);
    const to = new Date(query.to);
    const rows = await repo.unitFeedback(db, companyId, unitId, { from, to });
    return {
      from: from.toISOString(),
      to: to.toISOString(),
      timeZone: company.timeZone,
      counts: {
        tooWarm: rows.filter((r) => r.feeling === 'too_warm').length,
        tooCold: rows.filter((r) => r.feeling === 'too_cold').length,
      },
      results: rows.map((r) => ({
        id: r.id,
        at: r.at.toISOString(),
        feeling: r.feeling,
        roomTemperature: r.roomTemperature,
        setpoint: r.setpoint,
        trend: r.trend,
      })),
    };
  }
}

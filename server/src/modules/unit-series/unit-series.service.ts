/**
 * Graph data of a unit: readings bucketed so any range has at most MAX_SERIES_POINTS
 * points per series, and the setpoint as exact steps from the heating log. Checks membership
 * (404 for other companies) and the unit (404 when unknown).
 */
import {
  MAX_SERIES_POINTS,
  SERIES_RANGES,
  type SeriesRange,
  type UnitSeries,
} from '@heizplan/contracts/unit-series';
import { requireMember } from '../../auth/membership.ts';
import type { Db } from '../../db/client.ts';
import { findCompanyHeating } from '../../heating/inputs.ts';
import { notFound } from '../../http/errors.ts';
import { findUnit } from '../units/units.service.ts';
import * as repo from './unit-series.repository.ts';

/** Bucket width (s) for a range: whole minutes, so that the range has at most `MAX_SERIES_POINTS` buckets. */
export function bucketSecondsFor(rangeMs: number): number {
  return Math.ceil(rangeMs / MAX_SERIES_POINTS / 60_000) * 60;
}

export class UnitSeriesService {
  constructor(private readonly deps: { db: Db; now: () => Date }) {}

  async get(userId: string, companyId: string, unitId: string, range: SeriesRange): Promise<UnitSeries> {
    const { db } = this.deps;
    await requireMember(db, userId, companyId, 'read');
    const unit = await findUnit(db, companyId, unitId);
    const company = await findCompanyHeating(db, companyId);
    if (!unit || !company) throw notFound('Unit not found.');
    const rangeMs = SERIES_RANGES[range];
    const bucketSeconds = bucketSecondsFor(rangeMs);
    // Buckets align to whole bucket widths since the epoch, so a refresh does not shift them.
    const to = this.deps.now();
    const from = new Date(
      Math.floor((to.getTime() - rangeMs) / (bucketSeconds * 1000)) * bucketSeconds * 1000,
    );
    const rows = await repo.readingBuckets(db, companyId, unitId, { from, to, bucketSeconds });
    const { before, changes } = await repo.setpointSteps(db, companyId, unitId, from, to);
    const setpoint = [
      ...(before ? [{ at: from.toISOString(), setpoint: before.setpoint }] : []),
      ...changes.map((c) => ({ at: c.at.toISOString(), setpoint: c.setpoint })),
    ];
    return {
      from: from.toISOString(),
      to: to.toISOString(),
      bucketSeconds,
      timeZone: company.timeZone,
      buckets: {
        time: rows.map((r) => r.time.toISOString()),
        roomAvg: rows.map((r) => r.roomAvg),
        roomMin: rows.map((r) => r.roomMin),
        roomMax: rows.map((r) => r.roomMax),
        supplyAvg: rows.map((r) => r.supplyAvg),
        valveAvg: rows.map((r) => r.valveAvg),
      },
      setpoint,
    };
  }
}

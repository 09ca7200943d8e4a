/**
 * Assembles a report (contracts `Report`, decision 0061) from the daily rollups: comfort, heating,
 * degree-day-normalised comparisons, consumption, the saving estimate, efficiency losses and the
 * building's target values, and the occupants' feedback beside the comfort figures (decision 0070).
 * The thresholds of the efficiency losses are named below; the comfort rules are `comfort.ts`'s.
 */
import type { Report, ReportRow } from '@heizplan/contracts/reports';
import { DateTime } from 'luxon';
import type { Db } from '../../db/client.ts';
import { feedbackCounts } from '../occupant-feedback/occupant-feedback.service.ts';
import { ABOVE_SETPOINT_K, COMFORT_FLOOR_C } from './comfort.ts';
import { periodInstants, previousPeriod, previousYearPeriod, type ReportPeriod } from './report-period.ts';
import * as repo from './reports.repository.ts';

/** A room is flagged when it heated ≥ 1 h with a window open in the period. */
const WINDOW_HEATING_H = 1;
/** …when its valve stood fully open ≥ 2 h while the room was too warm. */
const STUCK_OPEN_H = 2;
/** …when ≥ 50 % of ≥ 10 occupied hours were below comfort. */
const ALWAYS_BELOW_SHARE = 0.5;
const ALWAYS_BELOW_MIN_H = 10;
/** …when ≥ 25 % of its quarter hours since its first uplink of the period had no uplink. */
const SPARSE_SHARE = 0.25;
const QUARTERS_PER_DAY = 96;
/**
 * …when occupants complained ≥ 3 times of one feeling while its figures say comfortable (decision
 * 0070): "zu kalt" with < 10 % of ≥ 10 occupied hours below comfort, or "zu warm" with < 10 % of
 * its occupied quarter hours more than 0.5 K above the setpoint.
 */
const COMPLAINTS_MIN = 3;
const COMFORTABLE_SHARE = 0.1;
const COMFORTABLE_MIN_H = 10;

/** Occupants' presses per room: "zu warm" and "zu kalt". */
type FeedbackCounts = Map<string, { tooWarm: number; tooCold: number }>;
const noFeedback = { tooWarm: 0, tooCold: 0 };

/**
 * The rooms occupants complained about while their figures say comfortable, with the number of
 * complaints that count (°C and shares per `comfort.ts`; `aboveShares` 0–1 per room, only for
 * rooms with ≥ 3 "zu warm").
 */
export function complaintsDespiteComfort(
  units: ReadonlyArray<Pick<repo.UnitRow, 'unitId' | 'name' | 'occupiedHours' | 'belowComfortHours'>>,
  feedback: FeedbackCounts,
  aboveShares: ReadonlyMap<string, number>,
): Report['losses'] {
  const found: Report['losses'] = [];
  for (const u of units) {
    const { tooWarm, tooCold } = feedback.get(u.unitId) ?? noFeedback;
    const coldDespite =
      tooCold >= COMPLAINTS_MIN &&
      u.occupiedHours >= COMFORTABLE_MIN_H &&
      u.belowComfortHours / u.occupiedHours < COMFORTABLE_SHARE;
    const above = aboveShares.get(u.unitId);
    const warmDespite = tooWarm >= COMPLAINTS_MIN && above !== undefined && above < COMFORTABLE_SHARE;
    const count = (coldDespite ? tooCold : 0) + (warmDespite ? tooWarm : 0);
    if (count > 0)
      found.push({ kind: 'complaints_despite_comfort', unitId: u.unitId, name: u.name, value: count });
  }
  return found;
}

const sum = (values: (number | null)[]) => {
  const present = values.filter((v): v is number => v !== null);
  return present.length > 0 ? present.reduce((a, b) => a + b, 0) : null;
};
const ratio = (a: number | null, b: number | null) => (a === null || b === null || b === 0 ? null : a / b);

/** Degree days, heating hours and consumption of one period, for comparisons. */
async function figures(
  db: Db,
  companyId: string,
  scope: repo.ReportScope,
  period: ReportPeriod,
  meterBuilding: string | null | undefined,
) {
  const days = { from: period.from, to: period.to };
  const [totals, dayRows] = await Promise.all([
    repo.totals(db, companyId, scope, days),
    repo.dayRows(db, companyId, scope, days),
  ]);
  const degreeDays = sum(dayRows.map((d) => d.degreeDays));
  const carriers =
    meterBuilding === undefined ? [] : await repo.meterKwh(db, companyId, meterBuilding, period.months);
  const meterKwh = sum(carriers.map((c) => c.kwh));
  return {
    totals,
    dayRows,
    carriers,
    out: {
      label: period.key,
      degreeDays,
      heatingHours: totals.heatingHours,
      heatingHoursPerDegreeDay:
        totals.rooms > 0 ? ratio(totals.heatingHours / totals.rooms, degreeDays) : null,
      meterKwh,
      kwhPerDegreeDay: ratio(meterKwh, degreeDays),
    },
  };
}

/** Unit rows become the report's table, worst rooms and losses. */
function roomFindings(units: repo.UnitRow[], lastDay: string | null) {
  const worstRooms = units
    .filter((u) => u.occupiedHours >= 1 && u.belowComfortHours > 0)
    .map((u) => ({
      unitId: u.unitId,
      name: u.name,
      belowComfortShare: u.belowComfortHours / u.occupiedHours,
    }))
    .sort((a, b) => b.belowComfortShare - a.belowComfortShare)
    .slice(0, 5);
  const losses: Report['losses'] = [];
  for (const u of units) {
    const room = { unitId: u.unitId, name: u.name };
    if (u.windowHeatingHours >= WINDOW_HEATING_H)
      losses.push({ kind: 'window_open_heating', ...room, value: u.windowHeatingHours });
    if (u.stuckOpenHours >= STUCK_OPEN_H)
      losses.push({ kind: 'valve_stuck_open', ...room, value: u.stuckOpenHours });
    if (u.occupiedHours >= ALWAYS_BELOW_MIN_H && u.belowComfortHours / u.occupiedHours >= ALWAYS_BELOW_SHARE)
      losses.push({ kind: 'always_below_target', ...room, value: u.belowComfortHours / u.occupiedHours });
    if (lastDay) {
      const days = DateTime.fromISO(lastDay).diff(DateTime.fromISO(u.firstDay), 'days').days + 1;
      const missing = 1 - u.readingBuckets / (days * QUARTERS_PER_DAY);
      if (missing >= SPARSE_SHARE) losses.push({ kind: 'sparse_reports', ...room, value: missing });
    }
  }
  return { worstRooms, losses };
}

function unitReportRow(u: repo.UnitRow, feedback: FeedbackCounts): ReportRow {
  return {
    ...(feedback.get(u.unitId) ?? noFeedback),
    kind: 'unit',
    id: u.unitId,
    name: u.name,
    rooms: 1,
    roomMean: u.roomMean,
    occupiedHours: u.occupiedHours,
    belowComfortShare: ratio(u.belowComfortHours, u.occupiedHours),
    heatingHours: u.heatingHours,
    setbackHours: u.setbackHours,
    windowHeatingHours: u.windowHeatingHours,
    degreeDays: u.degreeDays,
  };
}

/** The company's rooms summed per building (`id` '' = rooms without a building). */
function buildingReportRows(
  units: repo.UnitRow[],
  names: Map<string, string>,
  degreeDays: Map<string | null, number>,
  feedback: FeedbackCounts,
) {
  const byBuilding = new Map<string | null, repo.UnitRow[]>();
  for (const u of units) byBuilding.set(u.buildingId, [...(byBuilding.get(u.buildingId) ?? []), u]);
  return [...byBuilding.entries()].map(([buildingId, rooms]): ReportRow => {
    const occupied = rooms.reduce((a, u) => a + u.occupiedHours, 0);
    const below = rooms.reduce((a, u) => a + u.belowComfortHours, 0);
    const means = rooms.map((u) => u.roomMean).filter((v): v is number => v !== null);
    return {
      kind: 'building',
      id: buildingId ?? '',
      name: buildingId ? (names.get(buildingId) ?? '') : '',
      rooms: rooms.length,
      roomMean: means.length > 0 ? means.reduce((a, b) => a + b, 0) / means.length : null,
      occupiedHours: occupied,
      belowComfortShare: ratio(below, occupied),
      heatingHours: rooms.reduce((a, u) => a + u.heatingHours, 0),
      setbackHours: rooms.reduce((a, u) => a + u.setbackHours, 0),
      windowHeatingHours: rooms.reduce((a, u) => a + u.windowHeatingHours, 0),
      degreeDays: degreeDays.get(buildingId) ?? null,
      tooWarm: rooms.reduce((a, u) => a + (feedback.get(u.unitId)?.tooWarm ?? 0), 0),
      tooCold: rooms.reduce((a, u) => a + (feedback.get(u.unitId)?.tooCold ?? 0), 0),
    };
  });
}

/**
 * The report of `scope` (named `scopeName`) over `period`, times in `timeZone`.
 * Consumption is shown for the company and a building (meters are per building), not for a
 * group or a room.
 */
export async function buildReport(
  db: Db,
  { companyId, timeZone }: { companyId: string; timeZone: string },
  scope: repo.ReportScope,
  scopeName: string,
  period: ReportPeriod,
): Promise<Report> {
  const days = { from: period.from, to: period.to };
  const meterBuilding = scope.kind === 'company' ? null : scope.kind === 'building' ? scope.id : undefined;
  const instants = periodInstants(period, timeZone);
  const [current, previous, previousYear, units, saving, overrides, settings] = await Promise.all([
    figures(db, companyId, scope, period, meterBuilding),
    figures(db, companyId, scope, previousPeriod(period), meterBuilding),
    figures(db, companyId, scope, previousYearPeriod(period), meterBuilding),
    repo.unitRows(db, companyId, scope, days),
    repo.savingSums(db, companyId, scope, days),
    repo.overrides(db, companyId, scope, instants.from, instants.to),
    repo.reportSettings(db, companyId, meterBuilding ?? null),
  ]);
  const { totals, dayRows } = current;
  const lastDay = dayRows.at(-1)?.day ?? null;
  const { worstRooms, losses } = roomFindings(units, lastDay);
  const feedback: FeedbackCounts = new Map();
  const counted = await feedbackCounts(
    db,
    companyId,
    instants,
    units.map((u) => u.unitId),
  );
  for (const c of counted) {
    const room = feedback.get(c.unitId) ?? { ...noFeedback };
    if (c.feeling === 'too_warm') room.tooWarm += c.count;
    else room.tooCold += c.count;
    feedback.set(c.unitId, room);
  }
  const warmComplaints = [...feedback].filter(([, f]) => f.tooWarm >= COMPLAINTS_MIN).map(([id]) => id);
  const aboveShares = await repo.aboveSetpointShares(db, companyId, warmComplaints, instants, {
    floorC: COMFORT_FLOOR_C,
    aboveK: ABOVE_SETPOINT_K,
  });
  losses.push(...complaintsDespiteComfort(units, feedback, aboveShares));
  const rows =
    scope.kind === 'company'
      ? buildingReportRows(
          units,
          await repo.buildingNames(db, companyId),
          await repo.buildingDegreeDays(db, companyId, days),
          feedback,
        )
      : scope.kind === 'unit'
        ? []
        : units.map((u) => unitReportRow(u, feedback));
  // Natural name order, as the units list (decision 0040): "Raum 2" before "Raum 10".
  rows.sort((a, b) => a.name.localeCompare(b.name, 'de', { numeric: true }));
  const belowShare = ratio(totals.belowComfortHours, totals.occupiedHours);
  const perDegreeDay = current.out.heatingHoursPerDegreeDay;
  const missed: Report['targets']['missed'] = [];
  if (
    settings.maxHeatingHoursPerDegreeDay !== null &&
    perDegreeDay !== null &&
    perDegreeDay > settings.maxHeatingHoursPerDegreeDay
  )
    missed.push('heating_hours_per_degree_day');
  if (
    settings.maxBelowComfortShare !== null &&
    belowShare !== null &&
    belowShare > settings.maxBelowComfortShare
  )
    missed.push('below_comfort_share');
  const kwh = current.out.meterKwh;
  const change = (before: number | null) =>
    perDegreeDay === null || !before ? null : perDegreeDay / before - 1;
  return {
    period: { kind: period.kind, key: period.key, from: period.from, to: period.to },
    scope: { kind: scope.kind, id: scope.kind === 'company' ? companyId : scope.id, name: scopeName },
    rooms: totals.rooms,
    comfort: {
      occupiedHours: totals.occupiedHours,
      belowComfortHours: totals.belowComfortHours,
      belowComfortShare: belowShare,
      categoryHours: totals.categoryHours,
      worstRooms,
      feedback: {
        tooWarm: [...feedback.values()].reduce((a, f) => a + f.tooWarm, 0),
        tooCold: [...feedback.values()].reduce((a, f) => a + f.tooCold, 0),
      },
    },
    heating: {
      heatingHours: totals.heatingHours,
      setbackHours: totals.setbackHours,
      windowHeatingHours: totals.windowHeatingHours,
      overrides,
    },
    weather: {
      outdoorMean: totals.outdoorMean,
      current: current.out,
      previous: previous.out,
      previousYear: previousYear.out,
      changeToPrevious: change(previous.out.heatingHoursPerDegreeDay),
      changeToPreviousYear: change(previousYear.out.heatingHoursPerDegreeDay),
    },
    energy: {
      carriers: current.carriers,
      kwh,
      kwhPerDegreeDay: current.out.kwhPerDegreeDay,
      kwhPerM2: meterBuilding === undefined ? null : ratio(kwh, settings.area),
      heatedAreaM2: meterBuilding === undefined ? null : settings.area,
    },
    saving: {
      share: saving.reference > 0 ? 1 - saving.actual / saving.reference : null,
      referenceComfortC: saving.comfort,
    },
    losses,
    targets: {
      maxHeatingHoursPerDegreeDay: settings.maxHeatingHoursPerDegreeDay,
      maxBelowComfortShare: settings.maxBelowComfortShare,
      missed,
    },
    days: dayRows,
    rows,
    coverage:
      lastDay === null
        ? null
        : ratio(
            totals.readingBuckets,
            units.reduce(
              (a, u) =>
                a +
                (DateTime.fromISO(lastDay).diff(DateTime.fromISO(u.firstDay), 'days').days + 1) *
                  QUARTERS_PER_DAY,
              0,
            ),
          ),
  };
}

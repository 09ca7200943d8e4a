/**
 * When a building's heating must run on a day (decision 0056): the earliest instant of the local
 * day at which one of its rooms starts heating up — a setpoint rise of at least 1 K, after
 * optimum start moved it where the company runs it `on`. A caretaker sets the boiler's own
 * timer by it ("Anlage muss ab 05:40 laufen").
 *
 * The buildings list keeps the figure per building (decision 0069, `keptHeatingStartsTomorrow`):
 * it computes only buildings whose inputs changed, whose kept value is for another day, or —
 * where optimum start runs `on` — whose value is older than `OPTIMUM_STARTS_MAX_AGE_MS`.
 */
import { DateTime } from 'luxon';
import type { Db } from '../db/client.ts';
import { expandTimeline, resolveSetpoint } from './engine/engine.ts';
import { MIN_RISE_K } from './engine/optimum.ts';
import { findCompanyOptimum, unitsOfBuildings } from './inputs.repository.ts';
import { loadHeatingInputs } from './inputs.ts';
import { addPlanShifts } from './optimum-inputs.ts';
import { keepHeatingStarts, keptHeatingStarts } from './starts.repository.ts';

/** The start of the local day after `now` in `zone`. */
const tomorrow = (now: Date, zone: string) =>
  DateTime.fromJSDate(now, { zone }).plus({ days: 1 }).startOf('day');

/**
 * The earliest heating start of each of `buildingIds` on the local day after `now` in `zone`
 * (IANA), or null for a building none of whose rooms heats up that day.
 */
export async function heatingStartsTomorrow(
  db: Db,
  buildingIds: string[],
  zone: string,
  now: Date,
): Promise<Map<string, Date | null>> {
  const result = new Map<string, Date | null>(buildingIds.map((id) => [id, null]));
  if (buildingIds.length === 0) return result;
  const day = tomorrow(now, zone);
  const from = day.toJSDate();
  const to = day.plus({ days: 1 }).toJSDate();
  const unitRows = await unitsOfBuildings(db, buildingIds);
  const inputs = await loadHeatingInputs(db, unitRows, undefined, now);
  await addPlanShifts(db, unitRows, inputs, now);
  // The day is [from, to): the engine's window is (after, to], so it starts a millisecond early
  // (a rise at 00:00 is the day's) and a change at `to` — a closure ending at midnight — is the
  // next day's.
  const before = new Date(from.getTime() - 1);
  for (const unit of unitRows) {
    const input = inputs.get(unit.id);
    if (!input || !unit.buildingId) continue;
    let previous = resolveSetpoint(input, before).setpoint;
    for (const change of expandTimeline(input, before, to)) {
      if (change.at.getTime() >= to.getTime()) break;
      if (change.setpoint - previous >= MIN_RISE_K) {
        const earliest = result.get(unit.buildingId);
        if (!earliest || change.at < earliest) result.set(unit.buildingId, change.at);
        break;
      }
      previous = change.setpoint;
    }
  }
  return result;
}

/** What computes the starts: `heatingStartsTomorrow`, or a test's counting stand-in. */
export type HeatingStartsCompute = typeof heatingStartsTomorrow;

/**
 * How long (ms) a kept start of a company running optimum start `on` holds: its shifts follow the
 * outdoor forecast (fetched hourly), the rooms' last readings (every 10–20 minutes) and the
 * learned models, which change no input of a unit. A quarter of an hour keeps the figure within
 * minutes of what the scheduler will do, at one full computation per list and quarter hour.
 */
export const OPTIMUM_STARTS_MAX_AGE_MS = 15 * 60_000;

/**
 * `heatingStartsTomorrow` for `buildingIds` of company `company` (IANA `timeZone`), answered from
 * the starts kept per building (decision 0069): `compute` runs once, for the buildings whose kept
 * value is missing, marked stale by an input change, for another local day, or — where the
 * company runs optimum start `on` — computed more than `OPTIMUM_STARTS_MAX_AGE_MS` before `now`
 * (or after it: a clock set back); those are kept again. Values of other buildings come from the
 * table unread by the engine.
 * @returns start instant (UTC) per building id; null = no room heats up by ≥ 1 K that day.
 */
export async function keptHeatingStartsTomorrow(
  db: Db,
  company: { id: string; timeZone: string },
  buildingIds: string[],
  now: Date,
  compute: HeatingStartsCompute = heatingStartsTomorrow,
): Promise<Map<string, Date | null>> {
  if (buildingIds.length === 0) return new Map();
  const day = tomorrow(now, company.timeZone).toISODate() as string;
  const [kept, optimum] = await Promise.all([
    keptHeatingStarts(db, buildingIds),
    findCompanyOptimum(db, company.id),
  ]);
  const fresh = (id: string) => {
    const k = kept.get(id);
    if (!k || k.day !== day || !k.computedAt) return false;
    if (optimum !== 'on') return true;
    const age = now.getTime() - k.computedAt.getTime();
    return age >= 0 && age < OPTIMUM_STARTS_MAX_AGE_MS;
  };
  const result = new Map<string, Date | null>();
  const stale: string[] = [];
  for (const id of buildingIds) {
    if (fresh(id)) result.set(id, kept.get(id)?.startAt ?? null);
    else stale.push(id);
  }
  if (stale.length === 0) return result;
  const computed = await compute(db, stale, company.timeZone, now);
  await keepHeatingStarts(
    db,
    day,
    now,
    stale.map((id) => ({
      buildingId: id,
      version: kept.get(id)?.version ?? 0,
      startAt: computed.get(id) ?? null,
    })),
  );
  for (const id of stale) result.set(id, computed.get(id) ?? null);
  return result;
}

/**
 * When a building's heating must run on a day (decision 0056): the earliest instant of the local
 * day at which one of its rooms starts heating up — a setpoint rise of at least 1 K, after
 * optimum start moved it where the company runs it `on`. A caretaker sets the boiler's own
 * timer by it ("Anlage muss ab 05:40 laufen").
 */
import { DateTime } from 'luxon';
import type { Db } from '../db/client.ts';
import { expandTimeline, resolveSetpoint } from '../heating/engine.ts';
import { MIN_RISE_K } from '../heating/optimum.ts';
import { loadHeatingInputs } from './heating-inputs.ts';
import { addPlanShifts } from './optimum-inputs.ts';
import { unitsOfBuildings } from './scheduling.repository.ts';

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
  const day = DateTime.fromJSDate(now, { zone }).plus({ days: 1 }).startOf('day');
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

/**
 * Learns each unit's warm-up model from its own history (decision 0056): room temperatures from
 * the telemetry, setpoint steps from the heating log. Runs for units of companies whose optimum
 * start is `shadow` or `on` and that take part. Incremental: each run reads the history since the
 * unit's last run (less the longest session, so a warm-up in progress then is read again once it
 * has ended), adds the new sessions and cool-downs to the stored ones and fits the last ten.
 *
 * Each session carries the mean outdoor temperature of the unit's building over it (decision
 * 0057) where the building has weather; the fit then makes the rate depend on it.
 *
 * Every run also judges the plan's comfort starts since then: was the room within 0.5 K of the
 * comfort setpoint at the switch point (the hit rate of the last 30 days on the unit page).
 *
 * Several instances may run it at once: a unit's row is written with one upsert, sessions are
 * keyed by their start, so a second run adds nothing twice.
 */
import type { Db } from '../db/client.ts';
import type { StoredMorning, StoredWarmUpSession } from '../db/schema.ts';
import { loadOutdoor } from '../weather/outdoor-store.repository.ts';
import {
  detectComfortHolds,
  detectCoolDowns,
  detectWarmUpSessions,
  FIT_WINDOW,
  fitWarmUpModel,
  type OutdoorSample,
  type RoomSample,
  type SetpointStep,
} from './engine/warm-up.ts';
import {
  markOptimumUnitsDue,
  roomReadings,
  saveWarmUpModel,
  setpointBefore,
  setpointsBetween,
  storedWarmUpModel,
  unitsToLearn,
} from './warm-up-learning.repository.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** A first run reads this much history. */
const FIRST_RUN_MS = 21 * DAY_MS;
/** Re-read overlap: the longest session the detector accepts (6 h) and a margin. */
const OVERLAP_MS = 7 * HOUR_MS;
/** A unit is learned again at most this often. */
const LEARN_EVERY_MS = HOUR_MS;
/** Comfort starts kept for the hit rate. */
const MORNINGS_MS = 30 * DAY_MS;
/** "Within 0.5 K of comfort at the switch point" (the hit-rate definition). */
const HIT_MARGIN_K = 0.5;
/** A reading this far from a switch point cannot judge it. */
const MORNING_READING_MS = 30 * 60_000;
/** A fall this large between two readings ≤ 20 min apart is taken for an open window. */
const WINDOW_DROP_K = 0.4;
const WINDOW_DROP_WITHIN_MS = 20 * 60_000;
const BATCH = 100;
const PLAN_KINDS = new Set(['regular_plan', 'group_plan']);

/**
 * Learns every due unit (never learned or last learned more than an hour ago) at `now`.
 * @returns how many units were learned.
 */
export async function learnWarmUpModels(db: Db, now: Date = new Date()): Promise<number> {
  const due = await unitsToLearn(db, new Date(now.getTime() - LEARN_EVERY_MS));
  for (let i = 0; i < due.length; i += BATCH) {
    const batch = due.slice(i, i + BATCH);
    // Rooms of one building share its outdoor temperature: read once per batch, from the
    // earliest history any of them reads.
    const earliest = Math.min(...batch.map((u) => historyStart(u, now).getTime()));
    const outdoor = await loadOutdoor(
      db,
      batch.flatMap((u) => (u.buildingId ? [u.buildingId] : [])),
      new Date(earliest - HOUR_MS),
      now,
    );
    for (const unit of batch) await learnUnit(db, unit, now, outdoor);
    // A new model moves the next pre-heat: units of companies that act on it look again at once.
    await markOptimumUnitsDue(
      db,
      batch.map((u) => u.id),
      now,
    );
  }
  return due.length;
}

interface LogEntry {
  at: Date;
  setpoint: number;
  source: string;
}

interface DueUnit {
  id: string;
  companyId: string;
  buildingId: string | null;
  learnedThrough: Date | null;
}

/** Where a unit's history is read from: its last run (less the overlap), or 21 days back. */
const historyStart = (unit: DueUnit, now: Date) =>
  unit.learnedThrough
    ? new Date(unit.learnedThrough.getTime() - OVERLAP_MS)
    : new Date(now.getTime() - FIRST_RUN_MS);

async function learnUnit(
  db: Db,
  unit: DueUnit,
  now: Date,
  outdoorByBuilding: Map<string, OutdoorSample[]>,
): Promise<void> {
  const since = historyStart(unit, now);
  const readings = await roomReadings(db, unit.id, since, now);
  // The step in force when the window opens counts as the first step.
  const before = await setpointBefore(db, unit.id, since);
  const logged = await setpointsBetween(db, unit.id, since, now);
  const entries = before ? [before, ...logged] : logged;
  const steps = setpointSteps(entries);
  const samples = roomSamples(readings);
  // The building's hourly outdoor temperature (decision 0057); none: sessions without it.
  const outdoor = (unit.buildingId && outdoorByBuilding.get(unit.buildingId)) || [];
  const history = { samples, setpoints: steps, outdoor, excluded: [] };
  const stored = await storedWarmUpModel(db, unit.id);
  const known = new Set((stored?.sessions ?? []).map((s) => s.start));
  const sessions: StoredWarmUpSession[] = [
    ...(stored?.sessions ?? []),
    ...detectWarmUpSessions(history)
      .map((s) => ({ ...s, start: new Date(s.start).toISOString() }))
      .filter((s) => !known.has(s.start)),
  ].slice(-FIT_WINDOW);
  // Cool-downs carry no start; only those after the last run's end are new.
  const freshFrom = unit.learnedThrough?.getTime() ?? Number.NEGATIVE_INFINITY;
  const fresh = { ...history, setpoints: steps.filter((s) => s.at >= freshFrom - HOUR_MS) };
  const coolDowns = [...(stored?.coolDowns ?? []), ...detectCoolDowns(fresh)].slice(-FIT_WINDOW);
  const comfortHolds = [...(stored?.comfortHolds ?? []), ...detectComfortHolds(fresh)].slice(-FIT_WINDOW);
  const model = fitWarmUpModel(
    sessions.map((s) => ({ ...s, start: Date.parse(s.start) })),
    coolDowns,
    comfortHolds,
  );
  const mornings = [
    ...(stored?.mornings ?? []),
    ...comfortStarts(entries, samples).filter((m) => Date.parse(m.at) >= freshFrom),
  ].filter((m) => Date.parse(m.at) >= now.getTime() - MORNINGS_MS);
  const values = {
    unitId: unit.id,
    companyId: unit.companyId,
    deadtimeMinutes: model.deadtimeMinutes,
    rateAt0: model.rateAt0,
    ratePerOutdoorK: model.ratePerOutdoorK,
    coolRate: model.coolRate ?? null,
    comfortHoldMinutes: model.comfortHoldMinutes ?? null,
    confidence: model.confidence,
    learned: model.learned,
    sessions,
    coolDowns,
    comfortHolds,
    mornings,
    learnedThrough: now,
    updatedAt: now,
  };
  await saveWarmUpModel(db, values);
}

/**
 * Heating log entries as setpoint steps: an entry that keeps the setpoint (only the source
 * changed, e.g. the plan's switch point after an optimum start) is no step, so it does not cut a
 * warm-up session short.
 */
function setpointSteps(entries: LogEntry[]): SetpointStep[] {
  const steps: SetpointStep[] = [];
  for (const entry of entries) {
    if (steps.at(-1)?.setpoint === entry.setpoint) continue;
    steps.push({ at: entry.at.getTime(), setpoint: entry.setpoint, source: entry.source });
  }
  return steps;
}

/**
 * Readings as samples; a sudden fall (≥ 0.4 K within 20 min) marks an open window, which no
 * device reports itself.
 */
function roomSamples(readings: { at: Date; temperature: number | null }[]): RoomSample[] {
  const samples: RoomSample[] = [];
  for (const reading of readings) {
    if (reading.temperature === null) continue;
    const at = reading.at.getTime();
    const last = samples.at(-1);
    const windowOpen =
      last !== undefined &&
      at - last.at <= WINDOW_DROP_WITHIN_MS &&
      last.temperature - reading.temperature >= WINDOW_DROP_K;
    samples.push(
      windowOpen
        ? { at, temperature: reading.temperature, windowOpen }
        : { at, temperature: reading.temperature },
    );
  }
  return samples;
}

/**
 * The plan's comfort starts among the heating log `entries`: a plan switch point (regular or
 * group plan) ≥ 1 K above the plan entry before it, or one that keeps the setpoint of the
 * optimum start before it. Each is judged by the reading nearest to the switch point.
 */
function comfortStarts(entries: LogEntry[], samples: RoomSample[]): StoredMorning[] {
  const mornings: StoredMorning[] = [];
  for (let i = 1; i < entries.length; i++) {
    const entry = entries[i] as LogEntry;
    const previous = entries[i - 1] as LogEntry;
    // A rise out of frost protection (a new unit, the end of a pause or closure) is no plan morning.
    if (
      !PLAN_KINDS.has(entry.source) ||
      !(PLAN_KINDS.has(previous.source) || previous.source.startsWith('optimum_'))
    )
      continue;
    const rise = entry.setpoint - previous.setpoint >= 1;
    const afterPreheat = previous.source === 'optimum_start' && previous.setpoint === entry.setpoint;
    if (!rise && !afterPreheat) continue;
    const room = nearestReading(samples, entry.at.getTime());
    mornings.push({
      at: entry.at.toISOString(),
      comfort: entry.setpoint,
      room,
      hit: room !== null && room >= entry.setpoint - HIT_MARGIN_K,
    });
  }
  return mornings;
}

function nearestReading(samples: RoomSample[], at: number): number | null {
  let best: RoomSample | null = null;
  for (const sample of samples) {
    if (Math.abs(sample.at - at) > MORNING_READING_MS) continue;
    if (!best || Math.abs(sample.at - at) < Math.abs(best.at - at)) best = sample;
  }
  return best?.temperature ?? null;
}

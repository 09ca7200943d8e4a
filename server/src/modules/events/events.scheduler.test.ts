/**
 * The acceptance path through the real scheduler with a simulated clock: a group-mode event with
 * `preventRegular` on Saturday 08:00–14:00 shows on every unit's 7-day preview, logs
 * `one_time_start` and `one_time_end` on each unit of the group (including a unit that joined
 * the group after the event was created) with one command per device each time, and the plan
 * switch point inside the event is ignored. Also: the later-starting of two overlapping events
 * wins while it runs, and deleting a running event logs its `one_time_end`.
 */
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock, testInstant } from '../../../test/clock.ts';
import { buildTestApp, type TestApp } from '../../../test/helpers.ts';
import { devices } from '../../db/schema.ts';
import { databaseDeviceDirectory } from '../../heating/device-directory.ts';
import { HeatingScheduler } from '../../heating/scheduler.ts';
import type { SetpointCommand } from '../../heating/setpoint-sink.ts';
import { seedCompanies } from '../units/heating-test-fixtures.ts';

const ZONE = 'Europe/Berlin';
const days = [1, 2, 3, 4, 5, 6, 7];
/** Year-round group plan: 21 °C from 07:00, 19 °C from 10:00, 16 °C from 17:30. */
const groupPlan = {
  name: 'Schulbetrieb',
  kind: 'seasonal',
  validFrom: '01-01',
  validTo: '12-31',
  switchPoints: days.flatMap((day) => [
    { day, hour: 7, minute: 0, temperature: 21, ignoreWallControl: false },
    { day, hour: 10, minute: 0, temperature: 19, ignoreWallControl: false },
    { day, hour: 17, minute: 30, temperature: 16, ignoreWallControl: false },
  ]),
};

// A Wednesday morning; app, preview and scheduler read this clock, and the ticks move it.
const clock = testClock(testInstant('2026-12-02T09:00:00+01:00'));

/** The next Saturday (Berlin) whose 08:00 is at least two hours after the clock. */
function nextSaturday(): DateTime {
  const now = clock.now().getTime();
  let day = DateTime.fromMillis(now, { zone: ZONE }).startOf('day');
  while (day.weekday !== 6 || day.set({ hour: 8 }).toMillis() < now + 2 * 3_600_000) {
    day = day.plus({ days: 1 });
  }
  return day;
}

interface LogEntry {
  kind: string;
  at: string;
  newSetpoint: number;
}

describe('events through the scheduler', () => {
  let t: TestApp;
  let c: string;
  let companyId: string;
  const sent: SetpointCommand[] = [];
  let scheduler: HeatingScheduler;
  const call = async (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, payload, headers: await t.as('alice') });
  const logOf = async (unitId: string): Promise<LogEntry[]> =>
    (await call('GET', `${c}/units/${unitId}/log?limit=20`)).json().results;
  const tickAt = async (at: Date) => {
    clock.set(at);
    return scheduler.tick();
  };
  /** Two valves per unit. */
  const addValves = (unitIds: string[], prefix: string) =>
    t.database.db.insert(devices).values(
      unitIds.flatMap((unitId, i) =>
        ['a', 'b'].map((suffix) => {
          const id = `${prefix}${String(i).padStart(5, '0')}${suffix}`;
          return { id, devEui: id, companyId, model: 'test', unitId };
        }),
      ),
    );

  beforeAll(async () => {
    t = await buildTestApp({}, { clock: clock.now });
    ({ companyId } = await seedCompanies(t.database.db));
    c = `/api/companies/${companyId}`;
    scheduler = new HeatingScheduler({
      db: t.database.db,
      sink: { send: async (batch) => void sent.push(...batch) },
      devices: databaseDeviceDirectory(t.database.db),
      logger: { error: () => {} },
      now: clock.now,
    });
  });
  afterAll(() => t.close());

  it('group-mode preventRegular event Saturday 08:00–14:00: preview, log and one command per device', async () => {
    const group = (await call('POST', `${c}/groups`, { name: 'Schule' })).json();
    const created = (
      await call('POST', `${c}/units/bulk`, { pattern: 'Raum {n}', count: 3, groupId: group.id })
    ).json().results;
    const unitIds: string[] = created.map((u: { id: string }) => u.id);
    await addValves(unitIds, '70b3d52dd3');
    expect((await call('POST', `${c}/groups/${group.id}/plans`, groupPlan)).statusCode).toBe(201);

    const saturday = nextSaturday();
    const start = saturday.set({ hour: 8 }).toJSDate();
    const end = saturday.set({ hour: 14 }).toJSDate();
    const event = await call('POST', `${c}/events`, {
      title: 'Workshop',
      start: start.toISOString(),
      end: end.toISOString(),
      temperature: 23,
      preventRegular: true,
      groupMode: true,
      groups: [group.id],
    });
    expect(event.statusCode).toBe(201);
    const eventId = event.json().id;

    // A unit added to the group after the event was created is covered too.
    const late = (await call('POST', `${c}/units`, { name: 'Anbau', groupId: group.id })).json();
    unitIds.push(late.id);
    await addValves([late.id], '70b3d52dd4');

    // Eight days: a Saturday 08:00 less than two hours away makes it the one a week later.
    for (const id of unitIds) {
      const preview = (await call('GET', `${c}/units/${id}/preview?days=8`)).json();
      expect(preview.changes).toContainEqual(
        expect.objectContaining({ at: start.toISOString(), setpoint: 23, source: 'one_time_start', eventId }),
      );
    }

    await tickAt(new Date(start.getTime() - 60_000)); // catch-up before the event; sends queued plan commands
    sent.length = 0;
    await tickAt(start);
    await tickAt(saturday.set({ hour: 10 }).toJSDate()); // switch point inside the event: ignored
    await tickAt(end);

    const atStart = sent.filter((cmd) => cmd.at.getTime() === start.getTime());
    const atEnd = sent.filter((cmd) => cmd.at.getTime() === end.getTime());
    expect(sent).toHaveLength(atStart.length + atEnd.length);
    for (const [batch, reason, setpoint] of [
      [atStart, 'one_time_start', 23],
      [atEnd, 'one_time_end', 19],
    ] as const) {
      expect(batch).toHaveLength(unitIds.length * 2);
      expect(new Set(batch.map((cmd) => cmd.deviceId)).size).toBe(unitIds.length * 2);
      expect(batch.every((cmd) => cmd.reason === reason && cmd.setpoint === setpoint)).toBe(true);
    }
    for (const id of unitIds) {
      const [last, first] = await logOf(id);
      // Both entries name the event, as the heating log shows them.
      expect(first).toMatchObject({
        kind: 'one_time_start',
        at: start.toISOString(),
        newSetpoint: 23,
        event: { title: 'Workshop' },
      });
      expect(last).toMatchObject({
        kind: 'one_time_end',
        at: end.toISOString(),
        newSetpoint: 19,
        event: { title: 'Workshop' },
      });
    }

    // A unit taken out of the group is no longer covered.
    await call('DELETE', `${c}/groups/${group.id}/units/${late.id}`);
    const after = (await call('GET', `${c}/units/${late.id}/preview?days=7`)).json();
    expect(after.changes.some((s: { eventId: string | null }) => s.eventId === eventId)).toBe(false);
  });

  it('overlapping events: the later-starting one wins while it runs, then the earlier one comes back', async () => {
    const unit = (await call('POST', `${c}/units`, { name: 'Saal' })).json();
    const base = nextSaturday();
    const at = (hour: number) => base.set({ hour }).toJSDate();
    const make = (from: number, to: number, temperature: number) =>
      call('POST', `${c}/events`, {
        start: at(from).toISOString(),
        end: at(to).toISOString(),
        temperature,
        preventRegular: true,
        units: [unit.id],
      });
    // Created in reverse order, so start time (not creation order) decides.
    expect((await make(12, 14, 24)).statusCode).toBe(201);
    expect((await make(10, 16, 20)).statusCode).toBe(201);
    const preview = (await call('GET', `${c}/units/${unit.id}/preview?days=8`)).json();
    const steps = preview.changes
      .filter((s: { at: string }) => s.at >= at(10).toISOString() && s.at <= at(16).toISOString())
      .map((s: { at: string; setpoint: number; source: string }) => [s.at, s.setpoint, s.source]);
    expect(steps).toEqual([
      [at(10).toISOString(), 20, 'one_time_start'],
      [at(12).toISOString(), 24, 'one_time_start'],
      [at(14).toISOString(), 20, 'one_time_end'],
      [at(16).toISOString(), 8, 'one_time_end'],
    ]);
  });

  it('deleting a running event logs its end on the next evaluation', async () => {
    const unit = (await call('POST', `${c}/units`, { name: 'Büro' })).json();
    const now = clock.now().getTime();
    const event = (
      await call('POST', `${c}/events`, {
        start: new Date(now - 3_600_000).toISOString(),
        end: new Date(now + 3_600_000).toISOString(),
        temperature: 22,
        units: [unit.id],
      })
    ).json();
    await tickAt(new Date(now));
    expect((await logOf(unit.id))[0]).toMatchObject({ kind: 'one_time_start', newSetpoint: 22 });
    expect((await call('DELETE', `${c}/events/${event.id}`)).statusCode).toBe(204);
    await tickAt(new Date(now + 60_000));
    expect((await logOf(unit.id))[0]).toMatchObject({ kind: 'one_time_end', newSetpoint: 8 });
  });
});

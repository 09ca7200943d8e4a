/**
 * Closures through the real scheduler with a simulated clock (decision 0051): a company-wide
 * closure in frost mode sets every unit's setpoint when it starts (log kind `closure`, one
 * command per device, named in the preview) and the plan's setpoint comes back when it ends,
 * while an exception unit keeps its plan; a group-scoped closure covers a unit moved into the
 * group after it was created; a changed economy setpoint of the company changes a running
 * economy closure's setpoint; a weekly closure of one floor closes that floor's unit on each
 * occurrence (at the same local time a week later) and leaves the other floor's unit alone.
 */
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock, testInstants } from '../../../test/clock.ts';
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
// The suite runs the file again at other instants (vitest.config.ts, `server@instants`).
const instants = testInstants('2026-12-02T09:00:00+01:00');
const clock = testClock(instants[0] as string);

/** The next day (Berlin) whose 12:00 is at least two hours after the clock. */
function nextNoonDay(): DateTime {
  const now = clock.now().getTime();
  let day = DateTime.fromMillis(now, { zone: ZONE }).startOf('day');
  while (day.set({ hour: 12 }).toMillis() < now + 2 * 3_600_000) day = day.plus({ days: 1 });
  return day;
}

interface LogEntry {
  kind: string;
  at: string;
  newSetpoint: number;
}

interface UnitState {
  setpoint: number;
  setpointSource: string;
}

describe.each(instants)('closures through the scheduler, from %s', (start) => {
  beforeAll(() => clock.set(start));
  let t: TestApp;
  const sent: SetpointCommand[] = [];
  let scheduler: HeatingScheduler;
  let valves = 0;
  const call = async (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
    t.app.inject({ method, url, payload, headers: await t.as('alice') });
  const tickAt = async (at: Date) => {
    clock.set(at);
    return scheduler.tick();
  };
  /** One valve per unit. */
  const addValves = (companyId: string, unitIds: string[]) =>
    t.database.db.insert(devices).values(
      unitIds.map((unitId) => {
        const id = `70b3d52dd5${String(valves++).padStart(6, '0')}`;
        return { id, devEui: id, companyId, model: 'test', unitId };
      }),
    );
  /** A fresh company with alice as admin. */
  const company = async () => {
    const { companyId } = await seedCompanies(t.database.db);
    return `/api/companies/${companyId}`;
  };
  const logOf = async (c: string, unitId: string): Promise<LogEntry[]> =>
    (await call('GET', `${c}/units/${unitId}/log?limit=20`)).json().results;
  const unitOf = async (c: string, unitId: string): Promise<UnitState> =>
    (await call('GET', `${c}/units/${unitId}`)).json();

  beforeAll(async () => {
    t = await buildTestApp({}, { clock: clock.now });
    scheduler = new HeatingScheduler({
      db: t.database.db,
      sink: { send: async (batch) => void sent.push(...batch) },
      devices: databaseDeviceDirectory(t.database.db),
      logger: { error: () => {} },
      now: clock.now,
    });
  });
  afterAll(() => t.close());

  it('company-wide frost closure: every unit gets frost protection at the start, the plan returns at the end, an exception keeps its plan', async () => {
    const c = await company();
    const companyId = c.split('/').at(-1) ?? '';
    const group = (await call('POST', `${c}/groups`, { name: 'Schule' })).json();
    const created = (
      await call('POST', `${c}/units/bulk`, { pattern: 'Raum {n}', count: 4, groupId: group.id })
    ).json().results;
    const unitIds: string[] = created.map((u: { id: string }) => u.id);
    await addValves(companyId, unitIds);
    expect((await call('POST', `${c}/groups/${group.id}/plans`, groupPlan)).statusCode).toBe(201);
    const [excepted, ...covered] = unitIds as [string, ...string[]];

    const day = nextNoonDay();
    const start = day.set({ hour: 12 }).toJSDate();
    const end = day.set({ hour: 14 }).toJSDate();
    const closure = await call('POST', `${c}/closures`, {
      name: 'Betriebsurlaub',
      start: start.toISOString(),
      end: end.toISOString(),
      mode: 'frost',
      exceptions: [excepted],
    });
    expect(closure.statusCode).toBe(201);
    const closureId = closure.json().id;

    // The preview shows the closure on covered units, named with its mode; not on the exception.
    const preview = (await call('GET', `${c}/units/${covered[0]}/preview?days=3`)).json();
    expect(preview.changes).toContainEqual(
      expect.objectContaining({ at: start.toISOString(), setpoint: 8, source: 'closure', closureId }),
    );
    expect(preview.changes).toContainEqual(
      expect.objectContaining({ at: end.toISOString(), setpoint: 19, source: 'group_plan', closureId: null }),
    );
    expect(preview.closures).toEqual([
      { id: closureId, name: 'Betriebsurlaub', mode: 'frost', kind: 'closure' },
    ]);
    const exceptionPreview = (await call('GET', `${c}/units/${excepted}/preview?days=3`)).json();
    expect(exceptionPreview.changes.some((s: { source: string }) => s.source === 'closure')).toBe(false);
    expect(exceptionPreview.closures).toEqual([]);

    await tickAt(new Date(start.getTime() - 60_000)); // catch-up before the closure
    sent.length = 0;
    await tickAt(start);
    expect(sent.map((cmd) => cmd.unitId).sort()).toEqual([...covered].sort());
    expect(sent.every((cmd) => cmd.reason === 'closure' && cmd.setpoint === 8 && cmd.ignoreWallControl)).toBe(
      true,
    );
    // While the closure holds a unit a manual change would have no effect: it is refused.
    const manual = await call('POST', `${c}/units/${covered[0]}/setpoint`, { setpoint: 22 });
    expect(manual.statusCode).toBe(409);
    expect(manual.json()).toMatchObject({ code: 'unit_closed' });
    sent.length = 0;
    await tickAt(end);
    expect(sent.map((cmd) => cmd.unitId).sort()).toEqual([...covered].sort());
    expect(sent.every((cmd) => cmd.reason === 'group_plan' && cmd.setpoint === 19)).toBe(true);

    for (const id of covered) {
      const [last, first] = await logOf(c, id);
      expect(first).toMatchObject({ kind: 'closure', at: start.toISOString(), newSetpoint: 8 });
      expect(last).toMatchObject({ kind: 'group_plan', at: end.toISOString(), newSetpoint: 19 });
    }
    const exceptionLog = await logOf(c, excepted);
    expect(exceptionLog.some((e) => e.kind === 'closure')).toBe(false);
    expect(exceptionLog.some((e) => e.at === start.toISOString() || e.at === end.toISOString())).toBe(false);
    expect(await unitOf(c, excepted)).toMatchObject({ setpoint: 19, setpointSource: 'group_plan' });
  });

  it('group-scoped closure covers a unit moved into the group after it was created', async () => {
    const c = await company();
    const companyId = c.split('/').at(-1) ?? '';
    const group = (await call('POST', `${c}/groups`, { name: 'Turnhalle' })).json();
    const day = nextNoonDay().plus({ days: 1 });
    const start = day.set({ hour: 12 }).toJSDate();
    const end = day.set({ hour: 18 }).toJSDate();
    const closure = await call('POST', `${c}/closures`, {
      name: 'Hallenreinigung',
      start: start.toISOString(),
      end: end.toISOString(),
      mode: 'economy',
      scope: 'groups',
      groups: [group.id],
    });
    expect(closure.statusCode).toBe(201);

    const moved = (await call('POST', `${c}/units`, { name: 'Geräteraum' })).json();
    const outside = (await call('POST', `${c}/units`, { name: 'Büro' })).json();
    await addValves(companyId, [moved.id, outside.id]);
    expect((await call('POST', `${c}/groups/${group.id}/units`, { unitIds: [moved.id] })).statusCode).toBe(
      200,
    );

    await tickAt(new Date(start.getTime() - 60_000));
    sent.length = 0;
    await tickAt(start);
    expect(sent.map((cmd) => [cmd.unitId, cmd.reason, cmd.setpoint])).toEqual([[moved.id, 'closure', 16]]);
    expect((await logOf(c, moved.id))[0]).toMatchObject({
      kind: 'closure',
      at: start.toISOString(),
      newSetpoint: 16,
    });
    expect(await unitOf(c, outside.id)).toMatchObject({ setpoint: 8, setpointSource: 'no_plan' });
    await tickAt(end);
    expect(await unitOf(c, moved.id)).toMatchObject({ setpoint: 8, setpointSource: 'no_plan' });
  });

  it('a changed economy setpoint of the company changes a running economy closure at once', async () => {
    const c = await company();
    const companyId = c.split('/').at(-1) ?? '';
    const unit = (await call('POST', `${c}/units`, { name: 'Lager' })).json();
    await addValves(companyId, [unit.id]);
    const now = clock.now().getTime();
    const closure = await call('POST', `${c}/closures`, {
      name: 'Inventur',
      start: new Date(now - 3_600_000).toISOString(),
      end: new Date(now + 3_600_000).toISOString(),
      mode: 'economy',
      scope: 'units',
      units: [unit.id],
    });
    expect(closure.json().status).toBe('running');
    await tickAt(new Date(now));
    expect(await unitOf(c, unit.id)).toMatchObject({ setpoint: 16, setpointSource: 'closure' });

    const patched = await call('PATCH', `${c}/`, { economy_temperature: 14 });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({ economy_temperature: 14, standby_temperature: 18 });
    sent.length = 0;
    await tickAt(new Date(now + 60_000));
    expect(sent.map((cmd) => [cmd.unitId, cmd.reason, cmd.setpoint])).toEqual([[unit.id, 'closure', 14]]);
    expect((await logOf(c, unit.id))[0]).toMatchObject({ kind: 'closure', newSetpoint: 14 });
    expect(await unitOf(c, unit.id)).toMatchObject({ setpoint: 14, setpointSource: 'closure' });
  });

  it('a weekly closure of one floor closes that floor on every occurrence, and only that floor', async () => {
    const c = await company();
    const companyId = c.split('/').at(-1) ?? '';
    const building = (
      await call('POST', `${c}/buildings`, { name: 'Schulhaus', state: 'BY', floors: ['EG', '1. OG'] })
    ).json();
    const group = (await call('POST', `${c}/groups`, { name: 'Schule' })).json();
    expect((await call('POST', `${c}/groups/${group.id}/plans`, groupPlan)).statusCode).toBe(201);
    const unit = async (name: string, floor: string) =>
      (await call('POST', `${c}/units`, { name, groupId: group.id, buildingId: building.id, floor })).json()
        .id as string;
    const ground = await unit('Aula', 'EG');
    const upper = await unit('Bibliothek', '1. OG');
    await addValves(companyId, [ground, upper]);

    const day = nextNoonDay();
    const start = day.set({ hour: 12 });
    const closure = await call('POST', `${c}/closures`, {
      name: 'Reinigung Erdgeschoss',
      start: start.toJSDate().toISOString(),
      end: start.set({ hour: 14 }).toJSDate().toISOString(),
      recurrence: 'FREQ=WEEKLY;COUNT=3',
      scope: 'buildings',
      buildings: [{ buildingId: building.id, floor: 'EG' }],
    });
    expect(closure.statusCode, closure.body).toBe(201);
    const closureId = closure.json().id;
    // The next week's occurrence at the same local time (also across a change of the clocks).
    const week = (d: DateTime) => d.plus({ weeks: 1 }).toJSDate();
    const second = { start: week(start), end: week(start.set({ hour: 14 })) };

    const preview = (await call('GET', `${c}/units/${ground}/preview?days=14`)).json();
    const closed = preview.changes.filter((s: { source: string }) => s.source === 'closure');
    expect(closed.map((s: { at: string }) => s.at)).toEqual([
      start.toJSDate().toISOString(),
      second.start.toISOString(),
    ]);
    expect(
      closed.every(
        (s: { closureId: string; setpoint: number }) => s.closureId === closureId && s.setpoint === 8,
      ),
    ).toBe(true);
    expect(preview.closures).toEqual([
      { id: closureId, name: 'Reinigung Erdgeschoss', mode: 'frost', kind: 'closure' },
    ]);
    const upperPreview = (await call('GET', `${c}/units/${upper}/preview?days=14`)).json();
    expect(upperPreview.changes.some((s: { source: string }) => s.source === 'closure')).toBe(false);

    await tickAt(new Date(second.start.getTime() - 60_000));
    sent.length = 0;
    await tickAt(second.start);
    expect(sent.map((cmd) => [cmd.unitId, cmd.reason, cmd.setpoint])).toEqual([[ground, 'closure', 8]]);
    expect(await unitOf(c, upper)).toMatchObject({ setpoint: 19, setpointSource: 'group_plan' });
    sent.length = 0;
    await tickAt(second.end);
    expect(sent.map((cmd) => [cmd.unitId, cmd.reason, cmd.setpoint])).toEqual([[ground, 'group_plan', 19]]);
    expect((await logOf(c, ground)).slice(0, 2)).toMatchObject([
      { kind: 'group_plan', at: second.end.toISOString(), newSetpoint: 19 },
      { kind: 'closure', at: second.start.toISOString(), newSetpoint: 8 },
    ]);
  });
});

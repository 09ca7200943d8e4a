import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers.ts';
import type { Database } from '../db/client.ts';
import { devices } from '../db/schema.ts';
import { databaseDeviceDirectory } from '../heating/device-directory.ts';
import { HeatingScheduler } from '../heating/scheduler.ts';
import type { SetpointCommand } from '../heating/setpoint-sink.ts';
import { seedCompanies } from '../modules/units/heating-test-fixtures.ts';
import { secondConnection } from './second-connection.test-helper.ts';

const days = [1, 2, 3, 4, 5, 6, 7];
/** Year-round group plan, so the test does not depend on the season it runs in. */
const groupPlan = {
  name: 'Schulbetrieb',
  kind: 'seasonal',
  validFrom: '01-01',
  validTo: '12-31',
  switchPoints: days.flatMap((day) => [
    { day, hour: 7, minute: 0, temperature: 21, ignoreWallControl: false },
    { day, hour: 17, minute: 30, temperature: 16, ignoreWallControl: false },
  ]),
};

describe('heating journey (done-when)', () => {
  let t: TestApp;
  let c: string;
  let companyId: string;
  beforeAll(async () => {
    t = await buildTestApp();
    ({ companyId } = await seedCompanies(t.database.db));
    c = `/api/companies/${companyId}`;
  });
  afterAll(() => t.close());

  it('20 units, a group plan, the preview, and exactly one log entry and command per device at the switch point', async () => {
    const headers = await t.as('alice');
    const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
      t.app.inject({ method, url, payload, headers });

    const group = (await call('POST', `${c}/groups`, { name: 'Schule' })).json();
    const created = await call('POST', `${c}/units/bulk`, {
      pattern: 'Raum {n}',
      count: 20,
      groupId: group.id,
    });
    expect(created.statusCode).toBe(201);
    const unitIds: string[] = created.json().results.map((u: { id: string }) => u.id);
    // Two valves in every room.
    await t.database.db.insert(devices).values(
      unitIds.flatMap((unitId, i) =>
        ['a', 'b'].map((suffix, j) => {
          const id = `70b3d52dd3${String(i * 2 + j).padStart(5, '0')}${suffix}`;
          return { id, devEui: id, companyId, model: 'test', unitId };
        }),
      ),
    );
    expect((await call('POST', `${c}/groups/${group.id}/plans`, groupPlan)).statusCode).toBe(201);

    const preview = (await call('GET', `${c}/units/${unitIds[0]}/preview?days=7`)).json();
    expect(preview.changes).toHaveLength(14);
    expect(preview.changes.every((s: { source: string }) => s.source === 'group_plan')).toBe(true);

    const unit = (await call('GET', `${c}/units/${unitIds[0]}`)).json();
    expect(unit.setpointSource).toBe('group_plan');
    const switchPoint = new Date(unit.nextChangeAt);
    expect(switchPoint.toISOString()).toBe(preview.changes[0].at);

    const other = await secondConnection(t.database);
    const sent: SetpointCommand[] = [];
    const sink = { send: async (batch: SetpointCommand[]) => void sent.push(...batch) };
    const instance = (database: Database) =>
      new HeatingScheduler({
        db: database.db,
        sink,
        devices: databaseDeviceDirectory(database.db),
        logger: { error: () => {} },
        now: () => switchPoint,
        batchSize: 3,
      });
    try {
      // The commands queued when the plan was saved go out first, then the switch point fires.
      await Promise.all([instance(t.database).tick(), instance(other).tick()]);
    } finally {
      if (other !== t.database) await other.close();
    }
    const atSwitch = sent.filter((cmd) => cmd.at.getTime() === switchPoint.getTime());
    expect(atSwitch).toHaveLength(40);
    expect(new Set(atSwitch.map((cmd) => cmd.deviceId)).size).toBe(40);
    expect(
      atSwitch.every((cmd) => cmd.reason === 'group_plan' && cmd.setpoint === preview.changes[0].setpoint),
    ).toBe(true);

    for (const id of unitIds) {
      const log = (await call('GET', `${c}/units/${id}/log?limit=2`)).json().results;
      expect(log[0]).toMatchObject({ kind: 'group_plan', at: switchPoint.toISOString(), actor: null });
      expect(log[0].newSetpoint).toBe(preview.changes[0].setpoint);
      expect(log[1].at).not.toBe(switchPoint.toISOString());
    }
  });
});

import { isDeepStrictEqual } from 'node:util';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '../../server/src/db/client.ts';
import { alertSettings, alerts } from '../../server/src/db/schema/alerts.ts';
import { deviceProfileAssignments, deviceProfiles } from '../../server/src/db/schema/device-profiles.ts';
import { devices, gateways } from '../../server/src/db/schema/devices.ts';
import { units } from '../../server/src/db/schema/heating.ts';
import { downlinks, telemetry } from '../../server/src/db/schema/telemetry.ts';
import { chirpstackFormat } from '../../server/src/lorawan/chirpstack.ts';
import type { ModelId } from '../../server/src/lorawan/codecs/codec.ts';
import { DownlinkQueue } from '../../server/src/lorawan/downlink-queue.ts';
import { type EmbeddedBroker, startEmbeddedBroker } from '../../server/src/lorawan/embedded-broker.ts';
import { UplinkIngest } from '../../server/src/lorawan/ingest.ts';
import { type LorawanAdapter, startLorawanAdapter } from '../../server/src/lorawan/mqtt-adapter.ts';
import { telemetryStore } from '../../server/src/lorawan/telemetry.repository.ts';
import { APPLICATION_ID, eventually, seedValves } from '../../server/src/lorawan/test-fixture.ts';
import { type UplinkAlerts, uplinkAlerts } from '../../server/src/modules/alerts/alert-ingest.ts';
import { createTestDatabase } from '../../server/test/helpers.ts';
import { type Simulator, startSimulator } from './simulator.ts';

const GATEWAY = 'b827ebfffe6c2a11';
const MODELS: ModelId[] = ['mclimate-vicki', 'milesight-wt101', 'micropelt-mlr003', 'elsys-ers'];

describe('simulator against Heizplan over the embedded broker', () => {
  let database: Database;
  let broker: EmbeddedBroker;
  let adapter: LorawanAdapter;
  let ingest: UplinkIngest;
  let queue: DownlinkQueue;
  let simulator: Simulator;
  let alertsOnUplinks: UplinkAlerts;
  let seeded: Awaited<ReturnType<typeof seedValves>>;
  const log = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };

  beforeAll(async () => {
    database = await createTestDatabase();
    broker = await startEmbeddedBroker({ port: 0 });
    seeded = await seedValves(database.db, MODELS.length);
    for (const [i, model] of MODELS.entries()) {
      await database.db
        .update(devices)
        .set({ model })
        .where(eq(devices.id, seeded.devEuis[i] as string));
    }
    await database.db
      .insert(gateways)
      .values({ companyId: seeded.companyId, gatewayEui: GATEWAY, name: 'Keller' });
    const format = chirpstackFormat({ applicationId: APPLICATION_ID });
    alertsOnUplinks = uplinkAlerts(database.db, log);
    ingest = new UplinkIngest({
      format,
      store: telemetryStore(database.db),
      log,
      onCommitted: (uplinks) => alertsOnUplinks.push(uplinks),
    });
    adapter = startLorawanAdapter({ url: broker.url, format, ingest, log, clientId: 'heizplan-sim-test' });
    await adapter.ready;
    queue = new DownlinkQueue({ db: database.db, log, publish: (r) => adapter.publish(format.downlink(r)) });
    simulator = await startSimulator({
      url: broker.url,
      applicationId: APPLICATION_ID,
      gateways: [GATEWAY],
      devices: seeded.devEuis.map((devEui, i) => ({ devEui, model: MODELS[i] as ModelId })),
      start: new Date('2026-11-22T05:00:00Z'),
    });
  });

  afterAll(async () => {
    await simulator.close();
    queue.close();
    await adapter.close();
    await broker.close();
    await database.close();
  });

  it('reports every model in its vendor layout, decoded into telemetry, and marks the gateway seen', async () => {
    await simulator.gatewayStats();
    await simulator.tick(0.25);
    await eventually('one row per device', () => ingest.metrics.received >= MODELS.length + 2);
    await ingest.drain();
    expect(ingest.metrics).toMatchObject({ malformed: 0, undecodable: 0, unknownDevice: 0 });
    const rows = await database.db.select().from(telemetry).where(eq(telemetry.companyId, seeded.companyId));
    expect(rows.map((r) => r.deviceId).sort()).toEqual([...seeded.devEuis].sort());
    for (const row of rows) expect(row.roomTemperature).toBeGreaterThan(10);
    const [gateway] = await database.db.select().from(gateways).where(eq(gateways.gatewayEui, GATEWAY));
    // Stats carry simulated time; the retained ONLINE state is stamped on arrival (real time).
    expect(gateway?.lastSeen?.getTime()).toBeGreaterThanOrEqual(Date.parse('2026-11-22T05:00:00Z'));
  });

  it('takes a setpoint downlink at its next uplink, acknowledges it, and then reports and heads for it', async () => {
    const vicki = seeded.devEuis[0] as string;
    await queue.send([
      {
        companyId: seeded.companyId,
        unitId: seeded.unitIds[0] as string,
        deviceId: vicki,
        setpoint: 23,
        ignoreWallControl: false,
        reason: 'web_change',
        at: simulator.now,
      },
    ]);
    await queue.idle();
    await eventually('the downlink at the simulated network server', async () => {
      await simulator.tick(0.25);
      return simulator.rooms().get(vicki)?.setpoint === 23;
    });
    await simulator.tick(2);
    await eventually('acknowledged', async () => {
      const [row] = await database.db.select().from(downlinks).where(eq(downlinks.deviceId, vicki));
      return row?.state === 'acknowledged';
    });
    await eventually('the new setpoint reported', async () => {
      const reported = await database.db
        .select()
        .from(telemetry)
        .where(and(eq(telemetry.deviceId, vicki), eq(telemetry.setpointReported, 23)));
      return reported.length > 0;
    });
    expect(simulator.rooms().get(vicki)?.roomTemperature).toBeGreaterThan(20);
  });

  it("learns the valve's firmware, sets its own frost protection once, then sends setpoints alone", async () => {
    const vicki = seeded.devEuis[0] as string;
    const setpointTo = async (setpoint: number) => {
      await queue.send([
        {
          companyId: seeded.companyId,
          unitId: seeded.unitIds[0] as string,
          deviceId: vicki,
          setpoint,
          ignoreWallControl: false,
          reason: 'web_change',
          at: simulator.now,
        },
      ]);
      await queue.idle();
      const [row] = await database.db
        .select()
        .from(downlinks)
        .where(and(eq(downlinks.deviceId, vicki), eq(downlinks.setpoint, setpoint)));
      await eventually(`${setpoint} °C taken and answered`, async () => {
        await simulator.tick(0.25);
        await ingest.drain();
        const [state] = await database.db
          .select()
          .from(downlinks)
          .where(eq(downlinks.id, row?.id ?? ''));
        return state?.state === 'acknowledged';
      });
      return row?.payload;
    };
    const device = async () => (await database.db.select().from(devices).where(eq(devices.id, vicki)))[0];
    // The earlier setpoint already asked for the firmware; the simulated Vicki runs 4.3.
    await eventually('the firmware known', async () => {
      await simulator.tick(0.25);
      await ingest.drain();
      return (await device())?.firmware === '4.3';
    });
    // Company frost protection 8 °C: on below 7 °C, off above 10 °C, then read back (4A).
    expect(await setpointTo(19)).toBe('0e13494664084a');
    // The answer comes with an uplink after the one that took the downlink.
    // Each round trip is a tick, an ingest and a query: on a loaded two-core CI machine twenty
    // of them can take longer than the default 20 s.
    await eventually(
      'the frost protection reported',
      async () => {
        await simulator.tick(0.25);
        await ingest.drain();
        return (await device())?.antiFreeze?.target === 8;
      },
      60_000,
    );
    expect((await device())?.antiFreeze).toEqual({ activation: 7, deactivation: 10, target: 8 });
    expect(await setpointTo(21)).toBe('0e15');
  }, 120_000);

  it('injects faults that open alerts — flags, a reported window, a low battery, silence — and clears them again', async () => {
    const [vicki, milesight, micropelt] = seeded.devEuis as [string, string, string];
    // Resolve at once when a cause is gone, so the test need not wait the default 10 minutes.
    await database.db
      .insert(alertSettings)
      .values({ companyId: seeded.companyId, settings: { clearMinutes: 0 } })
      .onConflictDoUpdate({ target: alertSettings.companyId, set: { settings: { clearMinutes: 0 } } });
    // Simulated time lies in the past, so every device also counts as offline; left out here.
    const open = async () =>
      (
        await database.db
          .select()
          .from(alerts)
          .where(and(eq(alerts.companyId, seeded.companyId), eq(alerts.state, 'open')))
      )
        .filter((a) => a.kind !== 'device_offline')
        .map((a) => `${a.kind}:${a.subjectId}:${a.code}`)
        .sort();
    const settle = async () => {
      await ingest.drain();
      await alertsOnUplinks.idle();
    };

    // Wait for the alerts themselves, not for an uplink count: uplinks of the previous test's
    // last tick may still be on their way and would satisfy a count before the faulty ones.
    const opened = [
      `device_fault:${milesight}:calibrationFailed`,
      `low_battery:${milesight}:`,
      `open_window:${vicki}:`,
    ].sort();
    simulator.inject(vicki, { openWindow: true });
    simulator.inject(milesight, { errors: ['calibrationFailed'], battery: { value: 12, perDay: 96 } });
    const before = ingest.metrics.received;
    await simulator.tick(0.25);
    await eventually('the faulty uplinks', () => ingest.metrics.received >= before + MODELS.length);
    await eventually('the alerts opened', async () => {
      await settle();
      return isDeepStrictEqual(await open(), opened);
    });
    expect(await open()).toEqual(opened);
    // The battery drains with simulated time: 96 % a day is 1 % in the quarter hour before the uplink.
    const [device] = await database.db.select().from(devices).where(eq(devices.id, milesight));
    expect(device?.battery).toBe(11);

    simulator.inject(vicki, { openWindow: false });
    simulator.inject(micropelt, { silent: true });
    simulator.inject(milesight, { errors: [], battery: undefined });
    const quiet = await database.db.select().from(telemetry).where(eq(telemetry.deviceId, micropelt));
    const received = ingest.metrics.received;
    await simulator.tick(0.25);
    await eventually('the healthy uplinks', () => ingest.metrics.received >= received + MODELS.length - 1);
    await eventually('the alerts resolved', async () => {
      await settle();
      return (await open()).length === 0;
    });
    expect(await open()).toEqual([]);
    expect(await database.db.select().from(telemetry).where(eq(telemetry.deviceId, micropelt))).toHaveLength(
      quiet.length,
    );
    simulator.inject(micropelt, { silent: false });

    // A cold radiator: the valve opens wide for the setpoint, yet the room cools.
    simulator.inject(vicki, { noHeat: true });
    const room = simulator.rooms().get(vicki) as { roomTemperature: number; setpoint: number };
    await simulator.tick(1);
    const after = simulator.rooms().get(vicki) as { roomTemperature: number; valveOpening: number };
    expect(after.roomTemperature).toBeLessThan(room.roomTemperature);
    expect(after.valveOpening).toBeGreaterThan(0);
    simulator.inject(vicki, { noHeat: false });
  });

  it("brings the valve's configuration to its company's device profile, setpoint first, then stops", async () => {
    const vicki = seeded.devEuis[0] as string;
    const desired = {
      keepAliveMinutes: 15,
      openWindow: { enabled: true, durationMinutes: 30, deltaK: 1.5 },
      childLock: true,
      childLockKeptOffline: true,
      temperatureRange: { min: 16, max: 26 },
      temperatureOffset: 0.528,
    };
    const [profile] = await database.db
      .insert(deviceProfiles)
      .values({ companyId: seeded.companyId, name: 'Schule', model: 'mclimate-vicki', config: desired })
      .returning();
    await database.db
      .insert(deviceProfileAssignments)
      .values({ companyId: seeded.companyId, profileId: profile?.id ?? '', model: 'mclimate-vicki' });
    // The unit's setpoint in force, which configuration rides behind.
    await database.db
      .update(units)
      .set({ setpoint: 21, setpointSince: simulator.now, setpointSource: 'plan' })
      .where(eq(units.id, seeded.unitIds[0] as string));
    const reported = async () =>
      (await database.db.select().from(devices).where(eq(devices.id, vicki)))[0]?.reportedConfig;
    await eventually(
      'the profile reported back',
      async () => {
        await queue.reconcileDevices([vicki]);
        await queue.idle();
        await simulator.tick(0.25);
        await ingest.drain();
        const now = await reported();
        return isDeepStrictEqual(now, { ...now, ...desired });
      },
      60_000,
    );
    const sent = await database.db.select().from(downlinks).where(eq(downlinks.deviceId, vicki));
    const carrying = sent.filter((d) => d.payload.includes('0701'));
    expect(carrying.length).toBeGreaterThan(0);
    // The setpoint comes first in every downlink that carries configuration.
    for (const d of carrying) expect(d.payload.slice(0, 2)).toMatch(/^(0e|51)$/);
    expect(await queue.reconcileDevices([vicki])).toBe(0);
    // A one-off recalibration rides behind the setpoint once, when the last downlink is settled.
    await eventually('the last downlink acknowledged', async () => {
      await ingest.drain();
      const rows = await database.db.select().from(downlinks).where(eq(downlinks.deviceId, vicki));
      return rows.every((d) => d.state === 'acknowledged' || d.state === 'superseded');
    });
    await database.db
      .update(devices)
      // Only whether a recalibration is requested counts, not when: a stated instant.
      .set({ recalibrateRequestedAt: new Date('2026-11-23T05:00:00Z') })
      .where(eq(devices.id, vicki));
    expect(await queue.reconcileDevices([vicki])).toBe(1);
    await queue.idle();
    await eventually('the recalibration taken', async () => {
      await simulator.tick(0.25);
      await ingest.drain();
      return simulator.recalibrations().get(vicki) === 1;
    });
    expect(
      (await database.db.select().from(devices).where(eq(devices.id, vicki)))[0]?.recalibrateRequestedAt,
    ).toBeNull();
    expect(await queue.reconcileDevices([vicki])).toBe(0);
  }, 120_000);
});

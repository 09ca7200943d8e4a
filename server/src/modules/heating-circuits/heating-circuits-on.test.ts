/**
 * A heating circuit in mode `on` acting on a real Modbus TCP peer (`ServerTCP` of modbus-serial in
 * the test process, on a free loopback port): each 5-minute step writes the registers when the
 * command changed or the 15-minute watchdog is due, every write is recorded and readable, a
 * refused connection opens the `generator_write_failed` alert and the next good write clears it,
 * and a change by hand at the generator is recorded and left alone for an hour (decision 0077).
 */
import { once } from 'node:events';
import { eq } from 'drizzle-orm';
import { ServerTCP } from 'modbus-serial';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { testClock } from '../../../test/clock.ts';
import { buildTestApp, type TestApp } from '../../../test/helpers.ts';
import { buildingOutdoorTemperatures, units } from '../../db/schema.ts';
import { freePort } from '../../free-port.ts';
import { startEmbeddedBroker } from '../../lorawan/embedded-broker.ts';
import { evaluateAll } from '../alerts/alert-evaluation.repository.ts';
import { seedRegistry } from '../devices/registry-test-fixtures.ts';
import { CIRCUIT_STEP_MS } from './heating-circuits.service.ts';

const clock = testClock('2027-01-12T05:00:00Z');

/**
 * A generator's Modbus interface; `held` coils keep their value whatever is written (its panel);
 * `silent` leaves every write unanswered (a gateway that hangs).
 */
async function startGenerator({ silent = false } = {}) {
  const port = await freePort();
  const holding = new Map<number, number>();
  const coils = new Map<number, boolean>();
  const held = new Set<number>();
  const writes: Array<{ fc: 5 | 6; address: number; value: number | boolean; unit: number }> = [];
  const server = new ServerTCP(
    {
      getHoldingRegister: (address: number) => holding.get(address) ?? 0,
      getCoil: (address: number) => coils.get(address) ?? false,
      setRegister: (address: number, value: number, unit: number) => {
        writes.push({ fc: 6, address, value, unit });
        if (silent) return new Promise<void>(() => {});
        holding.set(address, value);
      },
      setCoil: (address: number, value: boolean, unit: number) => {
        writes.push({ fc: 5, address, value, unit });
        if (silent) return new Promise<void>(() => {});
        if (!held.has(address)) coils.set(address, value);
      },
    },
    { host: '127.0.0.1', port },
  );
  await once(server, 'initialized');
  return { port, coils, held, writes, server };
}

describe('a heating circuit in mode on with a Modbus TCP output', () => {
  let t: TestApp;
  let base: string;
  let companyId: string;
  let buildingId: string;
  let generator: Awaited<ReturnType<typeof startGenerator>>;
  let deadPort: number;

  const modbus = (port: number) => ({
    kind: 'modbus',
    host: '127.0.0.1',
    port,
    unitId: 3,
    setpoint: { register: 100, scale: 10, readBack: true },
    enable: { kind: 'coil', coil: 5, readBack: true },
    timeoutMs: 1000,
  });
  const step = async () => {
    clock.advance(CIRCUIT_STEP_MS);
    return t.services.heatingCircuits.stepDue();
  };
  const writesOf = async (id: string) => (await t.call('GET', `${base}/${id}/writes?limit=50`)).json().writes;
  const alertsOf = async () =>
    (await t.call('GET', `/api/companies/${companyId}/alerts?kind=generator_write_failed`)).json().results;

  beforeAll(async () => {
    t = await buildTestApp({}, { clock: clock.now });
    const f = await seedRegistry(t.database.db);
    companyId = f.companyId;
    base = `/api/companies/${companyId}/heating-circuits`;
    buildingId = (
      await t.call('POST', `/api/companies/${companyId}/buildings`, { name: 'Gymnasium', state: 'BY' })
    ).json().id;
    await t.database.db.insert(units).values([
      // Both rooms draw heat and sit at their setpoint: the generator runs, no room asks for more.
      { companyId, name: 'Raum 101', buildingId, setpoint: 21, roomTemperature: 21, valveOpening: 40 },
      { companyId, name: 'Raum 102', buildingId, setpoint: 21, roomTemperature: 21.1, valveOpening: 30 },
    ]);
    await t.database.db.insert(buildingOutdoorTemperatures).values({
      companyId,
      buildingId,
      at: new Date('2027-01-12T05:00:00Z'),
      temperature: -4,
      kind: 'observed',
      provider: 'test',
    });
    generator = await startGenerator();
    deadPort = await freePort();
  });
  afterAll(async () => {
    await t.services.heatingCircuits.close();
    await new Promise<void>((resolve) => generator.server.close(() => resolve()));
    await t.close();
  });

  it('refuses mode on without an output (body.mode), and with a relay that is not a device of the company (body.output.devEui)', async () => {
    const bare = await t.call('POST', base, {
      name: 'Ohne Ausgang',
      buildingId,
      generatorType: 'gas_boiler',
      mode: 'on',
    });
    expect(bare.statusCode).toBe(400);
    expect(bare.json().errors).toEqual([
      expect.objectContaining({ field: 'body.mode', code: 'circuit_on_without_output' }),
    ]);
    const relay = await t.call('POST', base, {
      name: 'Relais',
      buildingId,
      generatorType: 'gas_boiler',
      output: { kind: 'lora_relay', devEui: 'a84041000181c061' },
    });
    expect(relay.statusCode).toBe(201);
    const on = await t.call('PATCH', `${base}/${relay.json().id}`, { mode: 'on' });
    expect(on.statusCode).toBe(400);
    expect(on.json().errors).toEqual([
      expect.objectContaining({ field: 'body.output.devEui', code: 'circuit_relay_not_a_device' }),
    ]);
    await t.call('DELETE', `${base}/${relay.json().id}`);
  });

  it('refuses to take the output from a circuit in mode on, naming body.output', async () => {
    const created = await t.call('POST', base, {
      name: 'Heizkreis Werkstatt',
      buildingId,
      generatorType: 'gas_boiler',
      mode: 'on',
      output: modbus(deadPort),
    });
    expect(created.statusCode).toBe(201);
    const taken = await t.call('PATCH', `${base}/${created.json().id}`, { output: null });
    expect(taken.statusCode).toBe(400);
    expect(taken.json().errors).toEqual([
      expect.objectContaining({ field: 'body.output', code: 'circuit_on_without_output' }),
    ]);
    // Off and without an output in one PATCH is fine.
    const off = await t.call('PATCH', `${base}/${created.json().id}`, { mode: 'off', output: null });
    expect(off.json()).toMatchObject({ mode: 'off', output: null });
    await t.call('DELETE', `${base}/${created.json().id}`);
  });

  it('writes the command when it changed or every 15 minutes, records each write, alerts on a refused connection until a write succeeds, and leaves a change by hand alone for an hour', async () => {
    const created = await t.call('POST', base, {
      name: 'Heizkreis Halle',
      buildingId,
      generatorType: 'condensing_boiler',
      // A narrow band keeps the command still once trimmed: start at 45 °C, then 44 °C.
      minSupply: 44,
      maxSupply: 45,
      mode: 'on',
      output: modbus(generator.port),
      unitIds: (
        await t.database.db.select({ id: units.id }).from(units).where(eq(units.buildingId, buildingId))
      ).map((row) => row.id),
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().id;

    // The first step writes 45.0 °C as 450, then the enable coil, to unit 3.
    expect(await t.services.heatingCircuits.stepDue()).toBe(1);
    expect(generator.writes).toEqual([
      { fc: 6, address: 100, value: 450, unit: 3 },
      { fc: 5, address: 5, value: true, unit: 3 },
    ]);
    let writes = await writesOf(id);
    expect(writes).toEqual([
      expect.objectContaining({
        at: '2027-01-12T05:00:00.000Z',
        enabled: true,
        supplySetpoint: 45,
        ok: true,
        readBackEnabled: true,
        readBackSetpoint: 45,
        override: false,
      }),
    ]);
    expect(writes[0].detail).toContain('setpoint 45 °C as 450 → register 100');
    expect((await t.call('GET', `${base}/${id}`)).json().lastWrite).toEqual(writes[0]);

    // 05:05, held after the start: the same command, not written again.
    await step();
    expect(generator.writes).toHaveLength(2);
    // 05:10, trimmed to 44 °C: changed, written.
    await step();
    expect(generator.writes.slice(2)).toEqual([
      { fc: 6, address: 100, value: 440, unit: 3 },
      { fc: 5, address: 5, value: true, unit: 3 },
    ]);
    // 05:15 and 05:20 unchanged; 05:25 is 15 minutes after the last write: the watchdog's.
    await step();
    await step();
    expect(generator.writes).toHaveLength(4);
    await step();
    expect(generator.writes).toHaveLength(6);
    writes = await writesOf(id);
    expect(
      writes.map((w: { at: string; supplySetpoint: number }) => [w.at.slice(11, 16), w.supplySetpoint]),
    ).toEqual([
      ['05:25', 44],
      ['05:10', 44],
      ['05:00', 45],
    ]);

    // The generator's gateway refuses connections: recorded as failed, and the alert opens.
    await t.call('PATCH', `${base}/${id}`, { output: modbus(deadPort) });
    await step();
    writes = await writesOf(id);
    expect(writes[0]).toMatchObject({ at: '2027-01-12T05:30:00.000Z', ok: false, override: false });
    expect(writes[0].detail).toMatch(/^Modbus TCP 127\.0\.0\.1:\d+ unit 3: connecting: /);
    await evaluateAll(t.database.db, clock.now());
    let [alert] = await alertsOf();
    expect(alert).toMatchObject({
      kind: 'generator_write_failed',
      subject: 'heating_circuit',
      subjectId: id,
      subjectName: 'Heizkreis Halle',
      buildingName: 'Gymnasium',
      state: 'open',
    });
    expect(alert.details.since).toBeTruthy();
    // A failed write is tried again at the next step, not after 15 minutes.
    await step();
    expect((await writesOf(id))[0]).toMatchObject({ at: '2027-01-12T05:35:00.000Z', ok: false });

    // Reachable again: the write succeeds and the alert clears, resolving after the clear minutes.
    await t.call('PATCH', `${base}/${id}`, { output: modbus(generator.port) });
    await step();
    expect((await writesOf(id))[0]).toMatchObject({ at: '2027-01-12T05:40:00.000Z', ok: true });
    await evaluateAll(t.database.db, clock.now());
    clock.advance(10 * 60_000);
    await evaluateAll(t.database.db, clock.now());
    [alert] = await alertsOf();
    expect(alert).toMatchObject({ subjectId: id, state: 'resolved' });

    // At the panel someone switches the burner off and holds it: the next write reads it back.
    generator.coils.set(5, false);
    generator.held.add(5);
    // 05:55 is 15 minutes after 05:40 (the clock moved 10 minutes above): the watchdog writes.
    await step();
    writes = await writesOf(id);
    expect(writes[0]).toMatchObject({
      at: '2027-01-12T05:55:00.000Z',
      ok: true,
      enabled: true,
      readBackEnabled: false,
      override: true,
    });
    expect(writes[0].detail).toContain('override on the generator: enable reads off, not on');
    const before = generator.writes.length;
    // For an hour nothing is written to undo it, watchdog or not.
    for (let minutes = 5; minutes < 60; minutes += 5) await step();
    expect(generator.writes).toHaveLength(before);
    expect((await writesOf(id))[0].at).toBe('2027-01-12T05:55:00.000Z');
    // An hour after: written again (and the hand still holds it, so the override is recorded again).
    await step();
    expect(generator.writes.length).toBeGreaterThan(before);
    expect((await writesOf(id))[0]).toMatchObject({ at: '2027-01-12T06:55:00.000Z', override: true });

    // The records go with the readings after 30 days.
    await t.call('PATCH', `${base}/${id}`, { mode: 'shadow' });
    clock.advance(31 * 86_400_000);
    expect(await t.services.heatingCircuits.purgeReadings()).toBeGreaterThan(0);
    expect(await writesOf(id)).toEqual([]);
  });

  it('writes every due circuit of a step: a generator that never answers costs its own timeout and holds up no other circuit, whose MQTT output publishes its state', async () => {
    const broker = await startEmbeddedBroker({ port: 0 });
    const hanging = await startGenerator({ silent: true });
    const subscriber = await mqtt.connectAsync(broker.url, { protocolVersion: 4 });
    const latest = new Map<string, string>();
    subscriber.on('message', (topic, payload) => latest.set(topic, payload.toString()));
    await subscriber.subscribeAsync('heizplan/gymnasium/#', { qos: 1 });
    try {
      const [room] = await t.database.db
        .insert(units)
        .values({
          companyId,
          name: 'Raum 103',
          buildingId,
          setpoint: 21,
          roomTemperature: 21,
          valveOpening: 50,
        })
        .returning({ id: units.id });
      const slow = await t.call('POST', base, {
        name: 'Heizkreis Altbau',
        buildingId,
        generatorType: 'oil_boiler',
        mode: 'on',
        output: { ...modbus(hanging.port), timeoutMs: 300 },
      });
      const bms = await t.call('POST', base, {
        name: 'Heizkreis Neubau',
        buildingId,
        generatorType: 'heat_pump_brine',
        minSupply: 30,
        maxSupply: 40,
        mode: 'on',
        output: { kind: 'mqtt', url: broker.url, companySlug: 'gymnasium', discoveryPrefix: null },
        unitIds: [room?.id],
      });
      expect([slow.statusCode, bms.statusCode]).toEqual([201, 201]);

      await t.services.heatingCircuits.stepDue();
      const [slowWrite] = await writesOf(slow.json().id);
      expect(slowWrite).toMatchObject({ ok: false, enabled: false, supplySetpoint: null });
      expect(slowWrite.detail).toContain('no answer within 300 ms');
      const [bmsWrite] = await writesOf(bms.json().id);
      expect(bmsWrite).toMatchObject({ ok: true, enabled: true, supplySetpoint: 40 });
      const topic = `heizplan/gymnasium/circuits/${bms.json().id}/`;
      await vi.waitFor(() => {
        expect(latest.get(`${topic}enabled`)).toBe('ON');
        expect(latest.get(`${topic}supply_setpoint`)).toBe('40');
        expect(latest.get(`${topic}holding_up`)).toBe('[]');
      });
      await t.call('DELETE', `${base}/${slow.json().id}`);
      await t.call('DELETE', `${base}/${bms.json().id}`);
    } finally {
      await subscriber.endAsync();
      await new Promise<void>((resolve) => hanging.server.close(() => resolve()));
      await broker.close();
    }
  });
});

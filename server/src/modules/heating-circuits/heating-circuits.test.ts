/**
 * Heating circuits through the API: a circuit takes only rooms of its building that no other
 * circuit serves, a PATCH changes only the fields given and keeps the limits in order, and every
 * 5 minutes the controller's step turns the rooms' reports into the demand and the recommended
 * supply temperature, leaving faulty rooms out and naming the rooms that hold it up.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock } from '../../../test/clock.ts';
import { buildTestApp, type TestApp } from '../../../test/helpers.ts';
import { alerts, buildingOutdoorTemperatures, heatingCircuits, units } from '../../db/schema.ts';
import { SUPPLY_RESET_DEFAULTS } from '../../heating/engine/supply-reset.ts';
import { seedRegistry } from '../devices/registry-test-fixtures.ts';
import { CIRCUIT_STEP_MS } from './heating-circuits.service.ts';

// A winter morning; no rule here depends on the time of day.
const clock = testClock('2027-01-12T05:00:00Z');

describe('heating circuits', () => {
  let t: TestApp;
  let base: string;
  let companyId: string;
  let buildingId: string;
  let rooms: string[];
  let foreignRoom: string;
  let otherBuildingRoom: string;

  beforeAll(async () => {
    t = await buildTestApp({}, { clock: clock.now });
    const f = await seedRegistry(t.database.db);
    companyId = f.companyId;
    foreignRoom = f.otherUnitId;
    base = `/api/companies/${companyId}/heating-circuits`;
    const building = await t.call('POST', `/api/companies/${companyId}/buildings`, {
      name: 'Schule',
      state: 'BY',
    });
    buildingId = building.json().id;
    const other = await t.call('POST', `/api/companies/${companyId}/buildings`, {
      name: 'Turnhalle',
      state: 'BY',
    });
    const inserted = await t.database.db
      .insert(units)
      .values([
        { companyId, name: 'Klasse 1a', buildingId, setpoint: 21, roomTemperature: 20.9, valveOpening: 40 },
        { companyId, name: 'Klasse 1b', buildingId, setpoint: 21, roomTemperature: 21, valveOpening: 30 },
        { companyId, name: 'Werkraum', buildingId, setpoint: 21, roomTemperature: 21.2, valveOpening: 20 },
        { companyId, name: 'Halle', buildingId: other.json().id },
      ])
      .returning({ id: units.id });
    rooms = inserted.slice(0, 3).map((row) => row.id);
    otherBuildingRoom = inserted[3]?.id as string;
    await t.database.db.insert(buildingOutdoorTemperatures).values({
      companyId,
      buildingId,
      at: new Date('2027-01-12T05:00:00Z'),
      temperature: -4,
      kind: 'observed',
      provider: 'test',
    });
  });
  afterAll(() => t.close());

  it('creates a circuit with the rooms of its building and refuses rooms of another building or company', async () => {
    const created = await t.call('POST', base, {
      name: 'Heizkreis Nord',
      buildingId,
      generatorType: 'heat_pump_air',
      unitIds: rooms.slice(0, 2),
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      name: 'Heizkreis Nord',
      designSupply: 70,
      curveSupply: 70,
      minSupply: 25,
      maxSupply: 75,
      mode: 'shadow',
      state: null,
      holdingUpWeek: [],
    });
    expect(created.json().unitIds.sort()).toEqual(rooms.slice(0, 2).sort());
    for (const unitId of [otherBuildingRoom, foreignRoom]) {
      const refused = await t.call('POST', base, {
        name: 'Süd',
        buildingId,
        generatorType: 'gas_boiler',
        unitIds: [unitId],
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().errors).toEqual([
        expect.objectContaining({ field: 'body.unitIds', code: 'circuit_unit_not_in_building' }),
      ]);
    }
    const taken = await t.call('POST', base, {
      name: 'Süd',
      buildingId,
      generatorType: 'gas_boiler',
      unitIds: [rooms[0]],
    });
    expect(taken.json().errors).toEqual([
      expect.objectContaining({ field: 'body.unitIds', code: 'circuit_unit_taken' }),
    ]);
    const twice = await t.call('POST', base, {
      name: 'Heizkreis Nord',
      buildingId,
      generatorType: 'gas_boiler',
    });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().code).toBe('heating_circuit_name_taken');
    // Nothing half-written: the refused circuits do not exist.
    expect((await t.call('GET', `${base}?buildingId=${buildingId}`)).json().count).toBe(1);
  });

  it('changes only the fields given and names the field when the limits would cross', async () => {
    const [circuit] = (await t.call('GET', base)).json().results;
    const changed = await t.call('PATCH', `${base}/${circuit.id}`, { curveSupply: 60, unitIds: rooms });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({ curveSupply: 60, designSupply: 70, name: 'Heizkreis Nord' });
    expect(changed.json().unitIds).toHaveLength(3);
    const crossed = await t.call('PATCH', `${base}/${circuit.id}`, { maxSupply: 25 });
    expect(crossed.statusCode).toBe(400);
    expect(crossed.json().errors).toEqual([
      expect.objectContaining({
        field: 'body.maxSupply',
        code: 'circuit_supply_limits',
        params: { min: 25, max: 25 },
      }),
    ]);
    const bothGiven = await t.call('PATCH', `${base}/${circuit.id}`, { minSupply: 50, maxSupply: 40 });
    expect(bothGiven.json().errors).toEqual([expect.objectContaining({ field: 'body.maxSupply' })]);
  });

  it('steps every 5 minutes: starts at the heating curve, raises for a room whose open valve cannot reach its setpoint, and leaves a faulty room out', async () => {
    const [circuit] = (await t.call('GET', base)).json().results;
    const services = t.services.heatingCircuits;
    expect(await services.stepDue()).toBe(1);
    let state = (await t.call('GET', `${base}/${circuit.id}`)).json().state;
    // The curve at −4 °C for 60 °C at −12 °C and a 20 °C room: 20 + 40 × (24/32)^(1/1.3).
    const curve = 20 + 40 * (24 / 32) ** (1 / 1.3);
    expect(state).toMatchObject({ enabled: true, reason: 'demand', outdoor: -4, holdingUp: [] });
    expect(state.curveSupply).toBeCloseTo(curve, 3);
    expect(state.supplySetpoint).toBeCloseTo(curve, 3);
    // Not due again within the 5 minutes.
    expect(await services.stepDue()).toBe(0);

    // Klasse 1a's valve is wide open and the room 1.5 K short: two requests each step.
    await t.database.db
      .update(units)
      .set({ roomTemperature: 19.5, valveOpening: 100 })
      .where(eq(units.id, rooms[0] as string));
    // The Werkraum's window is open: whatever it reports, it asks for nothing.
    await t.database.db
      .update(units)
      .set({ roomTemperature: 15, valveOpening: 100 })
      .where(eq(units.id, rooms[2] as string));
    await t.database.db.insert(alerts).values({
      companyId,
      kind: 'open_window',
      subject: 'unit',
      subjectId: rooms[2] as string,
      unitId: rooms[2] as string,
      openedAt: clock.now(),
      lastSeenAt: clock.now(),
    });
    // Past the hold after the start: the step responds.
    clock.advance(2 * CIRCUIT_STEP_MS);
    expect(await services.stepDue()).toBe(1);
    state = (await t.call('GET', `${base}/${circuit.id}`)).json().state;
    expect(state.holdingUp).toEqual([{ unitId: rooms[0], name: 'Klasse 1a', requests: 2 }]);
    expect(state.supplySetpoint).toBeCloseTo(
      Math.min(curve + 2 * SUPPLY_RESET_DEFAULTS.respondK, curve + 5),
      3,
    );

    const read = await t.call('GET', `${base}/${circuit.id}`);
    expect(read.json().holdingUpWeek).toEqual([{ unitId: rooms[0], name: 'Klasse 1a', requests: 2 }]);
    const from = encodeURIComponent('2027-01-12T00:00:00Z');
    const to = encodeURIComponent('2027-01-13T00:00:00Z');
    const readings = (await t.call('GET', `${base}/${circuit.id}/readings?from=${from}&to=${to}`)).json()
      .readings;
    expect(readings.map((r: { holdingUnitId: string | null }) => r.holdingUnitId)).toEqual([null, rooms[0]]);
    await t.database.db
      .delete(alerts)
      .where(and(eq(alerts.companyId, companyId), eq(alerts.unitId, rooms[2] as string)));
  });

  it('computes nothing in mode off, and answers a readings window over 14 days with a 400 naming `to`', async () => {
    const [circuit] = (await t.call('GET', base)).json().results;
    await t.call('PATCH', `${base}/${circuit.id}`, { mode: 'off' });
    clock.advance(CIRCUIT_STEP_MS);
    expect(await t.services.heatingCircuits.stepDue()).toBe(0);
    expect((await t.call('GET', `${base}/${circuit.id}`)).json().state).toBeNull();
    const from = encodeURIComponent('2027-01-01T00:00:00Z');
    const to = encodeURIComponent('2027-01-16T00:00:00Z');
    const tooLong = await t.call('GET', `${base}/${circuit.id}/readings?from=${from}&to=${to}`);
    expect(tooLong.statusCode).toBe(400);
    expect(JSON.stringify(tooLong.json())).toContain('14 days');
  });

  it('keeps an output per circuit, never returns the MQTT password, keeps it on a PATCH without one, and names the field of a bad output', async () => {
    const modbus = {
      kind: 'modbus',
      host: '192.0.2.10',
      setpoint: { register: 100 },
      enable: { kind: 'coil', coil: 5 },
    };
    const created = await t.call('POST', base, {
      name: 'Heizkreis Ost',
      buildingId,
      generatorType: 'gas_boiler',
      output: modbus,
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().output).toMatchObject({
      kind: 'modbus',
      port: 502,
      unitId: 1,
      setpoint: { register: 100, scale: 10 },
      enable: { kind: 'coil', coil: 5 },
    });
    const id = created.json().id;
    const mqtt = { kind: 'mqtt', url: 'mqtt://192.0.2.20:1883', username: 'bms', companySlug: 'schule' };
    const withPassword = await t.call('PATCH', `${base}/${id}`, { output: { ...mqtt, password: 'geheim' } });
    expect(withPassword.statusCode).toBe(200);
    expect(withPassword.json().output).toMatchObject({ kind: 'mqtt', username: 'bms', hasPassword: true });
    expect(JSON.stringify(withPassword.json())).not.toContain('geheim');
    const kept = await t.call('PATCH', `${base}/${id}`, { output: { ...mqtt, username: 'gltt' } });
    expect(kept.json().output).toMatchObject({ username: 'gltt', hasPassword: true });
    // Stored encrypted, not as given.
    const [row] = await t.database.db
      .select({ output: heatingCircuits.output })
      .from(heatingCircuits)
      .where(eq(heatingCircuits.id, id));
    expect(JSON.stringify(row?.output)).not.toContain('geheim');
    const removed = await t.call('PATCH', `${base}/${id}`, { output: { ...mqtt, password: '' } });
    expect(removed.json().output).toMatchObject({ hasPassword: false });
    // A PATCH without `output` leaves it alone.
    expect((await t.call('PATCH', `${base}/${id}`, { curveRoom: 21 })).json().output.kind).toBe('mqtt');

    const bad = await t.call('PATCH', `${base}/${id}`, {
      output: { ...modbus, unitId: 300 },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual([expect.objectContaining({ field: 'body.output.unitId' })]);
    const inUrl = await t.call('PATCH', `${base}/${id}`, {
      output: { ...mqtt, url: 'mqtt://bms:geheim@192.0.2.20:1883' },
    });
    expect(inUrl.statusCode).toBe(400);
    expect(inUrl.json().errors).toEqual([expect.objectContaining({ field: 'body.output.url' })]);
    const none = await t.call('PATCH', `${base}/${id}`, { output: null });
    expect(none.json().output).toBeNull();
    await t.call('DELETE', `${base}/${id}`);
  });
});

/**
 * For every PATCH operation of the OpenAPI document (decision 0030):
 * an empty patch answers 200 with the resource as it is and writes nothing; a patch of one field
 * changes that field (and what is derived from it) and leaves every other field as it was.
 */
import { ALERT_KINDS } from '@heizplan/contracts/alerts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock, testInstant } from '../../test/clock.ts';
import { buildTestApp, type TestApp } from '../../test/helpers.ts';
import { identityAccountPorts } from '../auth/account-ports.ts';
import {
  dataFingerprint,
  fillPath,
  operationKey,
  operations,
  seedWalkFixture,
  type WalkFixture,
  winterSwitchPoints,
} from './api-walk.test-kit.ts';

interface FieldPatch {
  field: string;
  value: unknown;
  /** Other fields the change needs to be valid, e.g. groups when switching to group mode. */
  with?: Record<string, unknown>;
  /** Response fields that follow from the change (e.g. `groupName` from `groupId`). */
  derived?: string[];
  /** The response field that shows the change when it is not `field` itself. */
  shownAs?: string;
}

/**
 * Where a PATCH route's resource is read when not at its own path: spec §7 names the member read
 * `user`; the subscription is part of the billing overview.
 */
const readPath = (path: string) =>
  path.replace('/members/{sub}', '/user/{sub}').replace('/billing/subscription', '/billing');

// A Wednesday noon; HEIZPLAN_TEST_NOW also runs the walk in the hours before the 06:00 switch point.
const clock = testClock(testInstant('2026-12-02T12:00:00+01:00'));

/** A sensor without unit, the building's outdoor sensor (decision 0057). */
const OUTDOOR_SENSOR = 'a81758fffe0000e1';

/** Changed on every write by design. */
const ALWAYS_DERIVED = ['updatedAt'];
/** What a unit's evaluation sets: its next change and, at the time of an early start, its setpoint. */
const EVALUATED = ['nextChangeAt', 'setpoint', 'setpointSource', 'setpointSince'];

/**
 * One change per writable field of each PATCH route, applied in this order to the fixture's
 * resource; each value differs from the one in force at that point.
 */
function fieldPatches(f: WalkFixture): Record<string, FieldPatch[]> {
  const start = clock.now().getTime() + 10 * 24 * 3600_000;
  const at = (hours: number) => new Date(start + hours * 3600_000).toISOString();
  return {
    'PATCH /api/companies/{id}/': [
      { field: 'name', value: 'Stadtwerke Nord' },
      { field: 'min_temperature', value: 6 },
      { field: 'max_temperature', value: 25 },
      { field: 'time_zone', value: 'Europe/Vienna' },
      { field: 'occupant_change_max_hours', value: 4 },
      { field: 'occupant_max_temperature', value: 23 },
      { field: 'occupant_band', value: 1.5 },
      { field: 'invite_role_choice', value: false },
      { field: 'default_invite_role', value: 'ems' },
      { field: 'energy_media', value: 'district_heating' },
      { field: 'frost_protection', value: 7 },
      { field: 'economy_temperature', value: 15 },
      { field: 'standby_temperature', value: 19 },
      { field: 'optimum_start', value: 'on' },
      { field: 'optimum_max_lead_minutes', value: 120 },
      { field: 'second_factor_required', value: 'admins' },
      { field: 'remember_device_days', value: 30 },
    ],
    'PATCH /api/companies/{id}/members/{sub}': [{ field: 'role', value: 'ems' }],
    // Alice's passkey, through the account port as in production (decision 0074).
    'PATCH /api/me/passkeys/{passkeyId}': [{ field: 'name', value: 'Büro' }],
    'PATCH /api/companies/{companyId}/alert-settings': [
      { field: 'enabled', value: ['device_offline', 'low_battery'] },
      { field: 'offlineIntervals', value: 4 },
      { field: 'lowBatteryPercent', value: 25 },
      { field: 'notWarmingMinutes', value: 90 },
      { field: 'farFromSetpointKelvin', value: 4 },
      { field: 'farFromSetpointMinutes', value: 120 },
      { field: 'undeliveredMinutes', value: 30 },
      { field: 'clearMinutes', value: 15 },
      { field: 'repeatHours', value: 12 },
    ],
    'PATCH /api/companies/{companyId}/alert-preferences': ALERT_KINDS.map((kind) => ({
      field: kind,
      value: 'off',
    })),
    'PATCH /api/companies/{companyId}/webhooks/{webhookId}': [{ field: 'enabled', value: false }],
    'PATCH /api/companies/{companyId}/billing/subscription': [
      { field: 'licences', value: 14, derived: ['usableLicences', 'netTotal'] },
      // An interval change takes effect with the next period.
      { field: 'interval', value: 'monthly', shownAs: 'nextInterval' },
      { field: 'paymentMethod', value: 'invoice' },
      { field: 'cancelAtPeriodEnd', value: true },
    ],
    'PATCH /api/companies/{companyId}/units/{unitId}': [
      { field: 'name', value: 'Raum 1b' },
      { field: 'wallControlMin', value: 18 },
      { field: 'wallControlMax', value: 24 },
      // Another group means other group plans: the unit is evaluated again. Within the hours
      // before the plan's 06:00 switch point that may start (or stop) heating early at once, so
      // the setpoint follows too at such an instant.
      { field: 'groupId', value: f.otherGroupId, derived: ['groupName', ...EVALUATED] },
      // Another building means other public holidays and outdoor temperatures: evaluated again.
      { field: 'buildingId', value: f.pathValues.buildingId, derived: ['buildingName', ...EVALUATED] },
      { field: 'floor', value: '1. OG' },
      // Optimum start on or off moves switch points: the unit is evaluated again.
      { field: 'optimumStart', value: false, derived: EVALUATED },
    ],
    'PATCH /api/companies/{companyId}/groups/{groupId}': [
      { field: 'name', value: 'Grundschule' },
      { field: 'occupantMaxTemperature', value: 22.5 },
      { field: 'occupantBand', value: 1.5 },
    ],
    'PATCH /api/companies/{companyId}/device-profiles/{profileId}': [
      { field: 'name', value: 'Schule Süd', derived: ['updatedAt'] },
      {
        field: 'config',
        value: {
          keepAliveMinutes: 20,
          openWindow: { enabled: false, durationMinutes: 10, deltaK: 1 },
          childLock: false,
          temperatureRange: { min: 5, max: 30 },
          temperatureOffset: 0.5,
        },
        derived: ['updatedAt'],
      },
      {
        field: 'places',
        value: { company: true, buildingIds: [], groupIds: [], unitIds: [] },
        derived: ['sync'],
      },
    ],
    'PATCH /api/companies/{companyId}/plans/{planId}': [
      { field: 'name', value: 'Winter neu' },
      { field: 'active', value: false },
      { field: 'validFrom', value: '11-01' },
      { field: 'validTo', value: '03-31' },
      { field: 'switchPoints', value: winterSwitchPoints.slice(0, 2) },
      // A seasonal plan has no dates; switching the kind drops the range and takes the dates.
      {
        field: 'kind',
        value: 'specific_days',
        with: { dates: ['2031-12-24'] },
        derived: ['validFrom', 'validTo'],
      },
      { field: 'dates', value: ['2031-12-25'] },
    ],
    'PATCH /api/companies/{companyId}/devices/{deviceId}': [
      // A model's configuration commands and report interval (device profiles, airtime) follow it.
      { field: 'model', value: 'milesight-wt101', derived: ['antiFreezeSupport', 'config', 'airtime'] },
      { field: 'appKey', value: 'fedcba9876543210fedcba9876543210', derived: ['appKeyLast4'] },
      { field: 'joinEui', value: 'a000000000000100' },
      // The unit walked above is in a building now; the other unit is in none.
      {
        field: 'unitId',
        value: f.otherUnitId,
        derived: ['unitName', 'buildingId', 'buildingName', 'floor', 'config'],
      },
    ],
    'PATCH /api/companies/{companyId}/gateways/{gatewayId}': [
      { field: 'name', value: 'Dach Süd' },
      { field: 'statsIntervalS', value: 60 },
    ],
    'PATCH /api/companies/{companyId}/heating-circuits/{circuitId}': [
      { field: 'name', value: 'Heizkreis West' },
      { field: 'generatorType', value: 'district_heating' },
      { field: 'designSupply', value: 65 },
      { field: 'designReturn', value: 45 },
      { field: 'designOutdoor', value: -14 },
      { field: 'curveSupply', value: 58 },
      { field: 'curveRoom', value: 21 },
      { field: 'minSupply', value: 28 },
      { field: 'maxSupply', value: 70 },
      { field: 'mode', value: 'off' },
      {
        field: 'output',
        value: { kind: 'lora_relay', devEui: 'a84041000181c061', fPort: 1, invert: false, ro2: 'none' },
      },
      // The unit walked above is in the circuit's building by now.
      { field: 'unitIds', value: [f.pathValues.unitId] },
    ],
    'PATCH /api/companies/{companyId}/events/{eventId}': [
      { field: 'title', value: 'Konzert neu' },
      { field: 'note', value: 'Aula, 2. Stock' },
      { field: 'end', value: at(5) },
      { field: 'start', value: at(1) },
      { field: 'temperature', value: 23 },
      { field: 'preventRegular', value: true },
      { field: 'units', value: [f.otherUnitId] },
      // Group mode needs groups and drops the units chosen directly.
      {
        field: 'groupMode',
        value: true,
        with: { groups: [f.pathValues.groupId] },
        derived: ['units', 'groups'],
      },
      { field: 'groups', value: [f.otherGroupId] },
    ],
    'PATCH /api/companies/{companyId}/buildings/{buildingId}': [
      { field: 'name', value: 'Altbau' },
      { field: 'street', value: 'Schulweg 2' },
      { field: 'postcode', value: '86152' },
      { field: 'city', value: 'Augsburg-Mitte' },
      // The holidays decide tomorrow's heating start, which may follow: at a holiday's eve (the
      // suite runs this file at 23:59 before 31 October, Reformationstag in Saxony too) a
      // closure in economy mode starts heating at 00:00 where frost protection does not.
      { field: 'region', value: 'A', derived: ['heatingStartTomorrow'] },
      // Augsburg is no region of Saxony: the move needs one of Saxony's regions, or none.
      { field: 'state', value: 'SN', with: { region: 'BZ' }, derived: ['heatingStartTomorrow'] },
      { field: 'floors', value: ['EG', '1. OG', '2. OG'] },
      { field: 'publicHolidays', value: 'closure', derived: ['heatingStartTomorrow'] },
      { field: 'holidayMode', value: 'economy', derived: ['heatingStartTomorrow'] },
      { field: 'schoolHolidays', value: true, derived: ['heatingStartTomorrow'] },
      // Coordinates come as a pair.
      { field: 'latitude', value: 48.37, with: { longitude: 10.9 } },
      { field: 'longitude', value: 10.95, with: { latitude: 48.4 } },
      // An unassigned sensor of the company (registered in `beforeAll`).
      { field: 'outdoorSensorId', value: OUTDOOR_SENSOR },
      { field: 'occupantMaxTemperature', value: 23 },
      { field: 'occupantBand', value: 1 },
    ],
    'PATCH /api/companies/{companyId}/booking-feeds/{feedId}': [
      { field: 'name', value: 'Raumbuchung Aula' },
      { field: 'kind', value: 'caldav' },
      { field: 'unitId', value: f.otherUnitId, shownAs: 'unit' },
      { field: 'linkedUnitIds', value: [f.pathValues.unitId], shownAs: 'linkedUnits' },
      { field: 'url', value: 'https://calendar.example.test/aula/' },
      { field: 'username', value: 'hausmeister' },
      { field: 'password', value: 'geheim', shownAs: 'hasPassword' },
      { field: 'minDurationMinutes', value: 15 },
      { field: 'ignoreKeyword', value: 'privat' },
      { field: 'preheatMinutes', value: 60 },
      { field: 'temperature', value: 21 },
    ],
    'PATCH /api/companies/{companyId}/closures/{closureId}': [
      { field: 'name', value: 'Betriebsferien neu' },
      { field: 'note', value: 'Nur das Erdgeschoss' },
      // The next occurrence is the closure itself until it recurs.
      { field: 'end', value: at(24 * 6), derived: ['nextOccurrence'] },
      { field: 'start', value: at(2), derived: ['nextOccurrence'] },
      { field: 'recurrence', value: 'FREQ=YEARLY;COUNT=3' },
      { field: 'mode', value: 'economy' },
      { field: 'exceptions', value: [f.pathValues.unitId] },
      // Scope groups needs groups; the chosen groups' units are covered from then on.
      { field: 'scope', value: 'groups', with: { groups: [f.pathValues.groupId] } },
      { field: 'groups', value: [f.otherGroupId] },
      // Scope units needs units and has no exceptions: its units are exactly what it covers.
      {
        field: 'units',
        value: [f.otherUnitId],
        with: { scope: 'units' },
        derived: ['groups', 'exceptions'],
      },
      // Scope buildings: a whole building or, as here, one of its floors; no units chosen.
      {
        field: 'buildings',
        value: [{ buildingId: f.pathValues.buildingId, floor: 'EG' }],
        with: { scope: 'buildings' },
        derived: ['units'],
      },
    ],
  };
}

describe('PATCH on every resource', () => {
  let t: TestApp;
  let f: WalkFixture;
  const patchOps = () => operations(t.app).filter((op) => op.method === 'PATCH');
  beforeAll(async () => {
    t = await buildTestApp({}, { clock: clock.now });
    t.ports.account = identityAccountPorts(t.config, t.database.db, t.app.log, clock.now).account;
    f = await seedWalkFixture(t);
    const sensor = await t.call('POST', `/api/companies/${f.companyId}/devices`, {
      id: OUTDOOR_SENSOR,
      model: 'elsys-ers',
    });
    expect(sensor.statusCode, sensor.body).toBe(201);
  });
  afterAll(() => t.close());

  it('covers every writable field of every PATCH route', () => {
    const table = fieldPatches(f);
    const fieldsOf = (key: string) => (table[key] ?? []).map((p) => p.field).sort();
    for (const op of patchOps()) {
      expect(fieldsOf(operationKey(op)), operationKey(op)).toEqual(
        Object.keys(op.body?.properties ?? {}).sort(),
      );
    }
    expect(Object.keys(table).sort()).toEqual(patchOps().map(operationKey).sort());
  });

  it('answers an empty patch with the resource as it is and writes nothing', async () => {
    for (const op of patchOps()) {
      const url = fillPath(op.path, f.pathValues);
      const before = (await t.call('GET', fillPath(readPath(op.path), f.pathValues))).json();
      const data = await dataFingerprint(t);
      const res = await t.call('PATCH', url, {});
      expect(res.statusCode, `${operationKey(op)}: ${res.body}`).toBe(200);
      expect(res.json(), operationKey(op)).toEqual(before);
      expect(await dataFingerprint(t), operationKey(op)).toEqual(data);
    }
  });

  it('changes only the field given (and what follows from it)', async () => {
    const table = fieldPatches(f);
    for (const op of patchOps()) {
      const url = fillPath(op.path, f.pathValues);
      const read = fillPath(readPath(op.path), f.pathValues);
      for (const change of table[operationKey(op)] ?? []) {
        const label = `${operationKey(op)} ${change.field}`;
        const before = (await t.call('GET', read)).json() as Record<string, unknown>;
        const res = await t.call('PATCH', url, { ...change.with, [change.field]: change.value });
        expect(res.statusCode, `${label}: ${res.body}`).toBe(200);
        const after = (await t.call('GET', read)).json() as Record<string, unknown>;
        const shown = change.shownAs ?? change.field;
        const free = new Set([shown, ...Object.keys(change.with ?? {}), ...(change.derived ?? [])]);
        const kept = (row: Record<string, unknown>) =>
          Object.fromEntries(
            Object.entries(row).filter(([k]) => !free.has(k) && !ALWAYS_DERIVED.includes(k)),
          );
        expect(kept(after), label).toEqual(kept(before));
        if (shown in after) expect(after[shown], label).not.toEqual(before[shown]);
      }
    }
    // A walk over every PATCH with a fingerprint before and after each: about 11 s on a quiet
    // machine, over 30 s beside the rest of the suite on two cores.
  }, 120_000);
});

/**
 * The demo's queries. At first start it writes, in the creating transaction: the demo admin's
 * account and user, the company with its subscription, group, winter plan, building, units,
 * devices, device profile, gateway, Christmas closure and the meeting room's booking feed; then
 * the raw history (`telemetry` every 15 minutes, temperatures °C, valve %, battery in the codec's
 * unit, RSSI dBm, SNR dB; `heating_log` setpoints °C) with each device's last seen, battery and
 * signal taken from its newest reading; and the seasons as `unit_rollups_daily` rows (°C, %,
 * minutes). While the server runs, the simulator reads the devices and their last readings and
 * marks the downlinks a restart lost as failed.
 */
import type { CircuitOutputConfig } from '@heizplan/contracts/heating-circuits';
import { and, count, desc, eq, getTableColumns, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import {
  bookingFeeds,
  buildings,
  closures,
  closureUnits,
  companies,
  deviceProfileAssignments,
  deviceProfiles,
  devices,
  downlinks,
  gateways,
  groups,
  heatingCircuits,
  heatingCircuitUnits,
  heatingLog,
  heatingPlans,
  identityAccounts,
  memberships,
  subscriptions,
  telemetry,
  unitRollupsDaily,
  units,
  users,
} from '../db/schema.ts';
import { periodEnd } from '../modules/billing/manual-provider.ts';
import {
  DEMO_BUILDING,
  DEMO_CIRCUIT,
  DEMO_CLOSURE_EXCEPTION,
  DEMO_COMPANY,
  DEMO_DEVICES,
  DEMO_GATEWAY,
  DEMO_GROUP,
  DEMO_LICENCES,
  DEMO_LOGIN,
  DEMO_PROFILE,
  DEMO_SWITCH_POINTS,
  DEMO_UNIT_FLOORS,
  DEMO_UNITS,
  demoChristmasClosure,
} from './demo-data.ts';

/** One `telemetry` row to insert. */
export type DemoTelemetryRow = typeof telemetry.$inferInsert;
/** One `heating_log` row to insert. */
export type DemoHeatingLogRow = typeof heatingLog.$inferInsert;
/** One `unit_rollups_daily` row to insert. */
export type DemoDailyRollupRow = typeof unitRollupsDaily.$inferInsert;

/** Daily rollup rows per insert (about 300 kB of JSON). */
const DAILY_CHUNK = 1000;

/** The company of the account with e-mail `email` (compared lower-cased), if there is one. */
export async function findCompanyOfAccount(db: Db, email: string): Promise<string | undefined> {
  const [row] = await db
    .select({ companyId: memberships.companyId })
    .from(identityAccounts)
    .innerJoin(memberships, eq(memberships.userId, identityAccounts.id))
    .where(sql`lower(${identityAccounts.email}) = ${email}`)
    .limit(1);
  return row?.companyId;
}

/** How many companies the database holds. */
export async function countCompanies(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(companies);
  return Number(row?.n ?? 0);
}

/**
 * Writes the demo company of demo-data.ts with everything but its booking feed and history: the
 * admin (verified, `passwordHash` of the demo login), the company with the accepted agreement
 * versions of `config`, a yearly manual subscription from `now`, group and winter plan, the
 * building, units created 15 days before `now`, devices, device profile and its assignment, the
 * gateway and the Christmas closure with its exception. Returns the ids the rest of the seeding
 * needs, the unit ids in DEMO_UNITS order. Throws when an insert returns no row.
 */
export async function insertDemoCompany(
  tx: Db,
  passwordHash: string,
  config: Config,
  now: Date,
): Promise<{ companyId: string; accountId: string; unitIds: string[] }> {
  const [account] = await tx
    .insert(identityAccounts)
    .values({
      id: crypto.randomUUID(),
      email: DEMO_LOGIN.email,
      name: DEMO_LOGIN.name,
      passwordHash,
      emailVerified: true,
    })
    .returning();
  if (!account) throw new Error('demo account not created');
  await tx.insert(users).values({
    id: account.id,
    name: DEMO_LOGIN.name,
    email: DEMO_LOGIN.email,
    emailVerified: true,
    lang: 'de',
  });
  const [company] = await tx
    .insert(companies)
    .values({
      name: DEMO_COMPANY,
      minTemperature: 12,
      maxTemperature: 26,
      avvAcceptedVersion: config.agreements.avv,
      licenseAcceptedVersion: config.agreements.license,
      privacyAcceptedVersion: config.agreements.privacy,
    })
    .returning();
  if (!company) throw new Error('demo company not created');
  await tx.insert(memberships).values({ companyId: company.id, userId: account.id, role: 'admin' });
  // An active yearly subscription of 12 licences (9 devices in use, 3 free).
  await tx.insert(subscriptions).values({
    companyId: company.id,
    provider: 'manual',
    interval: 'yearly',
    licences: DEMO_LICENCES,
    status: 'active',
    paymentMethod: 'invoice',
    currentPeriodStart: now,
    currentPeriodEnd: periodEnd(now, 'yearly'),
  });
  const [group] = await tx.insert(groups).values({ companyId: company.id, name: DEMO_GROUP }).returning();
  if (!group) throw new Error('demo group not created');
  await tx.insert(heatingPlans).values({
    companyId: company.id,
    groupId: group.id,
    name: 'Winter',
    kind: 'seasonal',
    validFrom: '10-01',
    validTo: '04-30',
    switchPoints: DEMO_SWITCH_POINTS,
  });
  const [building] = await tx
    .insert(buildings)
    .values({ companyId: company.id, createdBy: account.id, ...DEMO_BUILDING })
    .returning({ id: buildings.id });
  const unitRows = await tx
    .insert(units)
    .values(
      DEMO_UNITS.map((name, i) => ({
        companyId: company.id,
        name,
        groupId: group.id,
        buildingId: building?.id,
        floor: DEMO_UNIT_FLOORS[i] ?? null,
        createdBy: account.id,
        createdAt: new Date(now.getTime() - 15 * 86_400_000),
        ...(i === 3 ? { wallControlMin: 18, wallControlMax: 23 } : {}),
      })),
    )
    .returning({ id: units.id });
  await tx.insert(devices).values(
    DEMO_DEVICES.map((d) => ({
      id: d.devEui,
      devEui: d.devEui,
      companyId: company.id,
      model: d.model,
      unitId: unitRows[d.unit]?.id,
      createdBy: account.id,
    })),
  );
  const [profile] = await tx
    .insert(deviceProfiles)
    .values({ companyId: company.id, ...DEMO_PROFILE })
    .returning({ id: deviceProfiles.id });
  if (profile && building) {
    await tx.insert(deviceProfileAssignments).values({
      companyId: company.id,
      profileId: profile.id,
      model: DEMO_PROFILE.model,
      buildingId: building.id,
    });
  }
  if (building) {
    // A heat pump in shadow mode for all rooms: its card shows what the rooms ask of it.
    const [circuit] = await tx
      .insert(heatingCircuits)
      .values({ companyId: company.id, buildingId: building.id, nextStepAt: now, ...DEMO_CIRCUIT })
      .returning({ id: heatingCircuits.id });
    if (circuit) {
      await tx
        .insert(heatingCircuitUnits)
        .values(unitRows.map((unit) => ({ circuitId: circuit.id, unitId: unit.id, companyId: company.id })));
    }
  }
  await tx.insert(gateways).values({
    companyId: company.id,
    gatewayEui: DEMO_GATEWAY,
    name: 'Gateway Keller',
    createdBy: account.id,
    statsIntervalS: 60,
  });
  const [closure] = await tx
    .insert(closures)
    .values({ companyId: company.id, createdBy: account.id, ...demoChristmasClosure(now) })
    .returning({ id: closures.id });
  const exception = unitRows[DEMO_CLOSURE_EXCEPTION];
  if (closure && exception) {
    await tx.insert(closureUnits).values({ closureId: closure.id, unitId: exception.id, exception: true });
  }
  return { companyId: company.id, accountId: account.id, unitIds: unitRows.map((u) => u.id) };
}

/** Inserts a booking feed and returns its row; throws when none comes back. */
export async function insertBookingFeed(tx: Db, values: typeof bookingFeeds.$inferInsert) {
  const [feed] = await tx.insert(bookingFeeds).values(values).returning();
  if (!feed) throw new Error('demo booking feed not created');
  return feed;
}

/** Every device of `companyId`, whole rows. */
export async function companyDevices(db: Db, companyId: string) {
  return db.select().from(devices).where(eq(devices.companyId, companyId));
}

/** The ids of every unit of `companyId`. */
export async function companyUnitIds(db: Db, companyId: string): Promise<{ id: string }[]> {
  return db.select({ id: units.id }).from(units).where(eq(units.companyId, companyId));
}

/** The buildings of `companyId` with coordinates, as the outdoor store takes them. */
export async function buildingsWithCoordinates(
  db: Db,
  companyId: string,
): Promise<{ id: string; companyId: string }[]> {
  return db
    .select({ id: buildings.id, companyId: buildings.companyId })
    .from(buildings)
    .where(and(eq(buildings.companyId, companyId), isNotNull(buildings.latitude)));
}

/** Inserts telemetry rows in one statement; the caller keeps the chunks small enough. */
export async function insertTelemetry(db: Db, rows: DemoTelemetryRow[]): Promise<void> {
  await db.insert(telemetry).values(rows);
}

/** Inserts heating log rows in one statement; the caller keeps the chunks small enough. */
export async function insertHeatingLog(db: Db, rows: DemoHeatingLogRow[]): Promise<void> {
  await db.insert(heatingLog).values(rows);
}

/** Sets each device's last seen, battery and signal of `companyId` from its newest telemetry row. */
export async function updateDevicesFromNewestTelemetry(db: Db, companyId: string): Promise<void> {
  await db.execute(sql`
    update devices d set last_seen = t.time, battery = t.battery, battery_unit = t.battery_unit,
      last_rssi = t.rssi, last_snr = t.snr
    from (select distinct on (dev_eui) * from telemetry where company_id = ${companyId} order by dev_eui, time desc) t
    where d.id = t.device_id`);
}

/** The units of `companyId` with a device: the device's id and model, the unit's id and building. */
export async function unitsWithDevices(
  db: Db,
  companyId: string,
): Promise<{ deviceId: string; model: string; unitId: string; buildingId: string | null }[]> {
  return db
    .select({ deviceId: devices.id, model: devices.model, unitId: units.id, buildingId: units.buildingId })
    .from(devices)
    .innerJoin(units, eq(units.id, devices.unitId))
    .where(eq(devices.companyId, companyId));
}

/**
 * Inserts daily rollup rows, a chunk per statement as one JSON parameter expanded into the
 * table's own row type: a multi-row `insert … values` through Drizzle binds 23 parameters a row
 * and costs three times the CPU (≈ 0.5 s of a first start on PGlite for two seasons).
 */
export async function insertDailyRollups(db: Db, rows: DemoDailyRollupRow[]): Promise<void> {
  const columns = Object.entries(getTableColumns(unitRollupsDaily));
  for (let i = 0; i < rows.length; i += DAILY_CHUNK) {
    const records = rows
      .slice(i, i + DAILY_CHUNK)
      .map((row) =>
        Object.fromEntries(
          columns.map(([key, column]) => [column.name, row[key as keyof typeof row] ?? null]),
        ),
      );
    await db.execute(sql`insert into ${unitRollupsDaily}
      select * from jsonb_populate_recordset(null::${unitRollupsDaily}, ${JSON.stringify(records)}::jsonb)`);
  }
}

/**
 * Marks the downlinks of `companyId` that were published but never acknowledged (queued or sent)
 * as failed: the simulated network server starts with an empty queue.
 */
export async function failPublishedDownlinks(db: Db, companyId: string): Promise<void> {
  await db
    .update(downlinks)
    .set({ state: 'failed', updatedAt: new Date() })
    .where(
      and(
        eq(downlinks.companyId, companyId),
        inArray(downlinks.state, ['queued', 'sent']),
        isNotNull(downlinks.publishedAt),
      ),
    );
}

/** The newest reading of device `devEui`: room and reported setpoint (°C), battery; undefined = none. */
export async function lastReading(db: Db, companyId: string, devEui: string) {
  const [last] = await db
    .select({
      room: telemetry.roomTemperature,
      setpoint: telemetry.setpointReported,
      battery: telemetry.battery,
    })
    .from(telemetry)
    .where(and(eq(telemetry.companyId, companyId), eq(telemetry.devEui, devEui)))
    .orderBy(desc(telemetry.time))
    .limit(1);
  return last;
}

/**
 * Points the demo circuit's output at this run's heat pump stand-in (it listens on a port the OS
 * picks at each start). On the demo's first start, when the circuit has no output yet, it also
 * switches the circuit on, so the demo's heat pump follows its rooms; a mode or an output a user
 * chose later is kept (an output elsewhere than the stand-in's loopback is left alone).
 * @returns whether the circuit now writes to the stand-in.
 */
export async function connectDemoCircuit(
  db: Db,
  companyId: string,
  output: Extract<CircuitOutputConfig, { kind: 'modbus' }>,
): Promise<boolean> {
  const [circuit] = await db
    .select({ id: heatingCircuits.id, output: heatingCircuits.output })
    .from(heatingCircuits)
    .where(and(eq(heatingCircuits.companyId, companyId), eq(heatingCircuits.name, DEMO_CIRCUIT.name)));
  if (!circuit) return false;
  const first = circuit.output == null;
  if (!first && (circuit.output?.kind !== 'modbus' || circuit.output.host !== output.host)) return false;
  await db
    .update(heatingCircuits)
    .set({ output, ...(first ? { mode: 'on' as const } : {}) })
    .where(and(eq(heatingCircuits.companyId, companyId), eq(heatingCircuits.id, circuit.id)));
  return true;
}

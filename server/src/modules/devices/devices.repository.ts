/**
 * Device queries. Every function takes the company id and filters by it, so a device
 * of another company is simply not found (docs/architecture.md).
 */
import { type AnyColumn, and, asc, count, eq, ilike, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import { sqlArray } from '../../db/any-of.ts';
import { buildingAndFloorOrder } from '../../db/building-order.ts';
import { type Db, rowsOf } from '../../db/client.ts';
import { naturally, naturalOrder } from '../../db/natural-sort.ts';
import { buildings, companies, devices, units, users } from '../../db/schema.ts';

export type DeviceSort = 'id' | 'model' | 'unit' | 'building' | 'createdAt' | 'lastSeen' | 'battery';

export interface DeviceListFilter {
  q?: string;
  model?: string;
  /** Only devices of these models (a `kind` filter); empty = none. */
  models?: readonly string[];
  unitId?: string;
  unassigned?: boolean;
  /** The building (and floor) of the device's unit (decision 0052). */
  buildingId?: string;
  floor?: string;
  sort: DeviceSort;
  order: 'asc' | 'desc';
  page: number;
  size: number;
}

function selectDevices(db: Db, where: SQL | undefined) {
  return db
    .select({
      device: devices,
      unitName: units.name,
      floor: units.floor,
      buildingId: buildings.id,
      buildingName: buildings.name,
      creatorName: users.name,
    })
    .from(devices)
    .leftJoin(units, eq(units.id, devices.unitId))
    .leftJoin(buildings, eq(buildings.id, units.buildingId))
    .leftJoin(users, eq(users.id, devices.createdBy))
    .where(where)
    .$dynamic();
}
export type DeviceRecord = Awaited<ReturnType<typeof selectDevices>>[number];

const sortColumns: Record<Exclude<DeviceSort, 'building'>, AnyColumn | SQL> = {
  id: devices.id,
  model: devices.model,
  unit: naturally(units.name),
  createdAt: devices.createdAt,
  lastSeen: devices.lastSeen,
  battery: devices.battery,
};

/** Sort keys before the device id; by building, a floor's devices by unit name (decision 0052). */
function orderKeys(f: DeviceListFilter): SQL[] {
  if (f.sort === 'building') {
    return [...buildingAndFloorOrder(f.order, units.floor), naturalOrder(units.name, 'asc')];
  }
  const column = sortColumns[f.sort];
  // Devices that never reported sort last in both directions.
  return [f.order === 'asc' ? sql`${column} asc nulls last` : sql`${column} desc nulls last`];
}

const literal = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export async function listDevices(db: Db, companyId: string, f: DeviceListFilter) {
  const conditions = [eq(devices.companyId, companyId)];
  if (f.model) conditions.push(eq(devices.model, f.model));
  if (f.models) conditions.push(f.models.length > 0 ? inArray(devices.model, [...f.models]) : sql`false`);
  if (f.unitId) conditions.push(eq(devices.unitId, f.unitId));
  if (f.unassigned !== undefined)
    conditions.push(f.unassigned ? isNull(devices.unitId) : sql`${devices.unitId} is not null`);
  if (f.buildingId) conditions.push(eq(units.buildingId, f.buildingId));
  if (f.floor) conditions.push(eq(units.floor, f.floor));
  if (f.q) {
    const match = or(ilike(devices.id, literal(f.q)), ilike(units.name, literal(f.q)));
    if (match) conditions.push(match);
  }
  const where = and(...conditions);
  const rows = await selectDevices(db, where)
    .orderBy(...orderKeys(f), asc(devices.id))
    .limit(f.size)
    .offset((f.page - 1) * f.size);
  const [total] = await db
    .select({ n: count() })
    .from(devices)
    .leftJoin(units, eq(units.id, devices.unitId))
    .where(where);
  return { rows, count: total?.n ?? 0 };
}

/** The company's device `id` (its DevEUI); undefined when it is not the company's. */
export async function findDevice(db: Db, companyId: string, id: string): Promise<DeviceRecord | undefined> {
  const [row] = await selectDevices(db, and(eq(devices.companyId, companyId), eq(devices.id, id))).limit(1);
  return row;
}

export async function findDeviceByEui(db: Db, companyId: string, devEui: string) {
  const [row] = await selectDevices(
    db,
    and(eq(devices.companyId, companyId), eq(devices.devEui, devEui)),
  ).limit(1);
  return row;
}

/** True when a device with this id or DevEUI exists in any company. */
export async function deviceIdTaken(db: Db, id: string): Promise<boolean> {
  const [row] = await db
    .select({ id: devices.id })
    .from(devices)
    .where(or(eq(devices.id, id), eq(devices.devEui, id)))
    .limit(1);
  return row !== undefined;
}

export async function insertDevice(db: Db, row: typeof devices.$inferInsert) {
  await db.insert(devices).values(row);
}

export async function updateDevice(
  db: Db,
  companyId: string,
  id: string,
  patch: Partial<typeof devices.$inferInsert>,
) {
  await db
    .update(devices)
    .set(patch)
    .where(and(eq(devices.companyId, companyId), eq(devices.id, id)));
}

export async function deleteDevice(db: Db, companyId: string, id: string) {
  await db.delete(devices).where(and(eq(devices.companyId, companyId), eq(devices.id, id)));
}

/** How many devices the company has (each takes a licence). */
export async function countDevices(db: Db, companyId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(devices).where(eq(devices.companyId, companyId));
  return row?.n ?? 0;
}

export async function unitExists(db: Db, companyId: string, unitId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: units.id })
    .from(units)
    .where(and(eq(units.companyId, companyId), eq(units.id, unitId)))
    .limit(1);
  return row !== undefined;
}

/**
 * Battery earlier and now of the company's devices `ids`: the latest reading at least 14 days old,
 * else the oldest of the last 14 days (two index seeks per device), against the device's current
 * battery, and the company's low-battery threshold for devices reporting % (alert settings).
 */
export async function batteryHistory(db: Db, companyId: string, ids: string[]) {
  if (ids.length === 0) return new Map<string, BatteryHistory>();
  const rows = rowsOf<{
    id: string;
    battery: number | null;
    unit: 'V' | '%' | null;
    earlier_battery: number | null;
    earlier_time: string | Date | null;
    low_percent: number | string | null;
  }>(
    await db.execute(sql`
      select d.id, d.battery, d.battery_unit as unit,
        coalesce(old.battery, early.battery) as earlier_battery, coalesce(old.time, early.time) as earlier_time,
        (select (s.settings->>'lowBatteryPercent')::real from alert_settings s where s.company_id = d.company_id) as low_percent
      from devices d
      left join lateral (select t.battery, t.time from telemetry t
        where t.dev_eui = d.id and t.battery is not null and t.time <= now() - interval '14 days'
        order by t.time desc limit 1) old on true
      left join lateral (select t.battery, t.time from telemetry t
        where t.dev_eui = d.id and t.battery is not null and t.time > now() - interval '14 days'
        order by t.time asc limit 1) early on true
      where d.company_id = ${companyId} and d.id = any(${sqlArray(ids, 'text')})`),
  );
  return new Map(
    rows.map((r) => [
      r.id,
      {
        battery: r.battery === null ? null : Number(r.battery),
        unit: r.unit,
        earlier:
          r.earlier_battery === null || r.earlier_time === null
            ? null
            : { battery: Number(r.earlier_battery), at: new Date(r.earlier_time) },
        lowPercent: r.low_percent === null ? null : Number(r.low_percent),
      },
    ]),
  );
}

export interface BatteryHistory {
  /** Now, in `unit`. */
  battery: number | null;
  unit: 'V' | '%' | null;
  earlier: { battery: number; at: Date } | null;
  /** The company's low-battery threshold for % devices; null = the default. */
  lowPercent: number | null;
}

/**
 * Locks the company's row until `tx` ends: registrations and deletions of one company's devices
 * wait for each other, so a licence count read in the transaction stays true until it commits.
 */
export async function lockCompanyDevices(tx: Db, companyId: string): Promise<void> {
  await tx.select({ id: companies.id }).from(companies).where(eq(companies.id, companyId)).for('update');
}

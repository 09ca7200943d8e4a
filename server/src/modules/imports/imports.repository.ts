/**
 * Import queries (decision 0063), every one scoped by the company. The inserts take their rows as
 * a fixed number of array parameters (`unnest`, as the downlink queue does), so a statement's
 * bind parameters do not grow with its rows and 10,000 rows cannot reach PostgreSQL's limit.
 */
import type { ImportDefaults, ImportKind, ImportMapping } from '@heizplan/contracts/imports';
import { and, eq, sql } from 'drizzle-orm';
import { sqlArray } from '../../db/any-of.ts';
import type { Db } from '../../db/client.ts';
import { buildings, devices, groups, importMappings, units } from '../../db/schema.ts';
import { heatingStartsChanged } from '../../heating/starts.repository.ts';
import type { DeviceInsert, UnitInsert } from './import-check.ts';

const lowerTrim = (column: typeof units.name | typeof buildings.name | typeof groups.name) =>
  sql`lower(trim(${column}))`;

/** The mapping and defaults the company used last for `kind`, if any. */
export async function findMapping(db: Db, companyId: string, kind: ImportKind) {
  const [row] = await db
    .select()
    .from(importMappings)
    .where(and(eq(importMappings.companyId, companyId), eq(importMappings.kind, kind)));
  return row;
}

/** Remembers `mapping` and `defaults` as the company's for `kind`. */
export async function saveMapping(
  db: Db,
  companyId: string,
  kind: ImportKind,
  mapping: ImportMapping,
  defaults: ImportDefaults,
) {
  const values = {
    mapping: mapping as Record<string, string>,
    defaults: defaults as Record<string, string>,
    updatedAt: new Date(),
  };
  const [row] = await db
    .insert(importMappings)
    .values({ companyId, kind, ...values })
    .onConflictDoUpdate({ target: [importMappings.companyId, importMappings.kind], set: values })
    .returning();
  return row;
}

/** The company's buildings with their floors. */
export async function companyBuildings(db: Db, companyId: string) {
  return db
    .select({ id: buildings.id, name: buildings.name, floors: buildings.floors })
    .from(buildings)
    .where(eq(buildings.companyId, companyId));
}

/** The company's groups. */
export async function companyGroups(db: Db, companyId: string) {
  return db.select({ id: groups.id, name: groups.name }).from(groups).where(eq(groups.companyId, companyId));
}

/** The company's units whose name is one of `keys` (lowercase, trimmed). */
export async function unitsNamed(db: Db, companyId: string, keys: string[]) {
  if (keys.length === 0) return [];
  return db
    .select({ id: units.id, name: units.name })
    .from(units)
    .where(
      and(eq(units.companyId, companyId), sql`${lowerTrim(units.name)} = any(${sqlArray(keys, 'text')})`),
    );
}

/** Which of `ids` (DevEUIs) are registered, and by which company. */
export async function registeredDevices(db: Db, ids: string[]) {
  if (ids.length === 0) return [];
  return db
    .select({ id: devices.id, companyId: devices.companyId })
    .from(devices)
    .where(
      sql`${devices.id} = any(${sqlArray(ids, 'text')}) or ${devices.devEui} = any(${sqlArray(ids, 'text')})`,
    );
}

/**
 * Inserts `rows` as units of the company, due at `now` so the scheduler evaluates them on its
 * next tick (as it does a fleet's units: in batches, logged); their buildings' kept heating
 * starts go stale.
 */
export async function insertUnitRows(
  db: Db,
  companyId: string,
  userId: string,
  rows: UnitInsert[],
  now: Date,
) {
  const column = <K extends keyof UnitInsert>(key: K) => rows.map((r) => r[key]);
  await db.execute(sql`
    insert into units (company_id, name, building_id, floor, group_id, wall_control_min, wall_control_max,
      created_by, next_change_at)
    select ${companyId}, u.name, u.building_id, u.floor, u.group_id, u.wall_min, u.wall_max, ${userId},
      ${now.toISOString()}::timestamptz
    from unnest(${sqlArray(column('name'), 'text')}, ${sqlArray(column('buildingId'), 'uuid')},
      ${sqlArray(column('floor'), 'text')}, ${sqlArray(column('groupId'), 'uuid')},
      ${sqlArray(column('wallControlMin'), 'real')}, ${sqlArray(column('wallControlMax'), 'real')})
      as u(name, building_id, floor, group_id, wall_min, wall_max)`);
  await heatingStartsChanged(db, { buildingIds: column('buildingId') });
}

/** A device row as stored: the AppKey already encrypted (app-key-cipher.ts). */
export interface StoredDevice extends Omit<DeviceInsert, 'appKey'> {
  appKeyEncrypted: string | null;
  appKeyLast4: string | null;
}

/** Inserts `rows` as LoRaWAN devices of the company (id = DevEUI). */
export async function insertDeviceRows(db: Db, companyId: string, userId: string, rows: StoredDevice[]) {
  const column = <K extends keyof StoredDevice>(key: K) => rows.map((r) => r[key]);
  await db.execute(sql`
    insert into devices (id, company_id, protocol, dev_eui, join_eui, app_key_encrypted, app_key_last4, model,
      unit_id, created_by)
    select d.id, ${companyId}, 'lorawan', d.id, d.join_eui, d.app_key, d.last4, d.model, d.unit_id, ${userId}
    from unnest(${sqlArray(column('devEui'), 'text')}, ${sqlArray(column('joinEui'), 'text')},
      ${sqlArray(column('appKeyEncrypted'), 'text')}, ${sqlArray(column('appKeyLast4'), 'text')},
      ${sqlArray(column('model'), 'text')}, ${sqlArray(column('unitId'), 'uuid')})
      as d(id, join_eui, app_key, last4, model, unit_id)`);
}

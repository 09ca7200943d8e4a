/**
 * SQL of device profiles (decision 0062). Every statement is scoped by company; the places of a
 * profile are its assignments (`device_profile_assignments`), one per model and place.
 */
import type { DeviceConfig, DeviceProfile, DeviceProfilePlaces } from '@heizplan/contracts/device-profiles';
import { and, asc, eq, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import { allOwned } from '../../db/owned.ts';
import { deviceProfileAssignments, deviceProfiles, devices, units } from '../../db/schema.ts';

export type ProfileRow = typeof deviceProfiles.$inferSelect;

export async function listProfiles(db: Db, companyId: string): Promise<ProfileRow[]> {
  return db
    .select()
    .from(deviceProfiles)
    .where(eq(deviceProfiles.companyId, companyId))
    .orderBy(asc(deviceProfiles.model), asc(deviceProfiles.name));
}

export async function findProfile(db: Db, companyId: string, id: string): Promise<ProfileRow | undefined> {
  const [row] = await db
    .select()
    .from(deviceProfiles)
    .where(and(eq(deviceProfiles.companyId, companyId), eq(deviceProfiles.id, id)));
  return row;
}

/** Whether another profile of the company has `name` (case-insensitive). */
export async function nameTaken(db: Db, companyId: string, name: string, exceptId?: string) {
  const rows = rowsOf<{ id: string }>(
    await db.execute(sql`select id from device_profiles
      where company_id = ${companyId} and lower(name) = lower(${name})
        ${exceptId ? sql`and id <> ${exceptId}` : sql``}`),
  );
  return rows.length > 0;
}

export async function insertProfile(
  tx: Db,
  row: { companyId: string; name: string; model: string; config: DeviceConfig },
): Promise<string> {
  const [inserted] = await tx.insert(deviceProfiles).values(row).returning({ id: deviceProfiles.id });
  return (inserted as { id: string }).id;
}

export async function updateProfile(
  tx: Db,
  companyId: string,
  id: string,
  patch: { name?: string; config?: DeviceConfig },
) {
  await tx
    .update(deviceProfiles)
    .set({ ...patch, updatedAt: new Date() })
    .where(and(eq(deviceProfiles.companyId, companyId), eq(deviceProfiles.id, id)));
}

export async function deleteProfile(tx: Db, companyId: string, id: string) {
  await tx
    .delete(deviceProfiles)
    .where(and(eq(deviceProfiles.companyId, companyId), eq(deviceProfiles.id, id)));
}

/** The places of each of the company's profiles, with the names of its rooms, by profile id. */
export async function placesByProfile(
  db: Db,
  companyId: string,
): Promise<Map<string, { places: DeviceProfilePlaces; units: DeviceProfile['units'] }>> {
  const rows = await db
    .select({ assignment: deviceProfileAssignments, unitName: units.name })
    .from(deviceProfileAssignments)
    .leftJoin(units, eq(units.id, deviceProfileAssignments.unitId))
    .where(eq(deviceProfileAssignments.companyId, companyId))
    .orderBy(asc(units.name));
  const out = new Map<string, { places: DeviceProfilePlaces; units: DeviceProfile['units'] }>();
  for (const { assignment: a, unitName } of rows) {
    const entry = out.get(a.profileId) ?? {
      places: { company: false, buildingIds: [], groupIds: [], unitIds: [] },
      units: [],
    };
    const { places } = entry;
    if (a.buildingId) places.buildingIds.push(a.buildingId);
    else if (a.groupId) places.groupIds.push(a.groupId);
    else if (a.unitId) {
      places.unitIds.push(a.unitId);
      entry.units.push({ id: a.unitId, name: unitName ?? '' });
    } else places.company = true;
    out.set(a.profileId, entry);
  }
  return out;
}

/**
 * Replaces the profile's places. A place another profile of the model held moves to this one.
 * @returns the kind of place that is not the company's, if any (nothing is written then).
 */
export async function replacePlaces(
  tx: Db,
  companyId: string,
  profile: { id: string; model: string },
  places: DeviceProfilePlaces,
): Promise<'building' | 'group' | 'unit' | null> {
  if (!(await allOwned(tx, 'buildings', companyId, places.buildingIds))) return 'building';
  if (!(await allOwned(tx, 'groups', companyId, places.groupIds))) return 'group';
  if (!(await allOwned(tx, 'units', companyId, places.unitIds))) return 'unit';
  await tx
    .delete(deviceProfileAssignments)
    .where(
      and(
        eq(deviceProfileAssignments.companyId, companyId),
        eq(deviceProfileAssignments.profileId, profile.id),
      ),
    );
  const rows = [
    ...(places.company ? [{ buildingId: null, groupId: null, unitId: null }] : []),
    ...[...new Set(places.buildingIds)].map((buildingId) => ({ buildingId, groupId: null, unitId: null })),
    ...[...new Set(places.groupIds)].map((groupId) => ({ buildingId: null, groupId, unitId: null })),
    ...[...new Set(places.unitIds)].map((unitId) => ({ buildingId: null, groupId: null, unitId })),
  ];
  if (rows.length === 0) return null;
  await tx.execute(sql`
    insert into device_profile_assignments (company_id, profile_id, model, building_id, group_id, unit_id)
    select ${companyId}, ${profile.id}, ${profile.model}, b, g, u
    from unnest(${sql.param(rows.map((r) => r.buildingId))}::uuid[], ${sql.param(rows.map((r) => r.groupId))}::uuid[],
      ${sql.param(rows.map((r) => r.unitId))}::uuid[]) as p(b, g, u)
    on conflict (company_id, model, (coalesce(building_id, group_id, unit_id, '00000000-0000-0000-0000-000000000000'::uuid)))
    do update set profile_id = excluded.profile_id`);
  return null;
}

/** Ids of the company's devices of `model`. */
export async function deviceIdsOfModel(db: Db, companyId: string, model: string): Promise<string[]> {
  const rows = await db
    .select({ id: devices.id })
    .from(devices)
    .where(and(eq(devices.companyId, companyId), eq(devices.model, model)));
  return rows.map((r) => r.id);
}

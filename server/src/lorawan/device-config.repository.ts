/**
 * The SQL side of device profiles (docs/decisions/0062): a device's configuration state read
 * next to its other columns. `configColumns` expects the device as `d` and its unit (left
 * joined) as `u`, with `profileJoin` in the FROM clause; `configStateOf` turns the row into a `DeviceConfigState`.
 */
import type { DeviceConfig, ReportedConfig } from '@heizplan/contracts/device-profiles';
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../db/client.ts';
import type { DeviceConfigState } from './device-config.ts';

/**
 * Joins, as `prof`, the profile in force for `d` — the most specific assignment of a profile of
 * its model: unit, then group, then building, then the company default.
 */
export const profileJoin = sql`left join lateral (
    select p.id as profile_id, p.config as desired_config, p.name as profile_name
    from device_profile_assignments a join device_profiles p on p.id = a.profile_id
    where a.company_id = d.company_id and a.model = d.model
      and (a.unit_id = u.id or a.group_id = u.group_id or a.building_id = u.building_id
        or (a.unit_id is null and a.group_id is null and a.building_id is null))
    order by (a.unit_id is not null) desc, (a.group_id is not null) desc, (a.building_id is not null) desc
    limit 1) prof on true`;

/** With `profileJoin`: the profile, reported configuration, radio and the sizes of the downlinks published in the last 24 hours. */
export const configColumns = sql`d.firmware, d.reported_config, d.spreading_factor, d.uplink_bytes,
  prof.desired_config, prof.profile_name,
  array(select length(x.payload) / 2 from downlinks x
    where x.device_id = d.id and x.published_at > now() - interval '1 day') as downlink_bytes_today`;

/** A row read with `configColumns` as a `DeviceConfigState`. */
export function configStateOf(
  r: Record<string, unknown>,
): DeviceConfigState & { profileName: string | null } {
  const sizes = r.downlink_bytes_today;
  return {
    firmware: r.firmware === null || r.firmware === undefined ? null : String(r.firmware),
    desired: (r.desired_config as DeviceConfig | null) ?? null,
    reported: (r.reported_config as ReportedConfig | null) ?? {},
    spreadingFactor: r.spreading_factor === null ? null : Number(r.spreading_factor),
    uplinkBytes: r.uplink_bytes === null ? null : Number(r.uplink_bytes),
    downlinkBytesToday: Array.isArray(sizes) ? sizes.map(Number) : parseArray(sizes),
    profileName: r.profile_name === null || r.profile_name === undefined ? null : String(r.profile_name),
  };
}

/** node-postgres returns int[] as an array; PGlite may hand back the text form `{1,2}`. */
function parseArray(value: unknown): number[] {
  if (typeof value !== 'string' || value.length <= 2) return [];
  return value.slice(1, -1).split(',').map(Number);
}

/** The configuration state of the company's devices `ids` (one array parameter), by device id. */
export async function deviceConfigStates(db: Db, companyId: string, ids: string[]) {
  if (ids.length === 0) return new Map<string, ReturnType<typeof configStateOf>>();
  const rows = rowsOf<Record<string, unknown>>(
    await db.execute(sql`
      select d.id, ${configColumns}
      from devices d left join units u on u.id = d.unit_id
      ${profileJoin}
      where d.company_id = ${companyId} and d.id = any(${sql.param(ids)}::text[])`),
  );
  return new Map(rows.map((r) => [String(r.id), configStateOf(r)]));
}

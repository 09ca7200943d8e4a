/**
 * The SQL side of device profiles (docs/decisions/0062): a device's configuration state read
 * next to its other columns. `configColumns` expects the device as `d` and its unit (left
 * joined) as `u`, with `profileJoin` in the FROM clause; `configStateOf` turns the row into a `DeviceConfigState`.
 */
import type { DeviceConfig, ReportedConfig } from '@heizplan/contracts/device-profiles';
import { sql } from 'drizzle-orm';
import { sqlArray } from '../db/any-of.ts';
import { type Db, rowsOf } from '../db/client.ts';
import type { DeviceConfigState } from './device-config.ts';

/** The assignment of `d`'s model at one kind of place, joined as `alias` (at most one: unique index). */
const assignmentAt = (alias: string, place: string) =>
  sql.raw(`left join device_profile_assignments ${alias} on ${alias}.company_id = d.company_id
    and ${alias}.model = d.model and ${place}`);

/**
 * Joins, as `prof`, the profile in force for `d` (its unit `u`) — the most specific assignment of
 * a profile of its model: unit, then group, then building, then the company default. Plain
 * equality joins, which the planner hashes: a fleet-wide read costs no lookup per device.
 */
export const profileJoin = sql.join(
  [
    assignmentAt('pa_u', 'pa_u.unit_id = u.id'),
    assignmentAt('pa_g', 'pa_g.group_id = u.group_id'),
    assignmentAt('pa_b', 'pa_b.building_id = u.building_id'),
    assignmentAt('pa_c', 'pa_c.unit_id is null and pa_c.group_id is null and pa_c.building_id is null'),
    sql.raw(`left join lateral (select p.id as profile_id, p.config as desired_config, p.name as profile_name
      from device_profiles p
      where p.id = coalesce(pa_u.profile_id, pa_g.profile_id, pa_b.profile_id, pa_c.profile_id)) prof on true`),
  ],
  sql` `,
);

/** With `profileJoin`: the profile, reported configuration, radio and the sizes of the downlinks published in the last 24 hours. */
export const configColumns = sql`d.firmware, d.reported_config::text as reported_config, d.spreading_factor,
  d.uplink_bytes, prof.desired_config::text as desired_config, prof.profile_id, prof.profile_name,
  d.recalibrate_requested_at is not null as recalibrate,
  array(select length(x.payload) / 2 from downlinks x
    where x.device_id = d.id and x.published_at > now() - interval '1 day') as downlink_bytes_today`;

/** Parsed configurations by their JSON text: a fleet shares a few, so most rows parse none. */
const parsedConfigs = new Map<string, DeviceConfig | ReportedConfig>();

/**
 * The configuration in `text` (JSON), the same object for the same text — which lets
 * `configDifferences` remember its answer per pair. The objects are shared: read, never change them.
 */
function parseConfig(text: unknown): DeviceConfig | ReportedConfig | null {
  if (typeof text !== 'string') return (text as DeviceConfig | null) ?? null;
  let config = parsedConfigs.get(text);
  if (config === undefined) {
    if (parsedConfigs.size >= 10_000) parsedConfigs.clear();
    config = JSON.parse(text) as DeviceConfig | ReportedConfig;
    parsedConfigs.set(text, config);
  }
  return config;
}

/** A row read with `configColumns` as a `DeviceConfigState`. */
export function configStateOf(
  r: Record<string, unknown>,
): DeviceConfigState & { profileId: string | null; profileName: string | null } {
  const sizes = r.downlink_bytes_today;
  return {
    firmware: r.firmware === null || r.firmware === undefined ? null : String(r.firmware),
    desired: parseConfig(r.desired_config) as DeviceConfig | null,
    reported: parseConfig(r.reported_config) ?? {},
    spreadingFactor: r.spreading_factor === null ? null : Number(r.spreading_factor),
    uplinkBytes: r.uplink_bytes === null ? null : Number(r.uplink_bytes),
    downlinkBytesToday: Array.isArray(sizes) ? sizes.map(Number) : parseArray(sizes),
    profileId: r.profile_id === null || r.profile_id === undefined ? null : String(r.profile_id),
    profileName: r.profile_name === null || r.profile_name === undefined ? null : String(r.profile_name),
    recalibrate: r.recalibrate === true,
  };
}

/** node-postgres returns int[] as an array; PGlite may hand back the text form `{1,2}`. */
function parseArray(value: unknown): number[] {
  if (typeof value !== 'string' || value.length <= 2) return [];
  return value.slice(1, -1).split(',').map(Number);
}

/**
 * The configuration state of the company's devices — those of `ids` (one array parameter), or
 * every one of `model` — with each device's model, by device id.
 */
export async function deviceConfigStates(
  db: Db,
  companyId: string,
  which: { ids: string[] } | { model: string },
) {
  if ('ids' in which && which.ids.length === 0) return new Map<string, DeviceConfigRow>();
  const rows = rowsOf<Record<string, unknown>>(
    await db.execute(sql`
      select d.id, d.model, ${configColumns}
      from devices d left join units u on u.id = d.unit_id
      ${profileJoin}
      where d.company_id = ${companyId}
        and ${'ids' in which ? sql`d.id = any(${sqlArray(which.ids, 'text')})` : sql`d.model = ${which.model}`}`),
  );
  return new Map<string, DeviceConfigRow>(
    rows.map((r) => [String(r.id), { ...configStateOf(r), model: String(r.model) }]),
  );
}

/** One device of `deviceConfigStates`. */
export type DeviceConfigRow = ReturnType<typeof configStateOf> & { model: string };

/** Marks the recalibration of `deviceIds` as sent (one array parameter). */
export async function recalibrationSent(db: Db, deviceIds: string[]): Promise<void> {
  if (deviceIds.length === 0) return;
  await db.execute(sql`update devices set recalibrate_requested_at = null
    where id = any(${sqlArray(deviceIds, 'text')})`);
}

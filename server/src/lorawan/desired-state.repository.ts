/**
 * What each valve should have (docs/decisions/0047, 0062, 0064): the reconcile's read of every
 * device with a setpoint in force against its newest downlink — the setpoint, what it owes of
 * its own settings and profile, and whether a failed delivery is to be repeated — and the
 * marking of downlinks the network server lost. Sets of values go as one array parameter each.
 */
import { sql } from 'drizzle-orm';
import { sqlArray } from '../db/any-of.ts';
import { type Db, rowsOf } from '../db/client.ts';
import type { LogKind } from '../heating/engine/types.ts';
import type { SetpointCommand } from '../heating/setpoint-sink.ts';
import type { AntiFreeze } from './codecs/codec.ts';
import { modelTable } from './codecs/model-table.repository.ts';
import { configColumns, configStateOf, profileJoin } from './device-config.repository.ts';
import type { DeviceConfigState } from './device-config.ts';

/** What a device reported of its own settings, its newest downlink and its company's frost protection. */
export interface SettingsState {
  /** That downlink's state, when it last changed, and its payload (hex); null without one. */
  lastState: string | null;
  lastUpdatedAt: Date | null;
  lastPayload: string | null;
  settings: { firmware: string | null; antiFreeze: AntiFreeze | null };
  /** Profile, reported configuration and airtime (device-config.ts). */
  config: DeviceConfigState;
  /** °C */
  frostProtection: number;
}

/** A device with a setpoint in force, and what was last sent to it. */
export interface DesiredState {
  command: SetpointCommand;
  model: string;
  /** °C of the device's newest downlink that was not superseded; null when it never got one. */
  lastSetpoint: number | null;
  lastAppliedAt: Date | null;
  /** Read only when asked for (`DesiredStateFilter.withSettings`). */
  own?: SettingsState;
  /**
   * Its newest downlink carries the setpoint in force but failed (or was lost), the device has
   * reported since it was published, and fewer than `MAX_REDELIVERIES` deliveries of this
   * setpoint failed: send it again. Read with settings only.
   */
  redeliver?: boolean;
}

/** Deliveries of a setpoint that may fail before it waits for the next change (and its alert stays). */
export const MAX_REDELIVERIES = 3;

/**
 * Report intervals of a device after a published downlink without any delivery report before
 * the downlink counts as lost: a class A valve takes its downlink with its next uplink, so after
 * three the network server no longer holds it (its queue was flushed by a rejoin or a restart).
 */
export const LOST_AFTER_INTERVALS = 3;

/**
 * Marks downlinks lost — published, with neither acknowledgement nor failure reported, while
 * their device went on reporting for `LOST_AFTER_INTERVALS` report intervals — as `failed`, so
 * the next full reconcile sends the setpoint again. @returns the ids marked.
 */
export async function markLostDownlinks(db: Db): Promise<string[]> {
  return rowsOf<{ id: string }>(
    await db.execute(sql`
      update downlinks dl set state = 'failed', updated_at = now()
      from devices d join ${modelTable()} on m.model = d.model
      where d.id = dl.device_id and dl.state in ('queued', 'sent') and dl.published_at is not null
        -- The device's report interval: the keep-alive it reported, else its model's default.
        and d.last_seen > dl.published_at + ${LOST_AFTER_INTERVALS}
          * coalesce((d.reported_config->>'keepAliveMinutes')::int * 60, m.interval_s) * interval '1 second'
      returning dl.id`),
  ).map((r) => r.id);
}

/**
 * Which devices `desiredStates` reads: units whose setpoint took effect within `withinMs`, or
 * these ids; `withSettings` adds what the device owes of its own settings (a heavier read, for
 * the full reconcile and freshly paired valves, not the frequent recent-changes pass).
 */
export interface DesiredStateFilter {
  withinMs?: number;
  /**
   * Leaves out units whose setpoint changed (a heating log entry) less than this many ms ago: the
   * instance that applied the change records its downlink itself within moments, and a reconcile
   * reading in between would send the same setpoint a second time under another applied-at.
   */
  settledMs?: number;
  deviceIds?: string[];
  withSettings?: boolean;
}

/**
 * Whether a device in its setpoint may owe settings of its own or of its profile — a superset
 * of what `owesSettings` (downlink-queue.ts) decides, so a fleet in sync is not read row by row:
 * its last downlink is settled and the profile is not contained in what it reported, or its
 * firmware or frost protection is not known as the company's (device-settings.ts).
 */
const owesSettingsMaybe = sql`(last.state in ('acknowledged', 'failed') and (
    (prof.desired_config is not null and not d.reported_config @> prof.desired_config)
    or d.recalibrate_requested_at is not null or d.firmware is null or d.anti_freeze is null
    or (d.anti_freeze->>'target')::real <> greatest(5, round(c.frost_protection))
    or abs((d.anti_freeze->>'activation')::real - (greatest(5, round(c.frost_protection)) - 1)) >= 0.05
    or abs((d.anti_freeze->>'deactivation')::real - (greatest(5, round(c.frost_protection)) + 2)) >= 0.05))`;

/** `DesiredState.redeliver` in SQL. */
const redeliverable = sql`(last.state = 'failed' and d.last_seen > coalesce(last.published_at, last.updated_at)
    and (select count(*) from downlinks f
      where f.device_id = d.id and f.state = 'failed' and f.setpoint = last.setpoint
        and f.created_at >= u.setpoint_since) < ${MAX_REDELIVERIES})`;

/**
 * Up to `limit` devices with id above `afterDeviceId` (ordered by id) whose unit has a setpoint
 * and that may owe a downlink — the last one carries another setpoint or none, or (with
 * settings) its delivery failed and may be repeated or the device may owe its settings — each
 * with its unit's setpoint in force and the
 * device's newest downlink that was not superseded, narrowed by `filter`.
 */
export async function desiredStates(
  db: Db,
  afterDeviceId: string,
  limit: number,
  { withinMs, settledMs, deviceIds, withSettings = false }: DesiredStateFilter = {},
): Promise<DesiredState[]> {
  const query = sql`
      select d.id as device_id, d.model, u.company_id, u.id as unit_id, u.setpoint, u.setpoint_since,
        u.setpoint_source, u.ignore_wall_control, u.wall_control_min, u.wall_control_max,
        last.setpoint as last_setpoint, last.applied_at as last_applied_at
        ${
          withSettings
            ? sql`, last.state as last_state, last.updated_at as last_updated_at, last.payload as last_payload,
                d.anti_freeze, ${configColumns}, c.frost_protection, ${redeliverable} as redeliver`
            : sql``
        }
      from devices d
      join units u on u.id = d.unit_id
      ${withSettings ? sql`join companies c on c.id = u.company_id ${profileJoin}` : sql``}
      left join lateral (
        select dl.setpoint, dl.applied_at
          ${withSettings ? sql`, dl.state, dl.updated_at, dl.published_at, dl.payload` : sql``}
        from downlinks dl
        where dl.device_id = d.id and dl.state <> 'superseded'
        order by dl.applied_at desc, dl.created_at desc
        limit 1
      ) last on true
      where d.id > ${afterDeviceId} and u.setpoint is not null and u.setpoint_since is not null
        and u.setpoint_source is not null
        ${withinMs === undefined ? sql`` : sql`and u.setpoint_since >= now() - ${withinMs} * interval '1 millisecond'`}
        ${deviceIds === undefined ? sql`` : sql`and d.id = any(${sqlArray(deviceIds, 'text')})`}
        ${
          settledMs === undefined
            ? sql``
            : sql`and not exists (select 1 from heating_log h
                where h.unit_id = u.id and h.at > now() - ${settledMs} * interval '1 millisecond')`
        }
        and (last.setpoint is distinct from u.setpoint
          ${withSettings ? sql`or ${redeliverable} or ${owesSettingsMaybe}` : sql``})
      order by d.id
      limit ${limit}`;
  // The settings read's row estimates are high enough to JIT-compile every chunk: tens of
  // milliseconds of compiling for a read of a few hundred.
  const rows = rowsOf<Record<string, unknown>>(
    withSettings
      ? await db.transaction(async (tx) => {
          await tx.execute(sql`set local jit = off`);
          return tx.execute(query);
        })
      : await db.execute(query),
  );
  const date = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string));
  return rows.map((r) => ({
    model: String(r.model),
    lastSetpoint: r.last_setpoint === null ? null : Number(r.last_setpoint),
    lastAppliedAt: date(r.last_applied_at),
    ...(withSettings
      ? {
          redeliver: r.redeliver === true,
          own: {
            lastState: r.last_state === null ? null : String(r.last_state),
            lastUpdatedAt: date(r.last_updated_at),
            lastPayload: r.last_payload === null ? null : String(r.last_payload),
            settings: {
              firmware: r.firmware === null ? null : String(r.firmware),
              antiFreeze: (r.anti_freeze as AntiFreeze | null) ?? null,
            },
            config: configStateOf(r),
            frostProtection: Number(r.frost_protection),
          },
        }
      : {}),
    command: {
      companyId: String(r.company_id),
      unitId: String(r.unit_id),
      deviceId: String(r.device_id),
      setpoint: Number(r.setpoint),
      wallControl:
        r.wall_control_min === null && r.wall_control_max === null
          ? null
          : {
              min: r.wall_control_min === null ? null : Number(r.wall_control_min),
              max: r.wall_control_max === null ? null : Number(r.wall_control_max),
            },
      ignoreWallControl: Boolean(r.ignore_wall_control),
      reason: r.setpoint_source as LogKind,
      at: new Date(r.setpoint_since as string),
    },
  }));
}

/**
 * The SQL of the downlink queue (docs/decisions/0047). Every statement takes its rows as a fixed
 * number of array parameters (`unnest`, `= any(…)`), never one bind parameter per row: a
 * statement's parameter count does not grow with the input, so PostgreSQL's limit of 65,535 bind
 * parameters cannot be reached however many setpoints change at once.
 */
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../db/client.ts';
import type { LogKind } from '../heating/types.ts';
import type { SetpointCommand } from '../scheduling/setpoint-sink.ts';
import type { AntiFreeze } from './codecs/codec.ts';
import { listCodecs } from './codecs/registry.ts';
import { configColumns, configStateOf, profileJoin } from './device-config.repository.ts';
import type { DeviceConfigState } from './device-config.ts';

/** A command encoded for its device, ready to be stored. */
export interface EncodedCommand {
  companyId: string;
  unitId: string;
  deviceId: string;
  devEui: string;
  /** °C, clamped and rounded to the device's range and step. */
  setpoint: number;
  fPort: number;
  /** Application payload, lowercase hex. */
  payload: string;
  reason: string;
  appliedAt: Date;
}

/** What publishing a recorded downlink needs. */
export interface PublishRow {
  id: string;
  devEui: string;
  fPort: number;
  payload: string;
}

/** A command set aside, as stored in `downlink_dead_letters`. */
export interface DeadLetter {
  companyId: string;
  unitId: string | null;
  deviceId: string;
  setpoint: number;
  reason: string;
  appliedAt: Date;
}

const param = (values: readonly unknown[], type: string) => sql`${sql.param(values)}::${sql.raw(type)}[]`;
const leaseEnd = (leaseMs: number) => sql`now() + ${leaseMs} * interval '1 millisecond'`;

/**
 * DevEUI, model, own settings (firmware, frost protection as reported), configuration state
 * (device-config.ts) and the company's frost-protection setpoint (°C) of the given devices (ids
 * as one array parameter).
 */
export async function devicesByIds(db: Db, ids: string[]) {
  const rows = rowsOf<Record<string, unknown>>(
    await db.execute(sql`
      select d.id, d.dev_eui, d.model, d.anti_freeze, c.frost_protection, ${configColumns}
      from devices d join companies c on c.id = d.company_id
      left join units u on u.id = d.unit_id
      ${profileJoin}
      where d.id = any(${param(ids, 'text')})`),
  );
  return new Map(
    rows.map((r) => [
      String(r.id),
      {
        devEui: r.dev_eui === null ? null : String(r.dev_eui),
        model: String(r.model),
        settings: {
          firmware: r.firmware === null ? null : String(r.firmware),
          antiFreeze: (r.anti_freeze as AntiFreeze | null) ?? null,
        },
        config: configStateOf(r),
        frostProtection: Number(r.frost_protection),
      },
    ]),
  );
}

/**
 * Stores the commands as queued downlinks under a publish lease of `leaseMs`, in one
 * transaction, and returns the new rows still worth publishing. A command whose company is gone
 * is dropped, one whose unit is gone keeps no unit; a repeat of a stored command (same device,
 * applied-at and setpoint) adds nothing. A command older than one already stored for its device
 * is superseded at once; older queued ones of its device are superseded by it.
 */
export async function insertDownlinks(
  db: Db,
  commands: EncodedCommand[],
  leaseMs: number,
): Promise<PublishRow[]> {
  const column = <K extends keyof EncodedCommand>(key: K) => commands.map((c) => c[key]);
  return db.transaction(async (tx) => {
    const inserted = rowsOf<{ id: string; dev_eui: string; f_port: number; payload: string }>(
      await tx.execute(sql`
        insert into downlinks (company_id, unit_id, device_id, dev_eui, setpoint, f_port, payload, reason,
          applied_at, publish_lease_until)
        select c.company_id, u.id, c.device_id, c.dev_eui, c.setpoint, c.f_port, c.payload, c.reason,
          c.applied_at, ${leaseEnd(leaseMs)}
        from unnest(${param(column('companyId'), 'uuid')}, ${param(column('unitId'), 'uuid')},
          ${param(column('deviceId'), 'text')}, ${param(column('devEui'), 'text')},
          ${param(column('setpoint'), 'real')}, ${param(column('fPort'), 'int')},
          ${param(column('payload'), 'text')}, ${param(column('reason'), 'text')},
          ${param(
            commands.map((c) => c.appliedAt.toISOString()),
            'timestamptz',
          )}) as c(company_id, unit_id, device_id, dev_eui, setpoint, f_port, payload, reason, applied_at)
        join companies co on co.id = c.company_id
        left join units u on u.id = c.unit_id
        on conflict do nothing
        returning id, dev_eui, f_port, payload`),
    );
    if (inserted.length === 0) return [];
    const ids = param(
      inserted.map((r) => r.id),
      'uuid',
    );
    // A command that arrives after a newer one of its device (a recovery racing the scheduler)
    // is stale: sending it would leave the valve on the older setpoint.
    const stale = await tx.execute(sql`
      update downlinks d set state = 'superseded', updated_at = now()
      where d.id = any(${ids}) and exists (
        select 1 from downlinks o
        where o.device_id = d.device_id and o.applied_at > d.applied_at and o.id <> d.id)
      returning d.id`);
    // Older, not yet sent setpoints of these devices are obsolete once a newer one exists.
    const superseded = await tx.execute(sql`
      update downlinks d set state = 'superseded', updated_at = now()
      from downlinks n
      where n.id = any(${ids}) and n.state = 'queued' and d.device_id = n.device_id
        and d.state = 'queued' and d.id <> n.id and d.applied_at <= n.applied_at
      returning d.id`);
    const dropped = new Set(
      [stale, superseded].flatMap((r) => rowsOf<{ id: string }>(r).map((row) => row.id)),
    );
    return inserted
      .filter((row) => !dropped.has(row.id))
      .map((r) => ({ id: r.id, devEui: r.dev_eui, fPort: Number(r.f_port), payload: r.payload }));
  });
}

/** Marks downlinks handed to the broker: published now, lease given up. */
export async function markPublished(db: Db, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.execute(sql`
    update downlinks set published_at = now(), queue_item_id = id::text, publish_lease_until = null,
      updated_at = now()
    where id = any(${param(ids, 'uuid')})`);
}

/**
 * Gives up the lease of downlinks whose publish failed, so the next `claimUnpublished` retries
 * them. With `counted` (the broker was connected and still refused) each failure counts; rows
 * reaching `maxAttempts` become `failed` and are returned to be set aside.
 */
export async function releaseFailed(
  db: Db,
  ids: string[],
  counted: boolean,
  maxAttempts: number,
): Promise<DeadLetter[]> {
  if (ids.length === 0) return [];
  const rows = rowsOf<Record<string, unknown>>(
    await db.execute(sql`
      update downlinks set publish_lease_until = null,
        publish_attempts = publish_attempts + ${counted ? 1 : 0},
        state = case when publish_attempts + ${counted ? 1 : 0} >= ${maxAttempts} then 'failed' else state end,
        updated_at = now()
      where id = any(${param(ids, 'uuid')})
      returning company_id, unit_id, device_id, setpoint, reason, applied_at, state`),
  );
  return rows
    .filter((r) => r.state === 'failed')
    .map((r) => ({
      companyId: String(r.company_id),
      unitId: r.unit_id === null ? null : String(r.unit_id),
      deviceId: String(r.device_id),
      setpoint: Number(r.setpoint),
      reason: String(r.reason),
      appliedAt: new Date(r.applied_at as string),
    }));
}

/**
 * Claims up to `limit` recorded downlinks that never reached the broker and that no instance is
 * publishing (no live lease), oldest first, under a lease of `leaseMs`.
 */
export async function claimUnpublished(db: Db, limit: number, leaseMs: number): Promise<PublishRow[]> {
  const rows = rowsOf<{ id: string; dev_eui: string; f_port: number; payload: string; created_at: string }>(
    await db.execute(sql`
      update downlinks set publish_lease_until = ${leaseEnd(leaseMs)}
      where id in (
        select id from downlinks
        where published_at is null and state = 'queued'
          and (publish_lease_until is null or publish_lease_until < now())
        order by created_at
        limit ${limit}
        for update skip locked)
      returning id, dev_eui, f_port, payload, created_at`),
  );
  return rows
    .sort((a, b) => new Date(a.created_at).getTime() - new Date(b.created_at).getTime())
    .map((r) => ({ id: r.id, devEui: r.dev_eui, fPort: Number(r.f_port), payload: r.payload }));
}

/**
 * Stores commands set aside; one already there counts up its attempts. @returns how many rows
 * were written or counted.
 */
export async function storeDeadLetters(
  db: Db,
  letters: DeadLetter[],
  stage: 'record' | 'publish',
  error: string,
): Promise<void> {
  if (letters.length === 0) return;
  const column = <K extends keyof DeadLetter>(key: K) => letters.map((l) => l[key]);
  await db.execute(sql`
    insert into downlink_dead_letters (company_id, unit_id, device_id, setpoint, reason, applied_at, stage, error)
    select c.company_id, c.unit_id, c.device_id, c.setpoint, c.reason, c.applied_at, ${stage}, ${error.slice(0, 2000)}
    from unnest(${param(column('companyId'), 'uuid')}, ${param(column('unitId'), 'uuid')},
      ${param(column('deviceId'), 'text')}, ${param(column('setpoint'), 'real')},
      ${param(column('reason'), 'text')},
      ${param(
        letters.map((l) => l.appliedAt.toISOString()),
        'timestamptz',
      )}) as c(company_id, unit_id, device_id, setpoint, reason, applied_at)
    on conflict (device_id, applied_at, setpoint) do update
      set attempts = downlink_dead_letters.attempts + 1, error = excluded.error, stage = excluded.stage,
        updated_at = now()`);
}

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

/** A device's report interval, s: the keep-alive it reported, else its model's default. */
const reportIntervalSql = sql`coalesce((d.reported_config->>'keepAliveMinutes')::int * 60, case d.model
  ${sql.join(
    listCodecs().map((c) => sql`when ${c.model} then ${c.reportIntervalS}`),
    sql` `,
  )} else 3600 end)`;

/**
 * Marks downlinks lost — published, with neither acknowledgement nor failure reported, while
 * their device went on reporting for `LOST_AFTER_INTERVALS` report intervals — as `failed`, so
 * the next full reconcile sends the setpoint again. @returns the ids marked.
 */
export async function markLostDownlinks(db: Db): Promise<string[]> {
  return rowsOf<{ id: string }>(
    await db.execute(sql`
      update downlinks dl set state = 'failed', updated_at = now()
      from devices d
      where d.id = dl.device_id and dl.state in ('queued', 'sent') and dl.published_at is not null
        and d.last_seen > dl.published_at + ${LOST_AFTER_INTERVALS} * ${reportIntervalSql} * interval '1 second'
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
  { withinMs, deviceIds, withSettings = false }: DesiredStateFilter = {},
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
        ${deviceIds === undefined ? sql`` : sql`and d.id = any(${param(deviceIds, 'text')})`}
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

/** Seconds since the oldest recorded downlink still waiting for the broker was queued; null = none. */
export async function oldestUnpublishedSeconds(db: Db): Promise<number | null> {
  const [row] = rowsOf<{ age: string | number | null }>(
    await db.execute(sql`
      select extract(epoch from now() - min(created_at)) as age
      from downlinks where published_at is null and state = 'queued'`),
  );
  return row?.age === null || row?.age === undefined ? null : Number(row.age);
}

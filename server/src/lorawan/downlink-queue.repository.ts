/**
 * The SQL of the downlink queue (docs/decisions/0047). Every statement takes its rows as a fixed
 * number of array parameters (`unnest`, `= any(…)`), never one bind parameter per row: a
 * statement's parameter count does not grow with the input, so PostgreSQL's limit of 65,535 bind
 * parameters cannot be reached however many setpoints change at once.
 */
import { sql } from 'drizzle-orm';
import { sqlArray } from '../db/any-of.ts';
import { type Db, rowsOf } from '../db/client.ts';
import type { AntiFreeze } from './codecs/codec.ts';
import { configColumns, configStateOf, profileJoin } from './device-config.repository.ts';

/** A command encoded for its device, ready to be stored. */
export interface EncodedCommand {
  companyId: string;
  /** null for a device in no unit (a circuit's relay). */
  unitId: string | null;
  deviceId: string;
  devEui: string;
  /** °C, clamped and rounded to the device's range and step; null for a raw command (a relay's). */
  setpoint: number | null;
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
  /** °C; null for a raw command. */
  setpoint: number | null;
  reason: string;
  appliedAt: Date;
}

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
      where d.id = any(${sqlArray(ids, 'text')})`),
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
 * The device of `companyId` with DevEUI `devEui` (lower-case hex, as stored) and its model;
 * undefined when the company has none.
 */
export async function deviceOfCompanyByDevEui(
  db: Db,
  companyId: string,
  devEui: string,
): Promise<{ id: string; devEui: string; model: string } | undefined> {
  const [row] = rowsOf<{ id: string; dev_eui: string; model: string }>(
    await db.execute(sql`
      select id, dev_eui, model from devices
      where company_id = ${companyId} and dev_eui = ${devEui.toLowerCase()}
      limit 1`),
  );
  return row ? { id: row.id, devEui: row.dev_eui, model: row.model } : undefined;
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
        from unnest(${sqlArray(column('companyId'), 'uuid')}, ${sqlArray(column('unitId'), 'uuid')},
          ${sqlArray(column('deviceId'), 'text')}, ${sqlArray(column('devEui'), 'text')},
          ${sqlArray(column('setpoint'), 'real')}, ${sqlArray(column('fPort'), 'int')},
          ${sqlArray(column('payload'), 'text')}, ${sqlArray(column('reason'), 'text')},
          ${sqlArray(
            commands.map((c) => c.appliedAt.toISOString()),
            'timestamptz',
          )}) as c(company_id, unit_id, device_id, dev_eui, setpoint, f_port, payload, reason, applied_at)
        join companies co on co.id = c.company_id
        left join units u on u.id = c.unit_id
        on conflict do nothing
        returning id, dev_eui, f_port, payload`),
    );
    if (inserted.length === 0) return [];
    const ids = sqlArray(
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
    where id = any(${sqlArray(ids, 'uuid')})`);
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
      where id = any(${sqlArray(ids, 'uuid')})
      returning company_id, unit_id, device_id, setpoint, reason, applied_at, state`),
  );
  return rows
    .filter((r) => r.state === 'failed')
    .map((r) => ({
      companyId: String(r.company_id),
      unitId: r.unit_id === null ? null : String(r.unit_id),
      deviceId: String(r.device_id),
      setpoint: r.setpoint === null ? null : Number(r.setpoint),
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
    from unnest(${sqlArray(column('companyId'), 'uuid')}, ${sqlArray(column('unitId'), 'uuid')},
      ${sqlArray(column('deviceId'), 'text')}, ${sqlArray(column('setpoint'), 'real')},
      ${sqlArray(column('reason'), 'text')},
      ${sqlArray(
        letters.map((l) => l.appliedAt.toISOString()),
        'timestamptz',
      )}) as c(company_id, unit_id, device_id, setpoint, reason, applied_at)
    on conflict (device_id, applied_at, setpoint) do update
      set attempts = downlink_dead_letters.attempts + 1, error = excluded.error, stage = excluded.stage,
        updated_at = now()`);
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

/** Resolves when the database answers a trivial query; rejects otherwise. */
export async function pingDatabase(db: Db): Promise<void> {
  await db.execute(sql`select 1`);
}

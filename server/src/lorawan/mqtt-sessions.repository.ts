/**
 * Leases on the persistent MQTT sessions in `mqtt_sessions` (docs/decisions/0032). Every claim
 * is one statement that only succeeds on a free row — never held, or its lease run out by the
 * database's clock — so two instances never use one session at once; `FOR UPDATE SKIP LOCKED`
 * lets instances claiming at the same moment pick different rows instead of waiting.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';

/** A session as the registry knows it. */
export interface SessionRow {
  clientId: string;
  /** Topic filters it subscribes at the broker; empty once ended. */
  filters: string[];
}

const rowsOf = (result: unknown) => (result as { rows: Record<string, unknown>[] }).rows;
const leaseEnd = (leaseMs: number) => sql`now() + ${leaseMs} * interval '1 millisecond'`;
const free = sql`(lease_until is null or lease_until < now())`;

/** Extends `holder`'s leases on `clientIds` by `leaseMs`; @returns the ids it still holds. */
export async function renewLeases(db: Db, holder: string, clientIds: string[], leaseMs: number) {
  if (clientIds.length === 0) return [];
  const result = await db.execute(sql`
    update mqtt_sessions set lease_until = ${leaseEnd(leaseMs)}
    where holder = ${holder} and client_id = any(${sql.param(clientIds)}::text[])
    returning client_id`);
  return rowsOf(result).map((r) => String(r.client_id));
}

/**
 * Claims the plain session `clientId` (created on first use) for `filters` when it is free, or
 * regardless with `takeOver` (the embedded broker: no other process can hold it). @returns
 * undefined when another holder has it, else whether the session was known before (a broker
 * that keeps sessions must then still have it).
 */
export async function claimPlain(
  db: Db,
  options: { holder: string; clientId: string; filters: string[]; leaseMs: number; takeOver: boolean },
): Promise<{ existed: boolean } | undefined> {
  const { holder, clientId, filters, leaseMs, takeOver } = options;
  const result = await db.execute(sql`
    insert into mqtt_sessions as s (client_id, slot, filters, holder, lease_until)
    values (${clientId}, null, ${sql.param(filters)}::text[], ${holder}, ${leaseEnd(leaseMs)})
    on conflict (client_id) do update
      set filters = excluded.filters, holder = excluded.holder, lease_until = excluded.lease_until
      where ${takeOver ? sql`true` : sql`s.lease_until is null or s.lease_until < now() or s.holder = ${holder}`}
    returning client_id, xmax <> 0 as existed`);
  const [row] = rowsOf(result);
  return row ? { existed: Boolean(row.existed) } : undefined;
}

/**
 * Claims the lowest free member session `<base>-<n>` of a shared subscription, or adds member
 * n = highest + 1 when every one is held. A dead member's session is thereby resumed by the next
 * instance that starts, with what the broker queued for it. @returns its client id and whether
 * it was resumed (known before), or undefined when another instance took the new number first
 * (the caller tries again on its next round).
 */
export async function claimMember(
  db: Db,
  options: { holder: string; base: string; filters: string[]; leaseMs: number },
): Promise<{ clientId: string; existed: boolean } | undefined> {
  const { holder, base, filters, leaseMs } = options;
  const member = sql`client_id = ${base}::text || '-' || slot`;
  const claimed = await db.execute(sql`
    with candidate as (
      select client_id from mqtt_sessions
      where slot is not null and ${member} and ${free}
      order by slot limit 1 for update skip locked
    )
    update mqtt_sessions s
    set holder = ${holder}, lease_until = ${leaseEnd(leaseMs)}, filters = ${sql.param(filters)}::text[]
    from candidate where s.client_id = candidate.client_id
    returning s.client_id`);
  const [row] = rowsOf(claimed);
  if (row) return { clientId: String(row.client_id), existed: true };
  const added = await db.execute(sql`
    insert into mqtt_sessions (client_id, slot, filters, holder, lease_until)
    select ${base}::text || '-' || n, n, ${sql.param(filters)}::text[], ${holder}, ${leaseEnd(leaseMs)}
    from (select coalesce(max(slot), 0) + 1 as n from mqtt_sessions where slot is not null and ${member}) next
    on conflict (client_id) do nothing
    returning client_id`);
  const [created] = rowsOf(added);
  return created ? { clientId: String(created.client_id), existed: false } : undefined;
}

/**
 * Claims an orphan: a session other than `except` whose lease ran out while it still subscribes
 * something, i.e. the broker still queues uplinks for an instance that is gone. @returns it.
 */
export async function claimOrphan(
  db: Db,
  options: { holder: string; except: string[]; leaseMs: number },
): Promise<SessionRow | undefined> {
  const { holder, except, leaseMs } = options;
  const result = await db.execute(sql`
    with orphan as (
      select client_id from mqtt_sessions
      where cardinality(filters) > 0 and ${free} and client_id <> all(${sql.param(except)}::text[])
      order by client_id limit 1 for update skip locked
    )
    update mqtt_sessions s set holder = ${holder}, lease_until = ${leaseEnd(leaseMs)}
    from orphan where s.client_id = orphan.client_id
    returning s.client_id, s.filters`);
  const [row] = rowsOf(result);
  return row ? { clientId: String(row.client_id), filters: row.filters as string[] } : undefined;
}

/**
 * Registers a session that may exist at the broker from before the registry (the plain session
 * of a single instance, before shared subscriptions), so it is adopted and ended like an orphan.
 */
export async function registerSession(db: Db, clientId: string, filters: string[]) {
  await db.execute(sql`
    insert into mqtt_sessions (client_id, slot, filters)
    values (${clientId}, null, ${sql.param(filters)}::text[])
    on conflict (client_id) do nothing`);
}

/** Records that `clientId` subscribes nothing any more and frees it. */
export async function endSession(db: Db, holder: string, clientId: string) {
  await db.execute(sql`
    update mqtt_sessions set filters = '{}', holder = null, lease_until = null
    where client_id = ${clientId} and holder = ${holder}`);
}

/** Frees `holder`'s leases on `clientIds` at once (a clean stop), so others need not wait them out. */
export async function releaseLeases(db: Db, holder: string, clientIds: string[]) {
  if (clientIds.length === 0) return;
  await db.execute(sql`
    update mqtt_sessions set holder = null, lease_until = null
    where holder = ${holder} and client_id = any(${sql.param(clientIds)}::text[])`);
}

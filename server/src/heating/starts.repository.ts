/**
 * Tomorrow's heating start kept per building (`building_heating_starts`, decision 0069): read and
 * stored by the buildings list, marked stale by every path that changes what a unit heats by —
 * `inputsChanged`, whether it evaluates or marks due — in the change's own transaction.
 */
import { sql } from 'drizzle-orm';
import { sqlArray } from '../db/any-of.ts';
import { type Db, rowsOf } from '../db/client.ts';
import { buildingHeatingStarts } from '../db/schema.ts';

/** Whose kept starts a change makes stale: units' buildings, buildings, or a whole company's. */
export type HeatingStartsScope =
  | { unitIds: readonly string[] }
  | { buildingIds: readonly (string | null)[] }
  | { companyId: string };

/**
 * Marks the kept heating starts of the buildings in `scope` stale: `day` null, `version` + 1 (a row
 * is created when there is none, so a list computing at the same time cannot store a value from
 * before the change). Units without building and unknown ids are skipped. Call in the transaction
 * that changes the inputs, after units moved in (`unitIds` reads their current building); a unit
 * moving out needs its old building named before the move. Rows are taken in building order so
 * two such statements never wait on each other crosswise.
 */
export async function heatingStartsChanged(db: Db, scope: HeatingStartsScope): Promise<void> {
  let source: ReturnType<typeof sql>;
  if ('companyId' in scope) {
    source = sql`select id, company_id from buildings where company_id = ${scope.companyId}`;
  } else if ('buildingIds' in scope) {
    const ids = [...new Set(scope.buildingIds.filter((id): id is string => id !== null))];
    if (ids.length === 0) return;
    source = sql`select id, company_id from buildings where id = any(${sqlArray(ids, 'uuid')})`;
  } else {
    if (scope.unitIds.length === 0) return;
    source = sql`select distinct building_id, company_id from units
      where id = any(${sqlArray(scope.unitIds, 'uuid')}) and building_id is not null`;
  }
  await db.execute(sql`
    insert into ${buildingHeatingStarts} (building_id, company_id)
    select s.building_id, s.company_id from (${source}) as s(building_id, company_id)
    order by s.building_id
    on conflict (building_id) do update
      set version = ${buildingHeatingStarts}.version + 1, day = null`);
}

/** A building's kept start as read before computing: `version` 0 when it has no row. */
export interface KeptHeatingStart {
  buildingId: string;
  version: number;
  /** Local date `YYYY-MM-DD` the start is for; null = stale. */
  day: string | null;
  startAt: Date | null;
  computedAt: Date | null;
}

/** The kept starts of `buildingIds` that have a row, by building id. */
export async function keptHeatingStarts(
  db: Db,
  buildingIds: readonly string[],
): Promise<Map<string, KeptHeatingStart>> {
  if (buildingIds.length === 0) return new Map();
  const rows = rowsOf<{
    building_id: string;
    version: number;
    day: string | null;
    start_at: string | Date | null;
    computed_at: string | Date | null;
  }>(
    await db.execute(sql`
      select building_id, version, day, start_at, computed_at from ${buildingHeatingStarts}
      where building_id = any(${sqlArray(buildingIds, 'uuid')})`),
  );
  const instant = (value: string | Date | null) => (value === null ? null : new Date(value));
  return new Map(
    rows.map((r) => [
      r.building_id,
      {
        buildingId: r.building_id,
        version: Number(r.version),
        day: r.day,
        startAt: instant(r.start_at),
        computedAt: instant(r.computed_at),
      },
    ]),
  );
}

/**
 * Keeps the starts computed at `computedAt` for `day`, each only while the building's `version`
 * is still the one read before computing (0 = no row then): a change that came in between has
 * made the value stale and stays so. Buildings deleted meanwhile are skipped.
 */
export async function keepHeatingStarts(
  db: Db,
  day: string,
  computedAt: Date,
  starts: readonly { buildingId: string; version: number; startAt: Date | null }[],
): Promise<void> {
  if (starts.length === 0) return;
  await db.execute(sql`
    insert into ${buildingHeatingStarts} (building_id, company_id, version, day, start_at, computed_at)
    select b.id, b.company_id, k.version, ${day}, k.start_at, ${computedAt.toISOString()}::timestamptz
    from unnest(${sqlArray(
      starts.map((s) => s.buildingId),
      'uuid',
    )}, ${sqlArray(
      starts.map((s) => s.version),
      'integer',
    )}, ${sqlArray(
      starts.map((s) => s.startAt?.toISOString() ?? null),
      'timestamptz',
    )}) as k(building_id, version, start_at)
    join buildings b on b.id = k.building_id
    order by b.id
    on conflict (building_id) do update
      set day = excluded.day, start_at = excluded.start_at, computed_at = excluded.computed_at
      where ${buildingHeatingStarts}.version = excluded.version`);
}

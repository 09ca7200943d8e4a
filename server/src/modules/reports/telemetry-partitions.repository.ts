/**
 * Monthly partitions of `telemetry` and the retention of raw uplinks (decision 0061).
 *
 * Partitions are named `telemetry_YYYY_MM` and span a UTC month. The job creates the current
 * month and the next two ahead; rows that arrived for a month without a partition sit in
 * `telemetry_default` and move into the month's partition when it is created. Retention drops the
 * partitions that end before the cut-off and deletes older rows left in the default partition.
 * Both are idempotent, so every instance may run them.
 */
import { sql } from 'drizzle-orm';
import { DateTime } from 'luxon';
import { type Db, rowsOf } from '../../db/client.ts';

const PARTITION = /^telemetry_(\d{4})_(\d{2})$/;

const monthStart = (at: Date) => DateTime.fromJSDate(at, { zone: 'utc' }).startOf('month');

/** The month partitions there are, oldest first: name and the UTC month start. */
export async function telemetryPartitions(db: Db): Promise<{ name: string; month: DateTime }[]> {
  const rows = rowsOf<{ name: string }>(
    await db.execute(sql`
      select c.relname as name from pg_inherits i
      join pg_class c on c.oid = i.inhrelid
      join pg_class p on p.oid = i.inhparent
      where p.relname = 'telemetry'`),
  );
  return rows
    .flatMap(({ name }) => {
      const m = PARTITION.exec(name);
      return m ? [{ name, month: DateTime.utc(Number(m[1]), Number(m[2]), 1) }] : [];
    })
    .sort((a, b) => a.month.toMillis() - b.month.toMillis());
}

/**
 * Creates the partitions of `now`'s month and `monthsAhead` months after it that are missing,
 * moving rows of those months out of the default partition first. @returns the names created.
 */
export async function ensureTelemetryPartitions(db: Db, now: Date, monthsAhead = 2): Promise<string[]> {
  const have = new Set((await telemetryPartitions(db)).map((p) => p.name));
  const created: string[] = [];
  for (let i = 0; i <= monthsAhead; i += 1) {
    const from = monthStart(now).plus({ months: i });
    const name = `telemetry_${from.toFormat('yyyy_MM')}`;
    if (have.has(name)) continue;
    const f = from.toISO();
    const t = from.plus({ months: 1 }).toISO();
    await db.transaction(async (tx) => {
      await tx.execute(sql`create temporary table telemetry_moving (like telemetry) on commit drop`);
      await tx.execute(sql`
        with moved as (delete from telemetry_default where time >= ${f}::timestamptz and time < ${t}::timestamptz returning *)
        insert into telemetry_moving select * from moved`);
      await tx.execute(
        sql.raw(
          `create table if not exists "${name}" partition of telemetry for values from ('${f}') to ('${t}')`,
        ),
      );
      await tx.execute(sql`insert into telemetry select * from telemetry_moving`);
    });
    created.push(name);
  }
  return created;
}

/**
 * Deletes raw telemetry older than `retentionMonths` full months before `now`'s month: drops
 * every partition that ends before the cut-off and deletes older rows of the default partition.
 * Rollups stay. @returns the cut-off and the partitions dropped.
 */
export async function purgeTelemetry(
  db: Db,
  now: Date,
  retentionMonths: number,
): Promise<{ cutoff: Date; dropped: string[] }> {
  const cutoff = monthStart(now).minus({ months: retentionMonths });
  const dropped: string[] = [];
  for (const partition of await telemetryPartitions(db)) {
    if (partition.month.plus({ months: 1 }) > cutoff) break;
    await db.execute(sql.raw(`drop table if exists "${partition.name}"`));
    dropped.push(partition.name);
  }
  await db.execute(sql`delete from telemetry where time < ${cutoff.toISO()}::timestamptz`);
  return { cutoff: cutoff.toJSDate(), dropped };
}

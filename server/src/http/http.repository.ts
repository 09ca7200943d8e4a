/**
 * The shared rate-limit windows (`rate_limit_windows`: hits and the window's end per key), counted
 * in the database when several instances must see the same counts.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';

/** Counts one hit on `key` in the shared table; @returns the hits in its window and the ms left of it. */
export async function hit(
  db: Db,
  key: string,
  timeWindow: number,
): Promise<{ current: number; ttl: number }> {
  const windowEnd = sql`now() + ${timeWindow} * interval '1 millisecond'`;
  const result = await db.execute(sql`
    insert into rate_limit_windows as w (key, hits, expires_at) values (${key}, 1, ${windowEnd})
    on conflict (key) do update set
      hits = case when w.expires_at <= now() then 1 else w.hits + 1 end,
      expires_at = case when w.expires_at <= now() then ${windowEnd} else w.expires_at end
    returning hits, greatest(0, ceil(extract(epoch from w.expires_at - now()) * 1000)) as ttl`);
  const [row] = (result as unknown as { rows: { hits: number | string; ttl: number | string }[] }).rows;
  return { current: Number(row?.hits ?? 0), ttl: Number(row?.ttl ?? timeWindow) };
}

/** Deletes the windows that ended more than a minute ago. */
export async function purgeRateLimitWindows(db: Db): Promise<void> {
  await db.execute(sql`delete from rate_limit_windows where expires_at < now() - interval '1 minute'`);
}

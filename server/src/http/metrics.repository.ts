/** The figures `/metrics` reads from the database every instance shares. */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';

export interface SharedGauges {
  /** Queued downlinks not yet published. */
  unpublished: number;
  /** Seconds the most overdue unit has waited for the scheduler; 0 when none is due. */
  lag: number;
  webhookDeliveriesPending: number;
  /** Open alerts by kind; kinds without one are missing. */
  alertsOpen: Record<string, number>;
}

/** One statement for every gauge, so a scrape costs one round trip. */
export async function readSharedGauges(db: Db): Promise<SharedGauges> {
  const result = await db.execute(sql`
    select
      (select count(*) from downlinks where published_at is null and state = 'queued') as unpublished,
      (select coalesce(extract(epoch from now() - min(next_change_at)), 0)
         from units where next_change_at <= now()) as lag,
      (select count(*) from webhook_deliveries where status = 'pending') as webhooks_pending,
      (select coalesce(jsonb_object_agg(kind, n), '{}'::jsonb)
         from (select kind, count(*) as n from alerts where state = 'open' group by kind) k) as alerts_open`);
  const [row] = (
    result as unknown as {
      rows: {
        unpublished: string;
        lag: string;
        webhooks_pending: string;
        alerts_open: Record<string, number>;
      }[];
    }
  ).rows;
  return {
    unpublished: Number(row?.unpublished ?? 0),
    lag: Number(row?.lag ?? 0),
    webhookDeliveriesPending: Number(row?.webhooks_pending ?? 0),
    alertsOpen: row?.alerts_open ?? {},
  };
}

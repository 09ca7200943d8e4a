/** SQL of one-off device commands; every statement is scoped by company. */
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { devices } from '../../db/schema.ts';

/** The model of each of `ids` that is the company's device. */
export async function companyDevices(db: Db, companyId: string, ids: string[]): Promise<Map<string, string>> {
  const rows = await db
    .select({ id: devices.id, model: devices.model })
    .from(devices)
    .where(and(eq(devices.companyId, companyId), inArray(devices.id, ids)));
  return new Map(rows.map((r) => [r.id, r.model]));
}

export async function requestRecalibration(
  db: Db,
  companyId: string,
  ids: string[],
  at: Date,
): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(devices)
    .set({ recalibrateRequestedAt: at })
    .where(and(eq(devices.companyId, companyId), inArray(devices.id, ids)));
}

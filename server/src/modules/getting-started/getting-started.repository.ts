/**
 * What the getting-started checklist reads of a company: whether it has a building, a room, a
 * heating plan, a device in a room and an enabled QR code, and its devices' newest uplink.
 * Every query filters by the company id. Existence is asked with `limit 1`: a scan stops at the
 * company's first row instead of counting them all.
 */
import { and, eq, isNotNull, max } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { buildings, devices, heatingPlans, unitQrCodes, units } from '../../db/schema.ts';

export interface CompanyProgress {
  hasBuilding: boolean;
  hasUnit: boolean;
  hasPlan: boolean;
  /** A device is assigned to a unit. */
  hasPairedDevice: boolean;
  hasQrCode: boolean;
  /** The newest `last_seen` of the company's devices; null when none has sent an uplink. */
  lastUplinkAt: Date | null;
}

const found = (rows: unknown[]) => rows.length > 0;

/** The company's progress, read in parallel (each query on its own, none changes anything). */
export async function findCompanyProgress(db: Db, companyId: string): Promise<CompanyProgress> {
  const [building, unit, plan, paired, qrCode, uplink] = await Promise.all([
    db.select({ id: buildings.id }).from(buildings).where(eq(buildings.companyId, companyId)).limit(1),
    db.select({ id: units.id }).from(units).where(eq(units.companyId, companyId)).limit(1),
    db
      .select({ id: heatingPlans.id })
      .from(heatingPlans)
      .where(eq(heatingPlans.companyId, companyId))
      .limit(1),
    db
      .select({ id: devices.id })
      .from(devices)
      .where(and(eq(devices.companyId, companyId), isNotNull(devices.unitId)))
      .limit(1),
    db
      .select({ id: unitQrCodes.unitId })
      .from(unitQrCodes)
      .where(eq(unitQrCodes.companyId, companyId))
      .limit(1),
    db
      .select({ at: max(devices.lastSeen) })
      .from(devices)
      .where(eq(devices.companyId, companyId)),
  ]);
  return {
    hasBuilding: found(building),
    hasUnit: found(unit),
    hasPlan: found(plan),
    hasPairedDevice: found(paired),
    hasQrCode: found(qrCode),
    lastUplinkAt: uplink[0]?.at ?? null,
  };
}

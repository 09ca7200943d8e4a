/**
 * The billing rule the device registry needs (spec §4 "The last device cannot be deleted unless
 * the subscription is cancelled"), as a port the billing issue implements.
 *
 * Default until billing exists: there is no licence/subscription table yet, so a company counts
 * as subscribed as soon as it has any device — i.e. the last device can never be deleted. This
 * errs on the side of keeping a billed device; the billing issue replaces it through
 * `AppDeps.billingPolicy`.
 */
import { count, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { devices } from '../../db/schema.ts';

export interface BillingPolicy {
  /** True while the company has a subscription that is not cancelled. */
  subscriptionActive(companyId: string): Promise<boolean>;
  /**
   * QR codes the company may have enabled at once (issue 7: "by default one per licensed
   * device"); absent = one per registered device, each of which needs a licence.
   */
  qrAllowance?(companyId: string): Promise<number>;
}

/** Devices registered to the company. */
async function deviceCount(db: Db, companyId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(devices).where(eq(devices.companyId, companyId));
  return Number(row?.n ?? 0);
}

export function defaultBillingPolicy(db: Db): Required<BillingPolicy> {
  return {
    subscriptionActive: async (companyId) => (await deviceCount(db, companyId)) > 0,
    qrAllowance: (companyId) => deviceCount(db, companyId),
  };
}

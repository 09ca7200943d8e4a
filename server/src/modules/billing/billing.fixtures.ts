/**
 * Test seeding for code that needs device licences: an active yearly subscription of
 * the manual provider, written directly like the other seeds of the integration tests.
 */
import type { Db } from '../../db/client.ts';
import { subscriptions } from '../../db/schema.ts';
import { periodEnd } from './manual-provider.ts';

/**
 * Gives `companyId` an active, immediately paid yearly subscription of `licences` licences from
 * `start`: a test on a fixed clock passes its now, so the year has not run out at that instant.
 */
export async function grantLicences(
  db: Db,
  companyId: string,
  licences = 10,
  start = new Date(),
): Promise<void> {
  await db.insert(subscriptions).values({
    companyId,
    provider: 'manual',
    interval: 'yearly',
    licences,
    status: 'active',
    paymentMethod: 'immediate',
    currentPeriodStart: start,
    currentPeriodEnd: periodEnd(start, 'yearly'),
  });
}

/**
 * Renews the manual provider's subscriptions whose period has ended (issue 13): a new period in
 * the (possibly changed) interval with its invoice, or the end of a cancelled one. Rows are
 * taken with `for update skip locked` and changed in the same transaction, so several server
 * instances renew each subscription exactly once; a server that was down catches up one period
 * per pass. Stripe renews its own subscriptions and tells us by webhook.
 */
import type { FastifyInstance } from 'fastify';
import * as repo from '../modules/billing/billing.repository.ts';
import { billingService, manualProvider } from '../modules/billing/billing.wiring.ts';
import { startPeriodic } from './periodic.ts';

const BATCH = 50;
const RENEWAL_INTERVAL_MS = 10 * 60_000;

/** Renews every subscription due at `now`. @returns how many periods were rolled or ended. */
export async function renewDueSubscriptions(app: FastifyInstance, now = new Date()): Promise<number> {
  if (app.deps.config.billing.provider !== 'manual') return 0;
  const service = billingService(app);
  const provider = manualProvider(app);
  let total = 0;
  for (;;) {
    const done = await service.inTransaction(async (tx) => {
      const due = await repo.dueManualSubscriptions(tx.db, now, BATCH);
      for (const subscription of due) {
        const buyer = (await repo.findBuyer(tx.db, subscription.companyId)) ?? { companyName: '', email: '' };
        await provider.renew(tx, { companyId: subscription.companyId, ...buyer }, subscription);
      }
      return due.length;
    });
    total += done;
    if (done < BATCH) return total;
  }
}

/** Runs `renewDueSubscriptions` now and every 10 minutes; @returns the function that stops it. */
export function startBillingRenewal(app: FastifyInstance): () => void {
  return startPeriodic(
    'subscription renewal',
    RENEWAL_INTERVAL_MS,
    async () => {
      const renewed = await renewDueSubscriptions(app);
      if (renewed > 0) app.log.info({ renewed }, 'renewed subscriptions');
    },
    app.log,
  );
}

/**
 * Renews the manual provider's subscriptions whose period has ended: a new period in the
 * (possibly changed) interval with its invoice, or the end of a cancelled one. Rows are taken
 * with `for update skip locked` and changed in the same transaction, so several server instances
 * renew each subscription exactly once; a server that was down catches up one period per pass.
 * Stripe renews its own subscriptions and tells us by webhook.
 */
import type { Clock } from '../clock.ts';
import type { Logger } from '../logger.ts';
import type { BillingService } from '../modules/billing/billing.service.ts';
import type { JobDefinition } from './registry.ts';

const BATCH = 50;
const RENEWAL_INTERVAL_MS = 10 * 60_000;

/** Renews every subscription due at `now`. @returns how many periods were rolled or ended. */
export async function renewDueSubscriptions(billing: BillingService, now = new Date()): Promise<number> {
  let total = 0;
  for (;;) {
    const done = await billing.renewDue(now, BATCH);
    total += done;
    if (done < BATCH) return total;
  }
}

/** The renewal every 10 minutes, for the registry (jobs/registry.ts). */
export function billingRenewalJob({
  billing,
  log,
  now,
}: {
  billing: BillingService;
  log: Pick<Logger, 'info' | 'error'>;
  now: Clock;
}): JobDefinition {
  return {
    name: 'subscription renewal',
    periodMs: RENEWAL_INTERVAL_MS,
    lock: 'skip locked rows',
    claims: 'manual-provider subscriptions whose period has ended',
    run: async () => {
      const renewed = await renewDueSubscriptions(billing, now());
      if (renewed > 0) log.info({ renewed }, 'renewed subscriptions');
    },
  };
}

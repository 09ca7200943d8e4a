/**
 * The licence rules (spec §1, §4) that devices and QR codes follow: a device needs a
 * licence, a QR code needs one too, and the last device cannot be deleted unless the
 * subscription is cancelled. With `BILLING_PROVIDER=none` licences are unlimited.
 *
 * Licences are usable while the subscription is active or its payment is late (`past_due`,
 * heating must not stop over a failed charge); a pending (delayed payment not yet processed)
 * or cancelled subscription has none.
 */
import type { BillingConfig } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { SubscriptionRow } from './billing.repository.ts';
import { findSubscription } from './billing.repository.ts';

/** Licences a subscription makes usable now. */
export function usableLicencesOf(subscription: SubscriptionRow | undefined): number {
  if (!subscription) return 0;
  return subscription.status === 'active' || subscription.status === 'past_due' ? subscription.licences : 0;
}

export interface LicencePolicy {
  /** Licences usable now; null = unlimited. Runs on `db`, which may be a transaction. */
  usable(db: Db, companyId: string): Promise<number | null>;
  /** True while a subscription that is neither cancelled nor ending protects the last device. */
  protectsLastDevice(db: Db, companyId: string): Promise<boolean>;
}

export function licencePolicy(provider: BillingConfig['provider']): LicencePolicy {
  if (provider === 'none') {
    return { usable: async () => null, protectsLastDevice: async () => false };
  }
  return {
    usable: async (db, companyId) => usableLicencesOf(await findSubscription(db, companyId)),
    protectsLastDevice: async (db, companyId) => {
      const subscription = await findSubscription(db, companyId);
      return (
        subscription !== undefined && subscription.status !== 'cancelled' && !subscription.cancelAtPeriodEnd
      );
    },
  };
}

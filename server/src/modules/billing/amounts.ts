/**
 * Money arithmetic shared by the quote and the invoices, so the confirmation dialog shows
 * exactly what the invoice will say. Amounts are integer cents; rates are percent.
 */
import type { BillingInterval } from '@heizplan/contracts/billing';
import { DateTime } from 'luxon';

const LENGTH: Record<BillingInterval, { months?: number; years?: number }> = {
  monthly: { months: 1 },
  yearly: { years: 1 },
  '3yearly': { years: 3 },
};

/** End of a period of `interval` starting at `start` (calendar months/years, UTC). */
export function periodEnd(start: Date, interval: BillingInterval): Date {
  return DateTime.fromJSDate(start, { zone: 'utc' }).plus(LENGTH[interval]).toJSDate();
}

/** Share of the period still ahead at `now` (0 … 1), for prorating added licences. */
export function remainingShare(start: Date, end: Date, now: Date): number {
  const total = end.getTime() - start.getTime();
  return total <= 0 ? 0 : Math.min(1, Math.max(0, (end.getTime() - now.getTime()) / total));
}

/** Net cents for `licences` at `unitPrice` cents over `share` (0 … 1) of a period, rounded. */
export function netCents(licences: number, unitPrice: number, share = 1): number {
  return Math.round(licences * unitPrice * share);
}

/**
 * VAT on `net` cents at `percent` (up to two decimals), rounded half up to a cent — computed on
 * the invoice's net total, as §14 Abs. 4 Nr. 8 UStG asks for one VAT amount per rate.
 */
export function vatCents(net: number, percent: number): number {
  // Hundredths of a percent keep 7.5 % and the like in integers.
  return Math.round((net * Math.round(percent * 100)) / 10_000);
}

/** Net, VAT and gross cents of `net` at `percent`. */
export function withVat(net: number, percent: number): { net: number; vat: number; gross: number } {
  const vat = vatCents(net, percent);
  return { net, vat, gross: net + vat };
}

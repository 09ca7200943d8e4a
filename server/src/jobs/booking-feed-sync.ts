/**
 * The booking feeds' periodic fetch (decision 0053): every 30 s the job claims the feeds whose
 * `next_sync_at` has come (each claim moves it FEED_SYNC_INTERVAL_MS ahead, with `skip locked`, so
 * every feed is fetched once per interval across all instances) and syncs them, five at a time
 * (`BookingFeedsService.syncDue`). A new feed, or one with a new address, is due at once and so
 * fetched within half a minute. Started after the server listens: the demo's feed is served by
 * the app itself.
 */
import type { Logger } from '../logger.ts';
import type { BookingFeedsService } from '../modules/booking-feeds/booking-feeds.service.ts';
import type { JobDefinition } from './registry.ts';

/** How often the job looks for due feeds (each feed is fetched every FEED_SYNC_INTERVAL_MS). */
const TICK_MS = 30_000;

/** The job, for the registry (jobs/registry.ts). */
export function bookingFeedSyncJob({
  bookingFeeds,
  log,
}: {
  bookingFeeds: Pick<BookingFeedsService, 'syncDue'>;
  log: Pick<Logger, 'info' | 'error'>;
}): JobDefinition {
  return {
    name: 'booking feed sync',
    periodMs: TICK_MS,
    lock: 'skip locked rows',
    claims: 'booking feeds whose next fetch is due',
    run: async () => {
      const result = await bookingFeeds.syncDue();
      if (result.synced > 0) log.info(result, 'booking feeds synced');
    },
  };
}

/**
 * `POST …/booking-feeds/{feedId}/sync`: fetches the feed now and answers it with the outcome
 * (`status`, `lastError`, `bookingCount`); the list, its bookings and the rooms' setpoints follow.
 */
import type { BookingFeed } from '@heizplan/contracts/booking-feeds';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, companyPath } from '../../../lib/api-client.ts';
import { heatingKeys } from '../../../lib/heating/query-keys.ts';
import { bookingFeedKeys } from './booking-feeds.ts';

export const syncBookingFeed = (feedId: string): Promise<BookingFeed> =>
  api.post<BookingFeed>(companyPath(`/booking-feeds/${feedId}/sync`));

export function useSyncBookingFeed() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: syncBookingFeed,
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: bookingFeedKeys.all });
      void queryClient.invalidateQueries({ queryKey: heatingKeys.all });
    },
  });
}

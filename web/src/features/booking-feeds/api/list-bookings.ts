/** `GET …/booking-feeds/{feedId}/bookings`: the next 14 days' bookings of a feed, by start. */
import type { BookingList } from '@heizplan/contracts/booking-feeds';
import { useQuery } from '@tanstack/react-query';
import { api, companyPath } from '../../../lib/api-client.ts';
import { bookingFeedKeys } from './booking-feeds.ts';

export const listBookings = (feedId: string): Promise<BookingList> =>
  api.get<BookingList>(companyPath(`/booking-feeds/${feedId}/bookings`));

export function useBookings(feedId: string) {
  return useQuery({ queryKey: bookingFeedKeys.bookings(feedId), queryFn: () => listBookings(feedId) });
}

/**
 * Booking feed calls under `/api/companies/{id}/booking-feeds` (decision 0053): the paged list
 * (all feeds, one room's with `unitId`, or those of one building's rooms with `buildingId`) and
 * the changes — create, update, delete. A feed's bookings move setpoints, so a change also
 * invalidates units, previews and logs (all under `heating`). While a feed waits for its first
 * fetch the list asks again every few seconds.
 */
import type {
  BookingFeed,
  BookingFeedInput,
  BookingFeedPage,
  BookingFeedUpdate,
} from '@heizplan/contracts/booking-feeds';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TablePage } from '../../../components/ui/table.tsx';
import { api, companyPath } from '../../../lib/api-client.ts';
import { heatingKeys } from '../../../lib/heating/query-keys.ts';

/** `BookingFeedListQuerySchema`'s parameters: a page, and optionally one room's or one building's feeds. */
export interface BookingFeedListQuery {
  page: number;
  size: number;
  unitId?: string;
  buildingId?: string;
}

export const bookingFeedKeys = {
  all: ['booking-feeds'] as const,
  list: (query: BookingFeedListQuery) => ['booking-feeds', 'list', query] as const,
  bookings: (feedId: string) => ['booking-feeds', 'bookings', feedId] as const,
};

/** How often the list asks again while a feed waits for its first fetch (ms), and otherwise. */
export const PENDING_REFRESH_MS = 5_000;
export const FEEDS_REFRESH_MS = 60_000;

export const listBookingFeeds = (query: BookingFeedListQuery): Promise<TablePage<BookingFeed>> =>
  api.get<BookingFeedPage>(companyPath('/booking-feeds'), { query });

/**
 * Keeps the previous page on screen while the next loads; `enabled: false` holds the request
 * (a building filter not yet known to be the company's).
 */
export function useBookingFeeds(query: BookingFeedListQuery, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: bookingFeedKeys.list(query),
    queryFn: () => listBookingFeeds(query),
    placeholderData: keepPreviousData,
    enabled,
    refetchInterval: (q) =>
      q.state.data?.results.some((feed) => feed.status === 'pending') ? PENDING_REFRESH_MS : FEEDS_REFRESH_MS,
  });
}

export type BookingFeedChange =
  | { action: 'create'; body: BookingFeedInput }
  | { action: 'update'; feedId: string; body: BookingFeedUpdate }
  | { action: 'delete'; feedId: string };

export function changeBookingFeed(change: BookingFeedChange): Promise<BookingFeed | undefined> {
  const one = (id: string) => companyPath(`/booking-feeds/${id}`);
  switch (change.action) {
    case 'create':
      return api.post<BookingFeed>(companyPath('/booking-feeds'), { body: change.body });
    case 'update':
      return api.patch<BookingFeed>(one(change.feedId), { body: change.body });
    case 'delete':
      return api.delete<undefined>(one(change.feedId));
  }
}

export function useChangeBookingFeed() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeBookingFeed,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: bookingFeedKeys.all });
      void queryClient.invalidateQueries({ queryKey: heatingKeys.all });
    },
  });
}

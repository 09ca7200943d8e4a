/**
 * `GET …/calendar-layers?from=&to=`: closures, public and school holidays, own days and bookings
 * overlapping the calendar's visible range, drawn behind the events. Kept under `heating`, so a
 * change that re-evaluates setpoints (a closure, a building's holidays, a feed's sync) refreshes
 * them too; the previous range's layers stay while the next one loads.
 */
import type { CalendarLayerList, CalendarLayersQuery } from '@heizplan/contracts/calendar-layers';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, companyPath } from '../../../lib/api-client.ts';
import { heatingKeys } from '../../../lib/heating/query-keys.ts';

export const calendarLayerKeys = {
  list: (query: CalendarLayersQuery) => [...heatingKeys.all, 'calendar-layers', query] as const,
};

export const getCalendarLayers = (query: CalendarLayersQuery): Promise<CalendarLayerList> =>
  api.get<CalendarLayerList>(companyPath('/calendar-layers'), { query });

export const getCalendarLayersQueryOptions = (query: CalendarLayersQuery) =>
  queryOptions({
    queryKey: calendarLayerKeys.list(query),
    queryFn: () => getCalendarLayers(query),
    placeholderData: keepPreviousData,
  });

/** The layers of `query`'s range; nothing is fetched while `query` is null (layers hidden, list view). */
export function useCalendarLayers(query: CalendarLayersQuery | null) {
  return useQuery({
    ...getCalendarLayersQueryOptions(query ?? { from: '', to: '' }),
    enabled: query !== null,
  });
}

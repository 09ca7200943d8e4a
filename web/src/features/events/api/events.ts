/**
 * Events calls under `/api/companies/{id}/events`: the filtered, paged list (also the
 * calendar's range query) and the changes — create, update, end now, delete. A change moves
 * setpoints, so it also invalidates units, previews and logs (all under `heating`).
 */
import type {
  EventInput,
  EventListQuery,
  EventUpdate,
  HeatingEvent,
  HeatingEventPage,
} from '@heizplan/contracts/events';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TablePage } from '../../../components/ui/table.tsx';
import { api, companyPath } from '../../../lib/api-client.ts';
import { heatingKeys } from '../../../lib/heating/query-keys.ts';

export const eventKeys = {
  all: ['events'] as const,
  list: (query: EventListQuery) => ['events', 'list', query] as const,
};

export const listEvents = (query: EventListQuery): Promise<TablePage<HeatingEvent>> =>
  api.get<HeatingEventPage>(companyPath('/events'), { query });

/** Keeps the previous page (or calendar range) on screen while the next loads. */
export function useEvents(query: EventListQuery) {
  return useQuery({
    queryKey: eventKeys.list(query),
    queryFn: () => listEvents(query),
    placeholderData: keepPreviousData,
  });
}

export type EventChange =
  | { action: 'create'; body: EventInput }
  | { action: 'update'; eventId: string; body: EventUpdate }
  | { action: 'end'; eventId: string }
  | { action: 'delete'; eventId: string };

export function changeEvent(change: EventChange): Promise<HeatingEvent | undefined> {
  const one = (id: string) => companyPath(`/events/${id}`);
  switch (change.action) {
    case 'create':
      return api.post<HeatingEvent>(companyPath('/events'), { body: change.body });
    case 'update':
      return api.patch<HeatingEvent>(one(change.eventId), { body: change.body });
    case 'end':
      return api.post<HeatingEvent>(`${one(change.eventId)}/end`);
    case 'delete':
      return api.delete<undefined>(one(change.eventId));
  }
}

export function useChangeEvent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeEvent,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: eventKeys.all });
      void queryClient.invalidateQueries({ queryKey: heatingKeys.all });
    },
  });
}

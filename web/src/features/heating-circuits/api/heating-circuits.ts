/**
 * Heating circuit calls under `/api/companies/{id}/heating-circuits`: the list (all, or one
 * building's), the changes (create, update, delete) and a circuit's 5-minute readings for the
 * chart. The controller steps every 5 minutes, so the list and the readings are asked again every
 * minute while the screen is open.
 */
import type {
  CircuitReadings,
  CircuitWrites,
  HeatingCircuit,
  HeatingCircuitCreate,
  HeatingCircuitPage,
  HeatingCircuitUpdate,
} from '@heizplan/contracts/heating-circuits';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, companyPath } from '../../../lib/api-client.ts';

export const circuitKeys = {
  all: ['heating-circuits'] as const,
  list: (buildingId: string | null) => ['heating-circuits', 'list', buildingId] as const,
  readings: (circuitId: string, range: CircuitRange, until: number) =>
    ['heating-circuits', 'readings', circuitId, range, until] as const,
  writes: (circuitId: string) => ['heating-circuits', 'writes', circuitId] as const,
};

/** How many of a circuit's writes the card lists. */
export const RECENT_WRITES = 5;

/** The circuit's latest writes to its heat generator, newest first (asked only where it has any). */
export function useCircuitWrites(circuitId: string, enabled: boolean) {
  return useQuery({
    queryKey: circuitKeys.writes(circuitId),
    queryFn: () =>
      api.get<CircuitWrites>(companyPath(`/heating-circuits/${circuitId}/writes`), {
        query: { limit: RECENT_WRITES },
      }),
    enabled,
    refetchInterval: CIRCUITS_REFRESH_MS,
  });
}

/** How often the screen asks again, ms: a step comes every 5 minutes. */
export const CIRCUITS_REFRESH_MS = 60_000;

/** The chart's windows: the last 48 hours or the last two weeks. */
export type CircuitRange = '48h' | '14d';
export const RANGE_MS: Record<CircuitRange, number> = { '48h': 48 * 3_600_000, '14d': 14 * 86_400_000 };

/** Every circuit of the company or of one building (up to 200, the API's page maximum). */
export function useHeatingCircuits(buildingId: string | null) {
  return useQuery({
    queryKey: circuitKeys.list(buildingId),
    queryFn: () =>
      api.get<HeatingCircuitPage>(companyPath('/heating-circuits'), {
        query: { page: 1, size: 200, buildingId: buildingId ?? undefined },
      }),
    placeholderData: keepPreviousData,
    refetchInterval: CIRCUITS_REFRESH_MS,
  });
}

/** The circuit's readings of `range` up to `until` (epoch ms, the screen's clock at the minute). */
export function useCircuitReadings(circuitId: string, range: CircuitRange, until: number) {
  return useQuery({
    queryKey: circuitKeys.readings(circuitId, range, until),
    queryFn: () =>
      api.get<CircuitReadings>(companyPath(`/heating-circuits/${circuitId}/readings`), {
        query: {
          from: new Date(until - RANGE_MS[range]).toISOString(),
          to: new Date(until).toISOString(),
        },
      }),
    placeholderData: keepPreviousData,
  });
}

export type CircuitChange =
  | { action: 'create'; body: HeatingCircuitCreate }
  | { action: 'update'; circuitId: string; body: HeatingCircuitUpdate }
  | { action: 'delete'; circuitId: string };

export function changeCircuit(change: CircuitChange): Promise<HeatingCircuit | undefined> {
  const one = (id: string) => companyPath(`/heating-circuits/${id}`);
  switch (change.action) {
    case 'create':
      return api.post<HeatingCircuit>(companyPath('/heating-circuits'), { body: change.body });
    case 'update':
      return api.patch<HeatingCircuit>(one(change.circuitId), { body: change.body });
    case 'delete':
      return api.delete<undefined>(one(change.circuitId));
  }
}

export function useChangeCircuit() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeCircuit,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: circuitKeys.all }),
  });
}

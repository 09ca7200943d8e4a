/** `GET …/units/{unitId}/series?range=`: a unit's bucketed readings and setpoint steps. */
import type { SeriesRange, UnitSeries } from '@heizplan/contracts/unit-series';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, companyPath } from '../../../lib/api-client.ts';

/** Refetch every minute so a graph left open follows the room. */
const REFRESH_MS = 60_000;

export function useUnitSeries(unitId: string, range: SeriesRange) {
  return useQuery({
    queryKey: ['unit-series', unitId, range],
    queryFn: (): Promise<UnitSeries> =>
      api.get<UnitSeries>(companyPath(`/units/${unitId}/series`), { query: { range } }),
    placeholderData: keepPreviousData,
    refetchInterval: REFRESH_MS,
  });
}

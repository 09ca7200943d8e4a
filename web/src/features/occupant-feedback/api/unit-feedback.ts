/**
 * `GET …/units/{unitId}/feedback?from=&to=`: the occupants' "Zu warm" / "Zu kalt" of a room in
 * `[from, to)` (decision 0070), with counts, newest first.
 */
import type { UnitFeedback } from '@heizplan/contracts/occupant-feedback';
import { useQuery } from '@tanstack/react-query';
import { api, companyPath } from '../../../lib/api-client.ts';

/** The room's feedback of `[from, to)` (ISO instants, UTC). */
export function useUnitFeedback(unitId: string, from: string, to: string) {
  return useQuery({
    queryKey: ['unit-feedback', unitId, from, to],
    queryFn: (): Promise<UnitFeedback> =>
      api.get<UnitFeedback>(
        companyPath(
          `/units/${unitId}/feedback?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`,
        ),
      ),
  });
}

/**
 * The open alerts behind the navigation's badge and the row markers, apart from the
 * alert centre's other calls: the shell loads it on every screen, the rest comes with /alerts.
 */
import type { AlertSummary } from '@heizplan/contracts/alerts';
import { useQuery } from '@tanstack/react-query';
import { api, companyPath } from '../../../lib/api-client.ts';

/** Query keys of the alert centre: everything of a company under `all`, so a change refreshes all. */
export const alertKeys = {
  all: (companyId: string) => ['alerts', companyId] as const,
  summary: (companyId: string) => ['alerts', companyId, 'summary'] as const,
};

/** Open alerts for the badge and the row markers, refreshed every minute; idle without a company. */
export function useAlertSummary(companyId: string | null) {
  return useQuery({
    queryKey: alertKeys.summary(companyId ?? ''),
    queryFn: () => api.get<AlertSummary>(companyPath('/alerts/summary')),
    enabled: companyId !== null,
    refetchInterval: 60_000,
  });
}

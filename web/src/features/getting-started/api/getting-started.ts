/**
 * `GET /api/companies/{companyId}/getting-started`: which setup steps of the current company
 * are done, and its newest uplink. Refetched whenever a screen showing it mounts: the point of
 * the checklist is to tick the step the member just came back from, and the 10-second freshness
 * the other queries keep would show it still open.
 */
import type { GettingStarted } from '@heizplan/contracts/getting-started';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export const gettingStartedKeys = {
  company: (companyId: string) => ['getting-started', companyId] as const,
};

/** The checklist of `companyId`; null (no company yet) or `enabled` false leaves it idle. */
export function useGettingStarted(companyId: string | null, enabled: boolean) {
  return useQuery({
    queryKey: gettingStartedKeys.company(companyId ?? ''),
    queryFn: () =>
      api.get<GettingStarted>(`/companies/${encodeURIComponent(companyId ?? '')}/getting-started`),
    enabled: enabled && companyId !== null,
    refetchOnMount: 'always',
  });
}

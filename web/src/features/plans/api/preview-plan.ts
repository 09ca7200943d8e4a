/**
 * `POST …/units/{unitId}/preview`: the unit's setpoint curve for 7 days with a draft
 * plan swapped in (nothing is saved), computed by the server's heating engine. A draft the
 * engine rejects answers 400 with the same field errors as saving.
 */
import type { PlanInput, Preview } from '@heizplan/contracts/heating';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, companyPath } from '../../../lib/api-client.ts';
import { heatingKeys } from '../../../lib/heating/query-keys.ts';

export const PREVIEW_DAYS = 7;

export interface PreviewDraft {
  unitId: string;
  scope: 'unit' | 'group';
  planId: string | null;
  plan: PlanInput;
  /** Start instant (ISO with offset); undefined = now. */
  from?: string;
}

export const previewPlan = ({ unitId, scope, planId, plan, from }: PreviewDraft): Promise<Preview> =>
  api.post<Preview>(companyPath(`/units/${unitId}/preview`), {
    body: { days: PREVIEW_DAYS, scope, plan, ...(planId ? { planId } : {}), ...(from ? { from } : {}) },
  });

/**
 * `GET …/units/{unitId}/preview?days=7&from=…`: the curve the stored plans, events and changes
 * give, from `from` (ISO instant with offset) or from now.
 */
export function useUnitPreview(unitId: string, from?: string) {
  return useQuery({
    queryKey: [...heatingKeys.preview, 'stored', unitId, from ?? 'now'],
    queryFn: () =>
      api.get<Preview>(companyPath(`/units/${unitId}/preview`), {
        query: { days: PREVIEW_DAYS, from },
      }),
    placeholderData: keepPreviousData,
  });
}

/** Preview of `draft` (null = nothing to preview); no retries, a 400 is an answer. */
export function usePlanPreview(draft: PreviewDraft | null) {
  return useQuery({
    queryKey: [...heatingKeys.preview, draft],
    queryFn: () => previewPlan(draft as PreviewDraft),
    enabled: draft !== null,
    retry: false,
    placeholderData: keepPreviousData,
  });
}

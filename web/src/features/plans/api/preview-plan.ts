/**
 * `POST …/units/{unitId}/preview`: the unit's setpoint curve for the next days with a draft
 * plan swapped in (nothing is saved), computed by the server's heating engine. A draft the
 * engine rejects answers 400 with the same field errors as saving.
 */
import { type PlanInput, type Preview, PreviewSchema } from '@heizplan/contracts/heating';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, companyPath } from '../../../lib/api-client.ts';
import { heatingKeys } from '../../units/api/query-keys.ts';

export const PREVIEW_DAYS = 7;

export interface PreviewDraft {
  unitId: string;
  scope: 'unit' | 'group';
  planId: string | null;
  plan: PlanInput;
}

export const previewPlan = ({ unitId, scope, planId, plan }: PreviewDraft): Promise<Preview> =>
  api.post(companyPath(`/units/${unitId}/preview`), {
    body: { days: PREVIEW_DAYS, scope, plan, ...(planId ? { planId } : {}) },
    schema: PreviewSchema,
  });

/** `GET …/units/{unitId}/preview?days=7`: the curve the stored plans, events and changes give. */
export function useUnitPreview(unitId: string) {
  return useQuery({
    queryKey: [...heatingKeys.preview, 'stored', unitId],
    queryFn: () =>
      api.get(companyPath(`/units/${unitId}/preview`), {
        query: { days: PREVIEW_DAYS },
        schema: PreviewSchema,
      }),
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

/**
 * Saving plans: `POST …/units/{id}/plans` or `…/groups/{id}/plans` for a new plan, `PATCH
 * …/plans/{planId}` for a stored one, `DELETE …/plans/{planId}`. The server validates with the
 * engine: 400 'Invalid schedule!' / 'Invalid time!' / 'Value exceeds temperature range set by
 * your company.' with per-field `errors` (e.g. `switchPoints.2.hour`); 409 for a group plan
 * while a unit of the group has its own active plan.
 */
import type { Plan, PlanInput } from '@heizplan/contracts/heating';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, companyPath } from '../../../lib/api-client.ts';
import { heatingKeys } from '../../../lib/heating/query-keys.ts';
import { ownerPath, type PlanOwner } from './list-plans.ts';

export type PlanChange =
  | { action: 'save'; owner: PlanOwner; planId: string | null; plan: PlanInput }
  | { action: 'delete'; planId: string };

export function changePlan(change: PlanChange): Promise<Plan | undefined> {
  if (change.action === 'delete') return api.delete<undefined>(companyPath(`/plans/${change.planId}`));
  if (change.planId) return api.patch<Plan>(companyPath(`/plans/${change.planId}`), { body: change.plan });
  return api.post<Plan>(companyPath(ownerPath(change.owner)), { body: change.plan });
}

export function useChangePlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changePlan,
    // Plans change setpoints, group availability and the units' "own plan" state.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: heatingKeys.all }),
  });
}

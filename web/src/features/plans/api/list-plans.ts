/** `GET …/units/{unitId}/plans` or `GET …/groups/{groupId}/plans`: the plans of one owner. */
import type { Plan, PlanList } from '@heizplan/contracts/heating';
import { useQuery } from '@tanstack/react-query';
import { api, companyPath } from '../../../lib/api-client.ts';
import { heatingKeys } from '../../../lib/heating/query-keys.ts';

/** Who a plan belongs to: one unit or one group. */
export type PlanOwner = { unitId: string } | { groupId: string };

export const ownerPath = (owner: PlanOwner) =>
  'unitId' in owner ? `/units/${owner.unitId}/plans` : `/groups/${owner.groupId}/plans`;

export const listPlans = async (owner: PlanOwner): Promise<Plan[]> =>
  (await api.get<PlanList>(companyPath(ownerPath(owner)))).results;

export function usePlans(owner: PlanOwner) {
  return useQuery({ queryKey: [...heatingKeys.plans, owner], queryFn: () => listPlans(owner) });
}

/**
 * The signed-in member's rights in the current company (decision 0022), from the `role` of
 * `GET /api/companies/{id}/`. Screens hide what the role may not use; until the company has
 * loaded — or when no company is chosen yet — nothing beyond reading is offered.
 */
import type { Role } from '@heizplan/contracts/account';
import { type Capability, can } from '@heizplan/contracts/permissions';
import { useQuery } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { getCurrentCompanyId, subscribeCurrentCompany } from './client-storage.ts';
import { getCompany } from './company/get-company.ts';
import { companyKeys } from './company/query-keys.ts';

/** The current company id, re-rendering when it is chosen or switched. */
export function useCurrentCompanyId(): string | null {
  return useSyncExternalStore(subscribeCurrentCompany, getCurrentCompanyId);
}

/** The member's role in the current company; undefined while loading or without a company. */
export function useCurrentRole(): Role | undefined {
  const companyId = useCurrentCompanyId();
  const company = useQuery({
    queryKey: companyKeys.company(companyId ?? ''),
    queryFn: getCompany,
    enabled: companyId !== null,
  });
  return company.data?.role;
}

/** True when the signed-in member's role in the current company has `capability`. */
export function useCan(capability: Capability): boolean {
  return can(useCurrentRole(), capability);
}

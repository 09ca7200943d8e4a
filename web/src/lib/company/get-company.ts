/**
 * `GET /api/companies/{id}/` of the current company: name, temperature range (°C, spec §2
 * settings company) and IANA time zone, used to clamp setpoints and to show log times.
 */
import type { Company } from '@heizplan/contracts/account';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, companyPath } from '../api-client.ts';
import { requireCurrentCompanyId } from '../client-storage.ts';
import { companyKeys } from './query-keys.ts';

export const getCompany = () => api.get<Company>(companyPath('/'));

export const getCompanyQueryOptions = () =>
  queryOptions({ queryKey: companyKeys.company(requireCurrentCompanyId()), queryFn: getCompany });

export function useCompany() {
  return useQuery(getCompanyQueryOptions());
}

/** `GET /api/licenses/{companyId}/`: the agreement versions a company accepted (null = never). */
import type { LicenseRecord } from '@heizplan/contracts/account';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../api-client.ts';
import { accountKeys } from './query-keys.ts';

export const getCompanyLicenses = (companyId: string) =>
  api.get<LicenseRecord>(`/licenses/${encodeURIComponent(companyId)}/`);

export const getCompanyLicensesQueryOptions = (companyId: string) =>
  queryOptions({
    queryKey: accountKeys.companyLicenses(companyId),
    queryFn: () => getCompanyLicenses(companyId),
  });

export function useCompanyLicenses(companyId: string | null) {
  return useQuery({ ...getCompanyLicensesQueryOptions(companyId ?? ''), enabled: Boolean(companyId) });
}

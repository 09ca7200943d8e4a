/** `GET /api/companies/?pagination=false`: every company of the signed-in person, by name. */
import type { CompanyPage } from '@heizplan/contracts/account';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../api-client.ts';
import { companyKeys } from './query-keys.ts';

export const listCompanies = () => api.get<CompanyPage>('/companies/', { query: { pagination: false } });

export const listCompaniesQueryOptions = () =>
  queryOptions({ queryKey: companyKeys.all, queryFn: listCompanies });

export function useCompanies() {
  return useQuery(listCompaniesQueryOptions());
}

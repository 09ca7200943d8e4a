/** `GET /api/licenses/current`: the agreement versions in force (spec §3). */
import type { LicenseCurrent } from '@heizplan/contracts/account';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../api-client.ts';
import { accountKeys } from './query-keys.ts';

export const getCurrentLicenses = () => api.get<LicenseCurrent>('/licenses/current');

export const getCurrentLicensesQueryOptions = () =>
  queryOptions({ queryKey: accountKeys.currentLicenses, queryFn: getCurrentLicenses });

export function useCurrentLicenses(enabled = true) {
  return useQuery({ ...getCurrentLicensesQueryOptions(), enabled });
}

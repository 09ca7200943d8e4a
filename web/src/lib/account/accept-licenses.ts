/** `POST /api/licenses/{companyId}/`: accepts the current agreement versions for a company. */
import type { LicenseRecord } from '@heizplan/contracts/account';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../api-client.ts';
import { accountKeys } from './query-keys.ts';

export const acceptLicenses = (companyId: string) =>
  api.post<LicenseRecord>(`/licenses/${encodeURIComponent(companyId)}/`);

export function useAcceptLicenses() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: acceptLicenses,
    onSuccess: (record, companyId) => {
      queryClient.setQueryData(accountKeys.companyLicenses(companyId), record);
      return queryClient.invalidateQueries({ queryKey: accountKeys.currentLicenses });
    },
  });
}

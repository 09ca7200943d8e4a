/** `PATCH /api/companies/{id}/`: temperature range (°C) and time zone of the current company. */
import type { Company, CompanyPatchBody } from '@heizplan/contracts/account';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, companyPath } from '../api-client.ts';
import { requireCurrentCompanyId } from '../client-storage.ts';
import { companyKeys } from './query-keys.ts';

export const updateCompany = (body: CompanyPatchBody) => api.patch<Company>(companyPath('/'), { body });

export function useUpdateCompany() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateCompany,
    onSuccess: (company) => {
      queryClient.setQueryData(companyKeys.company(requireCurrentCompanyId()), company);
      // Setpoints are clamped to the range; the server re-evaluates units, so reload them.
      void queryClient.invalidateQueries({ queryKey: ['heating'] });
    },
  });
}

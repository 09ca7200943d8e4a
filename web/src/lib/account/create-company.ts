/** `POST /api/companies/setup?company_name=`: creates a company; the caller becomes its admin. */
import { type Company, CompanySetupQuerySchema } from '@heizplan/contracts/account';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../api-client.ts';
import { accountKeys } from './query-keys.ts';

export const createCompanyInputSchema = CompanySetupQuerySchema;

export const createCompany = (companyName: string) =>
  api.post<Company>('/companies/setup', { query: { company_name: companyName.trim() } });

export function useCreateCompany() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createCompany,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: accountKeys.me }),
        queryClient.invalidateQueries({ queryKey: accountKeys.companies }),
      ]),
  });
}

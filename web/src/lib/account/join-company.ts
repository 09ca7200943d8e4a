/**
 * `POST /api/invite/setup/{invite_code}`: joins the company of an invite code; the code is
 * used up. A wrong code answers 404 with the sentence the setup screen shows.
 */
import { type Company, InviteSetupParamsSchema } from '@heizplan/contracts/account';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../api-client.ts';
import { accountKeys } from './query-keys.ts';

export const joinCompanyInputSchema = InviteSetupParamsSchema;

export const joinCompany = (inviteCode: string) =>
  api.post<Company>(`/invite/setup/${encodeURIComponent(inviteCode.trim())}`);

export function useJoinCompany() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: joinCompany,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: accountKeys.me }),
        queryClient.invalidateQueries({ queryKey: accountKeys.companies }),
      ]),
  });
}

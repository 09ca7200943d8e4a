/**
 * Invites of the current company (spec §7 `/invite/`; admins): the open ones, a new one —
 * mailed when it has an email, otherwise a code to hand over — and withdrawing one.
 */
import type { CreateInviteBody, Invite } from '@heizplan/contracts/account';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { requireCurrentCompanyId } from '../../../lib/client-storage.ts';
import { teamKeys } from './query-keys.ts';

const companyQuery = () => ({ company_id: requireCurrentCompanyId() });

export const listInvites = () => api.get<Invite[]>('/invite/', { query: companyQuery() });

export const listInvitesQueryOptions = () =>
  queryOptions({ queryKey: teamKeys.invites(requireCurrentCompanyId()), queryFn: listInvites });

export function useInvites() {
  return useQuery(listInvitesQueryOptions());
}

export const createInvite = (body: CreateInviteBody) =>
  api.post<Invite>('/invite/', { query: companyQuery(), body });

export function useCreateInvite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createInvite,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: teamKeys.invites(requireCurrentCompanyId()) }),
  });
}

export const deleteInvite = (code: string) => api.delete<void>(`/invite/${encodeURIComponent(code)}`);

export function useDeleteInvite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteInvite,
    onSettled: () => queryClient.invalidateQueries({ queryKey: teamKeys.invites(requireCurrentCompanyId()) }),
  });
}

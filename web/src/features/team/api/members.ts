/**
 * The team calls of spec §7 (admins): `GET /api/companies/{id}/members/`, a role change
 * (`PATCH …/members/{sub}`), removal (`DELETE …/members/{sub}`; a member removing
 * themselves leaves the company) and the reset of a member's second factors
 * (`POST …/members/{sub}/second-factor/reset`, decision 0078; never one's own, 409).
 */
import type { Member, MemberRoleBody } from '@heizplan/contracts/account';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, companyPath } from '../../../lib/api-client.ts';
import { requireCurrentCompanyId } from '../../../lib/client-storage.ts';
import { teamKeys } from './query-keys.ts';

const memberPath = (sub: string) => companyPath(`/members/${encodeURIComponent(sub)}`);

export const listMembers = () => api.get<Member[]>(companyPath('/members/'));

export const listMembersQueryOptions = () =>
  queryOptions({ queryKey: teamKeys.members(requireCurrentCompanyId()), queryFn: listMembers });

export function useMembers() {
  return useQuery(listMembersQueryOptions());
}

export const changeRole = ({ sub, role }: { sub: string } & MemberRoleBody) =>
  api.patch<Member>(memberPath(sub), { body: { role } });

export function useChangeRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeRole,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: teamKeys.members(requireCurrentCompanyId()) }),
  });
}

export const removeMember = (sub: string) => api.delete<void>(memberPath(sub));

export function useRemoveMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeMember,
    onSettled: () => queryClient.invalidateQueries({ queryKey: teamKeys.members(requireCurrentCompanyId()) }),
  });
}

/** An admin's reset of member `sub`'s second factors (decision 0078); 409 for oneself. */
export const resetSecondFactor = (sub: string) => api.post<void>(`${memberPath(sub)}/second-factor/reset`);

/** The reset; the member list is read again whatever the outcome, its factors column changed. */
export function useResetSecondFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resetSecondFactor,
    onSettled: () => queryClient.invalidateQueries({ queryKey: teamKeys.members(requireCurrentCompanyId()) }),
  });
}

/**
 * The company's API tokens (decision 0058; admins): the list, a new token (answered with the
 * token itself, this once) and revoking one.
 */
import type { ApiToken, ApiTokenCreated, ApiTokenInput, ApiTokenList } from '@heizplan/contracts/api-tokens';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, companyPath } from '../../../lib/api-client.ts';
import { requireCurrentCompanyId } from '../../../lib/client-storage.ts';

const tokensKey = (companyId: string) => ['api-tokens', companyId] as const;

export const listApiTokensQueryOptions = () =>
  queryOptions({
    queryKey: tokensKey(requireCurrentCompanyId()),
    queryFn: () => api.get<ApiTokenList>(companyPath('/api-tokens')),
  });

export function useApiTokens() {
  return useQuery(listApiTokensQueryOptions());
}

export function useCreateApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ApiTokenInput) => api.post<ApiTokenCreated>(companyPath('/api-tokens'), { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tokensKey(requireCurrentCompanyId()) }),
  });
}

export function useRevokeApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (tokenId: string) =>
      api.post<ApiToken>(companyPath(`/api-tokens/${encodeURIComponent(tokenId)}/revoke`)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: tokensKey(requireCurrentCompanyId()) }),
  });
}

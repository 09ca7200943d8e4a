/**
 * The caller's sign-in sessions (decision 0074), `/api/me/sessions…`: the list (this session
 * marked `current`), ending one, ending all others. With an external issuer every call answers
 * 409 `accounts_external`, so the settings card hides itself.
 */
import type { SessionList } from '@heizplan/contracts/sessions';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api-client.ts';
import { accountKeys } from './query-keys.ts';

export function useSessions() {
  // A 409 (external issuer) or 503 (no account store) is an answer, not an outage to retry.
  return useQuery({
    queryKey: accountKeys.sessions,
    queryFn: () => api.get<SessionList>('/me/sessions'),
    retry: false,
  });
}

export function useEndSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<void>(`/me/sessions/${encodeURIComponent(id)}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.sessions }),
  });
}

export function useEndOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete<void>('/me/sessions?others=true'),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.sessions }),
  });
}

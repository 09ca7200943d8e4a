/** `DELETE /api/me/notices/{id}`: the user has read a notice (e.g. "removed from company X"). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../api-client.ts';
import { accountKeys } from './query-keys.ts';

export const dismissNotice = (noticeId: string) => api.delete<void>(`/me/notices/${noticeId}`);

export function useDismissNotice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: dismissNotice,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.me }),
  });
}

/** `DELETE /api/me/request_deletion`: deactivates the account at once (spec §4). */
import { useMutation } from '@tanstack/react-query';
import { api } from '../api-client.ts';

export const requestDeletion = () => api.delete<void>('/me/request_deletion');

export function useRequestDeletion() {
  return useMutation({ mutationFn: requestDeletion });
}

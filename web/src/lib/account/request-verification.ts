/** `POST /api/me/request-verification`: mails a new verification link (spec §4). */
import { useMutation } from '@tanstack/react-query';
import { api } from '../api-client.ts';

export const requestVerification = () => api.post<void>('/me/request-verification');

export function useRequestVerification() {
  return useMutation({ mutationFn: requestVerification });
}

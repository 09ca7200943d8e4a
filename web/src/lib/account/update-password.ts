/** `PUT /api/me/password`: sets a new password, sent in the body (never the query string). */
import { PasswordBodySchema } from '@heizplan/contracts/account';
import { useMutation } from '@tanstack/react-query';
import { api } from '../api-client.ts';

export const updatePasswordInputSchema = PasswordBodySchema;

export const updatePassword = (password: string) => api.put<void>('/me/password', { body: { password } });

export function useUpdatePassword() {
  return useMutation({ mutationFn: updatePassword });
}

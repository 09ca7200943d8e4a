/**
 * `PUT /api/me/password`: the current password and the new one, sent in the body (never the
 * address). The server checks the current one (400 `current_password_wrong` on the field
 * `currentPassword`, 429 `too_many_attempts`) and, after the change, ends every session of the
 * account, this one included.
 */
import { type PasswordBody, PasswordBodySchema } from '@heizplan/contracts/account';
import { useMutation } from '@tanstack/react-query';
import { api } from '../api-client.ts';

export const updatePasswordInputSchema = PasswordBodySchema;

export const updatePassword = (body: PasswordBody) => api.put<void>('/me/password', { body });

export function useUpdatePassword() {
  return useMutation({ mutationFn: updatePassword });
}

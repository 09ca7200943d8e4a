/** `PUT /api/me/`: saves name and email, both trimmed first (spec §5). */
import { type UpdateMeBody, UpdateMeBodySchema, type User } from '@heizplan/contracts/account';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../api-client.ts';
import { accountKeys } from './query-keys.ts';

export const updateMeInputSchema = UpdateMeBodySchema;

export const updateMe = (body: UpdateMeBody) =>
  api.put<User>('/me/', { body: { name: body.name.trim(), email: body.email.trim() } });

export function useUpdateMe() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateMe,
    onSuccess: (user) => queryClient.setQueryData(accountKeys.me, user),
  });
}

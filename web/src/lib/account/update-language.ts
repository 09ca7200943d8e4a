/** `POST /api/me/language?lang=de|en`: stores the user's language (setup step 1, settings). */
import { type Language, LanguageQuerySchema, type User } from '@heizplan/contracts/account';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../api-client.ts';
import { accountKeys } from './query-keys.ts';

export const updateLanguageInputSchema = LanguageQuerySchema;

export const updateLanguage = (lang: Language) => api.post<User>('/me/language', { query: { lang } });

export function useUpdateLanguage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateLanguage,
    onSuccess: (user) => queryClient.setQueryData(accountKeys.me, user),
  });
}

/**
 * The caller's passkeys (decision 0074), `/api/me/passkeys…`: the list, registering one (the
 * server's options → the browser's authenticator via `@simplewebauthn/browser` → the answer with
 * a name; 400 names `body.response` or `body.name`), renaming and removing one. With an external
 * issuer every call answers 409 `accounts_external`, so the settings card hides itself.
 */
import type {
  Passkey,
  PasskeyList,
  PasskeyRegisterBody,
  PasskeyRegistrationOptions,
} from '@heizplan/contracts/passkeys';
import { type PublicKeyCredentialCreationOptionsJSON, startRegistration } from '@simplewebauthn/browser';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api-client.ts';
import { accountKeys } from './query-keys.ts';

export function usePasskeys() {
  // A 409 (external issuer) or 503 (no account store) is an answer, not an outage to retry.
  return useQuery({
    queryKey: accountKeys.passkeys,
    queryFn: () => api.get<PasskeyList>('/me/passkeys'),
    retry: false,
  });
}

/** Thrown when the browser's authenticator did not make a passkey (cancelled, none, timed out). */
export class PasskeyCeremonyError extends Error {}

/**
 * Registers a passkey named `name` after the step-up with `password`: fetches the options, lets the browser's authenticator make
 * the credential and sends its answer. @throws PasskeyCeremonyError when the browser made none.
 */
export function useAddPasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    // The password is the step-up before a factor is added (decision 0078).
    mutationFn: async ({ name, password }: { name: string; password: string }) => {
      const options = await api.post<PasskeyRegistrationOptions>('/me/passkeys/registration-options', {
        body: { password },
      });
      let response: PasskeyRegisterBody['response'];
      try {
        response = (await startRegistration({
          optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON,
        })) as unknown as PasskeyRegisterBody['response'];
      } catch (error) {
        throw new PasskeyCeremonyError('The browser made no passkey.', { cause: error });
      }
      return api.post<Passkey>('/me/passkeys', { body: { name, response } });
    },
    // The profile says whether a company still waits for a second factor (decision 0078).
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: accountKeys.passkeys }),
        queryClient.invalidateQueries({ queryKey: accountKeys.me, exact: true }),
      ]),
  });
}

export function useRenamePasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, name }: { id: string; name: string }) =>
      api.patch<Passkey>(`/me/passkeys/${id}`, { body: { name } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.passkeys }),
  });
}

export function useRemovePasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<void>(`/me/passkeys/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.passkeys }),
  });
}

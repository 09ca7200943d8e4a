/**
 * The caller's second factor (decision 0072), `/api/me/second-factor…`: the status, starting and
 * confirming a TOTP authenticator (the confirmation answers ten recovery codes, shown once) and
 * disabling it with the password and a TOTP or recovery code (400 names `body.password` or
 * `body.code`, 429 `too_many_attempts`). With an external issuer every call answers 409
 * `accounts_external`: the issuer owns the second factor, so the settings card hides itself.
 */
import type {
  RecoveryCodes,
  SecondFactorStatus,
  TotpDisableBody,
  TotpEnrolment,
} from '@heizplan/contracts/second-factor';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api-client.ts';
import { accountKeys } from './query-keys.ts';

export const getSecondFactor = () => api.get<SecondFactorStatus>('/me/second-factor');

export function useSecondFactor() {
  // A 409 (external issuer) or 503 (no account store) is an answer, not an outage to retry.
  return useQuery({ queryKey: accountKeys.secondFactor, queryFn: getSecondFactor, retry: false });
}

/** Starts an enrolment after the step-up (decision 0078): the password goes with it. */
export function useStartTotp() {
  return useMutation({
    mutationFn: (password: string) =>
      api.post<TotpEnrolment>('/me/second-factor/totp', { body: { password } }),
  });
}

export function useConfirmTotp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) =>
      api.post<RecoveryCodes>('/me/second-factor/totp/confirm', { body: { code } }),
    // The profile says whether a company still waits for a second factor (decision 0078).
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: accountKeys.secondFactor }),
        queryClient.invalidateQueries({ queryKey: accountKeys.me, exact: true }),
      ]),
  });
}

export function useDisableTotp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TotpDisableBody) => api.delete<void>('/me/second-factor/totp', { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.secondFactor }),
  });
}

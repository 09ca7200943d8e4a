/**
 * Login errors of spec §8, in the words the screens use. A failed login return is remembered
 * in the browser tab's session until the user starts a new login, so the page it lands on
 * shows it instead of starting another login at once (which would loop on a provider that
 * keeps refusing).
 */
import type { ErrorResponse } from 'oidc-client-ts';

export type LoginErrorCode =
  | 'login_required'
  | 'state_mismatch'
  | 'timeout'
  | 'missing_refresh_token'
  | 'rejected'
  | 'failed';

/** Thrown when refresh tokens are on, none is stored and the hidden-frame fallback is off. */
export class MissingRefreshTokenError extends Error {
  constructor() {
    super('Missing refresh token');
    this.name = 'MissingRefreshTokenError';
  }
}

/** Provider answers meaning "the user must sign in interactively" (OIDC Core §3.1.2.6). */
const NEEDS_INTERACTION = new Set(['login_required', 'interaction_required', 'consent_required']);

/**
 * The code of an error from oidc-client-ts or the session. The library's errors are told by
 * their `name` ('ErrorResponse', 'ErrorTimeout'), not `instanceof`: the library is loaded only
 * when a sign-in needs it (auth-session.ts), and this runs on the first screen too.
 */
export function classifyLoginError(error: unknown): LoginErrorCode {
  if (!(error instanceof Error)) return 'failed';
  const answer = (error as Partial<ErrorResponse>).error;
  if (error.name === 'ErrorResponse' && answer && NEEDS_INTERACTION.has(answer)) return 'login_required';
  if (error.name === 'ErrorTimeout') return 'timeout';
  if (error instanceof MissingRefreshTokenError) return 'missing_refresh_token';
  // oidc-client-ts reports a state it has not stored (another tab, replayed URL) this way.
  if (/no matching state/i.test(error.message)) return 'state_mismatch';
  return 'failed';
}

const STORAGE_KEY = 'heizplan.loginError';

export function rememberLoginError(code: LoginErrorCode) {
  sessionStorage.setItem(STORAGE_KEY, code);
}

/** The remembered login error, kept until `clearLoginError` (a new login starts or succeeds). */
export function peekLoginError(): LoginErrorCode | null {
  return sessionStorage.getItem(STORAGE_KEY) as LoginErrorCode | null;
}

export function clearLoginError() {
  sessionStorage.removeItem(STORAGE_KEY);
}

import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { ToastProvider } from '../components/ui/toast-provider.tsx';
import { env } from '../config/env.ts';
import { AuthSessionProvider } from '../features/auth/auth-context.tsx';
import { AuthSession, connectApiClient } from '../features/auth/auth-session.ts';
import { accountKeys } from '../lib/account/query-keys.ts';
import { ApiError } from '../lib/api-client.ts';
import { type Clock, ClockProvider, systemClock } from '../lib/clock.tsx';
import i18n from './i18n.ts';

/**
 * A company that starts requiring a second factor answers 403 `second_factor_required` (decision
 * 0078) to a member without one; the profile, read again, then sends the main guard to the
 * enrolment screen.
 */
function onSecondFactorRequired(error: unknown) {
  if (error instanceof ApiError && error.code === 'second_factor_required')
    void queryClient.invalidateQueries({ queryKey: accountKeys.me, exact: true });
}

export const queryClient: QueryClient = new QueryClient({
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 10_000 } },
  queryCache: new QueryCache({ onError: onSecondFactorRequired }),
  mutationCache: new MutationCache({ onError: onSecondFactorRequired }),
});

/** The browser's sign-in session; the API client takes its tokens from it. */
export const authSession = new AuthSession(env);
connectApiClient(authSession);

/**
 * App-wide providers: server state (TanStack Query), translations, the toast list, the
 * sign-in session (tests pass a session with a fake UserManager) and the clock (tests pass a
 * fixed one, test/clock.ts).
 */
export function Providers({
  children,
  session = authSession,
  clock = systemClock,
}: {
  children: ReactNode;
  session?: AuthSession;
  clock?: Clock;
}) {
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <AuthSessionProvider session={session}>
          <ClockProvider clock={clock}>
            <ToastProvider>{children}</ToastProvider>
          </ClockProvider>
        </AuthSessionProvider>
      </QueryClientProvider>
    </I18nextProvider>
  );
}

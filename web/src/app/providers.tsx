import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { ToastProvider } from '../components/ui/toast-provider.tsx';
import { env } from '../config/env.ts';
import { AuthSessionProvider } from '../features/auth/auth-context.tsx';
import { AuthSession, connectApiClient } from '../features/auth/auth-session.ts';
import { type Clock, ClockProvider, systemClock } from '../lib/clock.tsx';
import i18n from './i18n.ts';

export const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 10_000 } },
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

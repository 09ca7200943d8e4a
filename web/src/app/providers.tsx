import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { ToastProvider } from '../components/ui/toast-provider.tsx';
import { env } from '../config/env.ts';
import { AuthSessionProvider } from '../features/auth/auth-context.tsx';
import { AuthSession, connectApiClient } from '../features/auth/auth-session.ts';
import i18n from './i18n.ts';

export const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 10_000 } },
});

/** The browser's sign-in session; the API client takes its tokens from it. */
export const authSession = new AuthSession(env);
connectApiClient(authSession);

/**
 * App-wide providers: server state (TanStack Query), translations, the toast list and the
 * sign-in session (tests pass a session with a fake UserManager).
 */
export function Providers({
  children,
  session = authSession,
}: {
  children: ReactNode;
  session?: AuthSession;
}) {
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <AuthSessionProvider session={session}>
          <ToastProvider>{children}</ToastProvider>
        </AuthSessionProvider>
      </QueryClientProvider>
    </I18nextProvider>
  );
}

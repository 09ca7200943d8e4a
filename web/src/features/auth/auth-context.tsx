/** Makes the app's `AuthSession` available to screens; tests provide one with a fake UserManager. */
import { createContext, type ReactNode, useContext } from 'react';
import type { AuthSession } from './auth-session.ts';

const AuthSessionContext = createContext<AuthSession | null>(null);

export function AuthSessionProvider({ session, children }: { session: AuthSession; children: ReactNode }) {
  return <AuthSessionContext.Provider value={session}>{children}</AuthSessionContext.Provider>;
}

/** @throws Error outside an `AuthSessionProvider` (a wiring mistake, not a user error). */
export function useAuthSession(): AuthSession {
  const session = useContext(AuthSessionContext);
  if (!session) throw new Error('useAuthSession needs an AuthSessionProvider');
  return session;
}

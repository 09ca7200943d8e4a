/**
 * Wraps every screen that needs a signed-in user (spec §6). It
 * - completes a login return (code+state or error+state in the address, spec §2 "Login
 *   return"): the address is reset to `/`, then the user goes to the target saved before login
 *   (or `/`); on failure to the configured error path (or `/`), where the error is shown;
 * - otherwise makes sure a token exists (renewing silently) and, when none can be had, sends
 *   the user to the hosted login with the full current path as the return target;
 * - shows a remembered login error (e.g. 'Invalid State') with a button to sign in again,
 *   instead of redirecting straight back into a login that just failed;
 * - re-logs in when the API answers 401.
 * The hosted login is asked for the user's chosen language (`ui_locales`); without a choice
 * on this browser the provider follows the browser's language.
 */
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { chosenLanguage } from '../../../app/i18n.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useAuthSession } from '../auth-context.tsx';
import { isLoginReturn } from '../auth-session.ts';
import { clearLoginError, type LoginErrorCode, peekLoginError, rememberLoginError } from '../login-errors.ts';
import { FullPageStatus } from './full-page-status.tsx';

type GateState =
  | { kind: 'checking' }
  | { kind: 'ready' }
  | { kind: 'error'; code: LoginErrorCode }
  | { kind: 'elsewhere'; publicUrl: string };

export function AuthGate({ children }: { children?: ReactNode }) {
  const { t } = useTranslation('auth');
  const session = useAuthSession();
  const location = useLocation();
  const navigate = useNavigate();
  const [state, setState] = useState<GateState>({ kind: 'checking' });
  const returning = isLoginReturn(new URLSearchParams(location.search));
  const fullPath = `${location.pathname}${location.search}${location.hash}`;

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when a login return starts or ends, not on every navigation
  useEffect(() => {
    let active = true;
    const run = async () => {
      if (returning) {
        const result = await session.completeLogin(`${window.location.origin}${fullPath}`);
        if (!active) return;
        window.history.replaceState(window.history.state, '', '/');
        if (result.ok) {
          clearLoginError();
          await navigate(result.target, { replace: true });
        } else {
          rememberLoginError(result.code);
          await navigate(session.loginErrorPath, { replace: true });
        }
        return;
      }
      const pending = peekLoginError();
      if (pending) {
        setState({ kind: 'error', code: pending });
        return;
      }
      const token = await session.getAccessToken();
      if (!active) return;
      if (token) {
        setState({ kind: 'ready' });
        return;
      }
      const publicUrl = await session.publicUrlElsewhere();
      if (!active) return;
      if (publicUrl) setState({ kind: 'elsewhere', publicUrl });
      else await session.login(fullPath, chosenLanguage() ?? undefined);
    };
    run().catch((error: unknown) => {
      // The sign-in configuration could not be loaded (server unreachable): say so, offer a retry.
      console.info('sign-in unavailable', error);
      if (active) setState({ kind: 'error', code: 'failed' });
    });
    return () => {
      active = false;
    };
  }, [returning]);

  useEffect(
    () =>
      session.onUnauthorized(() => {
        // Refused right after a fresh login: another login would loop, so say so instead.
        if (session.completedLogin) {
          setState({ kind: 'error', code: 'rejected' });
          return;
        }
        setState({ kind: 'checking' });
        const { pathname, search, hash } = window.location;
        void session.login(`${pathname}${search}${hash}`, chosenLanguage() ?? undefined);
      }),
    [session],
  );

  if (state.kind === 'ready') return children ?? <Outlet />;
  if (state.kind === 'elsewhere') {
    const target = new URL(fullPath, state.publicUrl).toString();
    return (
      <FullPageStatus testId="login-elsewhere">
        <h1 className="text-2xl font-semibold">{t('elsewhere.title')}</h1>
        <p className="max-w-md text-stone-600">
          {t('elsewhere.text', { url: new URL(state.publicUrl).origin, current: window.location.origin })}
        </p>
        <a
          href={target}
          className="rounded-lg bg-brand-700 px-4 py-2 font-medium text-white hover:bg-brand-800"
          data-testid="login-elsewhere-link"
        >
          {t('elsewhere.open', { url: new URL(state.publicUrl).origin })}
        </a>
      </FullPageStatus>
    );
  }
  if (state.kind === 'error') {
    return (
      <FullPageStatus testId="login-error">
        <h1 className="text-2xl font-semibold">{t('failedTitle')}</h1>
        <p className="max-w-md text-stone-600" data-testid="login-error-message">
          {t(`errors.${state.code}`)}
        </p>
        <Button
          testid="login-again"
          onClick={() => {
            clearLoginError();
            void session.login('/', chosenLanguage() ?? undefined);
          }}
        >
          {t('signInAgain')}
        </Button>
      </FullPageStatus>
    );
  }
  return (
    <FullPageStatus testId="signing-in">
      <Spinner loading size="lg" label={t('signingIn')} />
    </FullPageStatus>
  );
}

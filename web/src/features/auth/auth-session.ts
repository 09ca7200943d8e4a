/**
 * The signed-in session: OpenID Connect code flow with PKCE through oidc-client-ts against
 * the issuer named by `GET /api/public/auth-config` (spec §2 "Login return", §8, §9).
 *
 * - `login(returnTo)` sends the browser to the hosted login with the target kept in the OIDC
 *   state, so the return lands where the user wanted to go.
 * - `completeLogin(url)` finishes a return (code+state or error+state) once per URL.
 * - `getAccessToken()` answers from client storage while the token is fresh (cached ≤ 24 h,
 *   expired 60 s early), else renews silently: by refresh token when refresh tokens are on,
 *   falling back to the hidden frame (`prompt=none`) when none is stored and the fallback is
 *   on. `login_required` clears the local session and returns null without redirecting.
 * - `logout()` ends the session locally and at the provider.
 */
import type { User, UserManager } from 'oidc-client-ts';
import { configureApiAuth } from '../../lib/api-client.ts';
import {
  clearToken,
  freshToken,
  setCurrentCompanyId,
  storeSignInLanguage,
  storeToken,
} from '../../lib/client-storage.ts';
import { type AuthConfig, fetchAuthConfig } from './auth-config.ts';
import { classifyLoginError, type LoginErrorCode, MissingRefreshTokenError } from './login-errors.ts';

/** The part of oidc-client-ts's UserManager the session uses (tests pass a fake). */
export type OidcManager = Pick<
  UserManager,
  'signinRedirect' | 'signinCallback' | 'signinSilent' | 'getUser' | 'removeUser' | 'signoutRedirect'
>;

/** Default time a silent login may take (ms, spec §9). */
export const SILENT_LOGIN_TIMEOUT_MS = 60_000;

export interface AuthSessionOptions {
  loadConfig?: () => Promise<AuthConfig>;
  createManager?: (
    config: AuthConfig,
    options: Required<Pick<AuthSessionOptions, 'silentLoginTimeoutMs'>>,
  ) => OidcManager | Promise<OidcManager>;
  /** Time a silent login may take (ms). Default 60 s (spec §9). */
  silentLoginTimeoutMs?: number;
  /** Renew with refresh tokens when one is stored. Default true. */
  useRefreshTokens?: boolean;
  /** With refresh tokens on but none stored, renew through the hidden frame. Default true. */
  useRefreshTokensFallback?: boolean;
  /** Where a failed login return goes (spec §2). Default `/`. */
  loginErrorPath?: string;
}

export type LoginResult = { ok: true; target: string } | { ok: false; code: LoginErrorCode };

interface LoginState {
  returnTo?: string;
}

/** Only same-app paths are followed after login, never `//host` or absolute URLs. */
export function safeTarget(target: unknown): string {
  return typeof target === 'string' && target.startsWith('/') && !target.startsWith('//') ? target : '/';
}

/** True when the address is a provider's answer: code+state or error+state (spec §2). */
export function isLoginReturn(search: URLSearchParams): boolean {
  return search.has('state') && (search.has('code') || search.has('error'));
}

/**
 * oidc-client-ts's UserManager for `config`. The library (≈ 17 KiB gzipped) is imported here,
 * not at the top: it is needed to sign in, renew, complete a return or sign out, never while
 * the stored token is fresh — the usual first load of a signed-in user.
 */
export async function createUserManager(
  config: AuthConfig,
  { silentLoginTimeoutMs }: { silentLoginTimeoutMs: number },
): Promise<UserManager> {
  const [{ UserManager, WebStorageStateStore }, { HiddenFrameNavigator }] = await Promise.all([
    import('oidc-client-ts'),
    import('./hidden-frame-navigator.ts'),
  ]);
  const origin = window.location.origin;
  return new UserManager(
    {
      authority: config.issuer,
      client_id: config.client_id,
      redirect_uri: `${origin}/`,
      silent_redirect_uri: `${origin}/silent-renew.html`,
      post_logout_redirect_uri: `${origin}/`,
      response_type: 'code',
      scope: config.scope,
      resource: config.resource,
      // Issuers without resource indicators (Auth0) take the API audience as a parameter.
      extraQueryParams: config.resource ? {} : { audience: config.audience },
      automaticSilentRenew: false,
      silentRequestTimeoutInSeconds: silentLoginTimeoutMs / 1000,
      userStore: new WebStorageStateStore({ store: window.localStorage }),
    },
    undefined,
    undefined,
    new HiddenFrameNavigator(silentLoginTimeoutMs),
  );
}

export class AuthSession {
  readonly loginErrorPath: string;
  private readonly options: AuthSessionOptions;
  private manager: Promise<OidcManager> | null = null;
  private renewal: Promise<string | null> | null = null;
  private completions = new Map<string, Promise<LoginResult>>();
  private unauthorizedListeners = new Set<() => void>();
  /** A login finished in this page load: a 401 now is a refusal, not an expired session. */
  completedLogin = false;

  constructor(options: AuthSessionOptions = {}) {
    this.options = options;
    this.loginErrorPath = options.loginErrorPath ?? '/';
  }

  private config: Promise<AuthConfig> | null = null;

  private getConfig(): Promise<AuthConfig> {
    this.config ??= (this.options.loadConfig ?? fetchAuthConfig)();
    // A failed config call must not stick: the next attempt asks again.
    this.config.catch(() => {
      this.config = null;
    });
    return this.config;
  }

  /**
   * The server's PUBLIC_URL when this page was opened under another origin: the provider sends
   * the browser back to PUBLIC_URL, where this origin's login state is not, so signing in here
   * cannot succeed. Null when the origins agree (or the server does not say).
   */
  async publicUrlElsewhere(): Promise<string | null> {
    const { public_url: publicUrl } = await this.getConfig();
    if (!publicUrl) return null;
    return new URL(publicUrl).origin === window.location.origin ? null : publicUrl;
  }

  private getManager(): Promise<OidcManager> {
    this.manager ??= this.getConfig().then((config) =>
      (this.options.createManager ?? createUserManager)(config, {
        silentLoginTimeoutMs: this.options.silentLoginTimeoutMs ?? SILENT_LOGIN_TIMEOUT_MS,
      }),
    );
    // A failed config call must not stick: the next attempt asks again.
    this.manager.catch(() => {
      this.manager = null;
    });
    return this.manager;
  }

  /** Sends the browser to the hosted login; `returnTo` is the full path to come back to. */
  async login(returnTo: string, uiLocale?: string): Promise<void> {
    const manager = await this.getManager();
    await manager.signinRedirect({
      state: { returnTo: safeTarget(returnTo) } satisfies LoginState,
      ...(uiLocale ? { ui_locales: uiLocale } : {}),
    });
  }

  /**
   * Completes a login return at `url`. Runs once per URL (React may mount twice), so the
   * one-time state is not consumed twice. Never throws: failures come back classified.
   */
  completeLogin(url: string): Promise<LoginResult> {
    let completion = this.completions.get(url);
    if (!completion) {
      completion = this.runCompletion(url);
      this.completions.set(url, completion);
    }
    return completion;
  }

  private async runCompletion(url: string): Promise<LoginResult> {
    try {
      const manager = await this.getManager();
      const user = await manager.signinCallback(url);
      if (!user) throw new Error('The login return carried no user.');
      this.remember(user);
      this.completedLogin = true;
      return { ok: true, target: safeTarget((user.state as LoginState | undefined)?.returnTo) };
    } catch (error) {
      const code = classifyLoginError(error);
      console.info('login return failed', code, error);
      if (code === 'login_required') await this.clearLocal();
      return { ok: false, code };
    }
  }

  /** A usable access token, renewed silently when needed; null when a login is needed. */
  async getAccessToken(): Promise<string | null> {
    const cached = freshToken();
    if (cached) return cached;
    this.renewal ??= this.renew().finally(() => {
      this.renewal = null;
    });
    return this.renewal;
  }

  private async renew(): Promise<string | null> {
    const manager = await this.getManager();
    const user = await manager.getUser();
    // Nobody signed in on this browser: only an interactive login helps.
    if (!user) return null;
    try {
      const renewed = await this.silentLogin(manager, user);
      if (!renewed) return null;
      this.remember(renewed);
      return renewed.access_token;
    } catch (error) {
      const code = classifyLoginError(error);
      console.info('silent login failed', code, error);
      if (code === 'login_required') await this.clearLocal();
      return null;
    }
  }

  private async silentLogin(manager: OidcManager, user: User): Promise<User | null> {
    const useRefreshTokens = this.options.useRefreshTokens ?? true;
    const fallback = this.options.useRefreshTokensFallback ?? true;
    if (useRefreshTokens && user.refresh_token) return manager.signinSilent();
    if (useRefreshTokens && !fallback) throw new MissingRefreshTokenError();
    return manager.signinSilent({ forceIframeAuth: true });
  }

  private remember(user: User) {
    storeToken(user.access_token, user.expires_at);
    storeSignInLanguage(user.profile.locale);
  }

  /** Forgets the tokens in this browser (the provider's session stays). */
  async clearLocal(): Promise<void> {
    clearToken();
    const manager = await this.getManager().catch(() => null);
    await manager?.removeUser();
  }

  /** Signs out here and at the provider, which redirects back to `/`. */
  async logout(): Promise<void> {
    const manager = await this.getManager();
    const user = await manager.getUser();
    clearToken();
    setCurrentCompanyId(null);
    await manager.removeUser();
    await manager.signoutRedirect(user?.id_token ? { id_token_hint: user.id_token } : {});
  }

  /** The API answered 401: drop the token and tell the screens (the auth gate re-logs in). */
  handleUnauthorized() {
    clearToken();
    for (const listener of this.unauthorizedListeners) listener();
  }

  onUnauthorized(listener: () => void): () => void {
    this.unauthorizedListeners.add(listener);
    return () => this.unauthorizedListeners.delete(listener);
  }
}

/** Makes the API client take its tokens from `session` and report 401s to it. */
export function connectApiClient(session: AuthSession) {
  configureApiAuth({
    getAccessToken: () => session.getAccessToken(),
    onUnauthorized: () => session.handleUnauthorized(),
  });
}

/**
 * The embedded OpenID Connect provider (docs/architecture.md): panva's oidc-provider
 * at `${PUBLIC_URL}/oidc` with one public client, `heizplan-web` (authorization code + PKCE
 * S256, refresh tokens rotated on every use, silent login with prompt=none, RP-initiated
 * logout). Access tokens are JWTs for the API resource (`${PUBLIC_URL}/api`, audience
 * OIDC_AUDIENCE) carrying name, email and email_verified, so the API needs no userinfo call.
 * Consent is implicit: the client is first-party. Keys, sessions and grants live in the
 * database (auth/keys.ts, auth/oidc-adapter.ts).
 *
 * Option names follow oidc-provider v9's configuration docs (features.resourceIndicators,
 * features.rpInitiatedLogout, interactions.url, loadExistingGrant, rotateRefreshToken,
 * clientBasedCORS, cookies.keys, extraTokenClaims).
 */

import { createLocalJWKSet } from 'jose';
import type { Configuration, KoaContextWithOIDC } from 'oidc-provider';
import { type Clock, systemClock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { findActiveAccount, findActiveAccountWithSignOut } from './accounts.repository.ts';
import {
  AUTH_TIME_CLAIM,
  createTokenVerifier,
  SESSION_CLAIM,
  SIGN_OUT_EPOCH_CLAIM,
  type TokenVerifier,
} from './bearer.ts';
import { loadProviderKeys, publicJwks } from './keys.ts';
import { createAdapterClass, purgeExpiredIdentityState } from './oidc-adapter.repository.ts';
import { Provider, providerErrors } from './oidc-provider-module.ts';
import { pickLang, t } from './pages.i18n.ts';
import {
  escapeHtml,
  PAGE_HEADERS,
  pageHeadersWithScript,
  renderMessage,
  renderPage,
  withLang,
} from './pages.ts';
import { sessionLoginTime } from './sessions.repository.ts';
import { mailIfNewBrowser, recordSessionUse } from './sessions.service.ts';

export const WEB_CLIENT_ID = 'heizplan-web';
/** What the SPA asks for; offline_access brings refresh tokens. */
export const WEB_SCOPE = 'openid profile email offline_access';

const HOUR = 60 * 60;
/** Access token lifetime (s). */
const ACCESS_TOKEN_TTL = 15 * 60;
const DAY = 24 * HOUR;

export interface IdentityProvider {
  provider: InstanceType<typeof Provider>;
  /** `${PUBLIC_URL}/oidc` */
  issuer: string;
  /** Resource indicator of the API, `${PUBLIC_URL}/api`; the default, so clients may omit it. */
  resource: string;
  /** Verifies API access tokens against the provider's own keys, in process. */
  verifyToken: TokenVerifier;
}

/** Where each identity URL lives (the provider derives its endpoints from `issuer`). */
export function identityUrls(config: Config) {
  return { issuer: `${config.publicUrl}/oidc`, resource: `${config.publicUrl}/api` };
}

const AUTO_CONFIRM_LOGOUT = `
const form = document.getElementById('op.logoutForm');
const yes = document.createElement('input');
yes.type = 'hidden'; yes.name = 'logout'; yes.value = 'yes';
form.appendChild(yes); form.submit();
`;

function pageLang(ctx: KoaContextWithOIDC) {
  return pickLang(ctx.query.lang ?? ctx.query.ui_locales, ctx.get('accept-language'));
}

/** Loads or creates keys, purges expired artefacts and configures the provider. */
export async function createIdentityProvider(
  config: Config,
  db: Db,
  now: Clock = systemClock,
): Promise<IdentityProvider> {
  const { issuer, resource } = identityUrls(config);
  const origin = new URL(config.publicUrl).origin;
  const keys = await loadProviderKeys(db);
  await purgeExpiredIdentityState(db);

  const configuration: Configuration = {
    adapter: createAdapterClass(db),
    clients: [
      {
        client_id: WEB_CLIENT_ID,
        client_name: 'Heizplan',
        application_type: 'web',
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        redirect_uris: [`${config.publicUrl}/`, `${config.publicUrl}/silent-renew.html`],
        post_logout_redirect_uris: [`${config.publicUrl}/`],
        scope: WEB_SCOPE,
      },
    ],
    jwks: keys.jwks as Configuration['jwks'],
    cookies: { keys: keys.cookieKeys },
    pkce: { required: () => true },
    scopes: ['openid', 'offline_access', 'profile', 'email'],
    claims: { openid: ['sub'], profile: ['name', 'locale'], email: ['email', 'email_verified'] },
    // The SPA reads the profile from the ID token; userinfo would need a second token.
    conformIdTokenClaims: false,
    async findAccount(_ctx, sub) {
      const account = await findActiveAccount(db, sub);
      if (!account) return undefined;
      return {
        accountId: account.id,
        claims: () => ({
          sub: account.id,
          name: account.name,
          ...(account.lang ? { locale: account.lang } : {}),
          email: account.email,
          email_verified: account.emailVerified,
        }),
      };
    },
    async extraTokenClaims(ctx, token) {
      const accountId = 'accountId' in token ? token.accountId : undefined;
      const found = accountId ? await findActiveAccountWithSignOut(db, accountId) : undefined;
      if (!found) return undefined;
      const { account, tokensValidFrom } = found;
      // Each access token issued in a session (code exchange, refresh) is a use of it, from the
      // browser that asks; its uid becomes `sid`, so the account API knows "this session".
      const sessionUid =
        'sessionUid' in token && typeof token.sessionUid === 'string' ? token.sessionUid : '';
      // When the session signed in: a recent one may add a factor without the password again.
      const authTime = sessionUid ? await sessionLoginTime(db, sessionUid) : undefined;
      if (sessionUid) {
        const use = {
          sessionUid,
          accountId: account.id,
          userAgent: ctx?.get('user-agent') ?? '',
          now: now(),
        };
        if (await recordSessionUse(db, use)) {
          // A notice that cannot be made or sent must not stop the sign-in it is about.
          await mailIfNewBrowser(db, config, use).catch(() => undefined);
        }
      }
      return {
        ...(sessionUid ? { [SESSION_CLAIM]: sessionUid } : {}),
        ...(authTime ? { [AUTH_TIME_CLAIM]: authTime } : {}),
        name: account.name,
        email: account.email,
        email_verified: account.emailVerified,
        // The account's sign-out epoch when the token was issued (ms): a password reset or change
        // moves it on, and the API refuses tokens that carry an older one (bearer.ts).
        [SIGN_OUT_EPOCH_CLAIM]: tokensValidFrom?.getTime() ?? 0,
      };
    },
    // First-party client: grant everything it may ask for instead of showing a consent screen.
    async loadExistingGrant(ctx) {
      const grantId =
        ctx.oidc.result?.consent?.grantId ?? ctx.oidc.session?.grantIdFor(ctx.oidc.client?.clientId ?? '');
      if (grantId) {
        const existing = await ctx.oidc.provider.Grant.find(grantId);
        if (existing) return existing;
      }
      if (ctx.oidc.client?.clientId !== WEB_CLIENT_ID || !ctx.oidc.session?.accountId) return undefined;
      const grant = new ctx.oidc.provider.Grant({
        clientId: WEB_CLIENT_ID,
        accountId: ctx.oidc.session.accountId,
      });
      grant.addOIDCScope(WEB_SCOPE);
      grant.addOIDCClaims(['name', 'locale', 'email', 'email_verified']);
      await grant.save();
      return grant;
    },
    interactions: { url: (_ctx, interaction) => `/auth/interaction/${interaction.uid}` },
    features: {
      devInteractions: { enabled: false },
      revocation: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resource,
        // Without this the token endpoint would issue an opaque userinfo token when the
        // request carries the openid scope but no `resource` parameter.
        useGrantedResource: () => true,
        getResourceServerInfo(_ctx, indicator) {
          if (indicator !== resource) throw new providerErrors.InvalidTarget();
          return {
            scope: '',
            audience: config.oidc.audience,
            accessTokenFormat: 'jwt',
            accessTokenTTL: ACCESS_TOKEN_TTL,
            jwt: { sign: { alg: 'RS256' } },
          };
        },
      },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource(ctx, form) {
          const lang = pageLang(ctx);
          ctx.set(pageHeadersWithScript(AUTO_CONFIRM_LOGOUT));
          ctx.body = renderPage({
            lang,
            title: t(lang, 'logoutTitle'),
            switchHref: withLang(ctx.originalUrl, lang === 'de' ? 'en' : 'de'),
            body: `${form}<p>${escapeHtml(t(lang, 'logoutQuestion'))}</p>
<button autofocus type="submit" form="op.logoutForm" value="yes" name="logout">${escapeHtml(t(lang, 'logoutYes'))}</button>
<button class="secondary" type="submit" form="op.logoutForm">${escapeHtml(t(lang, 'logoutNo'))}</button>${
              // A valid id_token_hint (checked by the provider) shows the app itself asked to
              // sign out (the SPA's /logout/), so confirm at once; the buttons stay as fallback.
              ctx.oidc.entities.IdTokenHint ? `<script>${AUTO_CONFIRM_LOGOUT}</script>` : ''
            }`,
          });
        },
        postLogoutSuccessSource(ctx) {
          const lang = pageLang(ctx);
          ctx.set(PAGE_HEADERS);
          ctx.body = renderPage({
            lang,
            title: t(lang, 'signedOutTitle'),
            switchHref: withLang(ctx.originalUrl, lang === 'de' ? 'en' : 'de'),
            body: renderMessage(t(lang, 'signedOut'), {
              href: `${config.publicUrl}/`,
              label: t(lang, 'toApp'),
            }),
          });
        },
      },
    },
    // The SPA always gets a refresh token (no prompt=consent needed for offline_access);
    // without offline_access it ends with the session, so logout also ends silent renewal.
    issueRefreshToken: (_ctx, client) =>
      client.clientId === WEB_CLIENT_ID && client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    clientBasedCORS: (_ctx, requestOrigin) => requestOrigin === origin,
    ttl: {
      // Short: the web app renews with its refresh token, and a token that leaked ends soon.
      AccessToken: ACCESS_TOKEN_TTL,
      AuthorizationCode: 60,
      IdToken: HOUR,
      Interaction: HOUR,
      RefreshToken: 14 * DAY,
      Session: 14 * DAY,
      Grant: 14 * DAY,
    },
    renderError(ctx, out) {
      const lang = pageLang(ctx);
      ctx.set(PAGE_HEADERS);
      ctx.body = renderPage({
        lang,
        title: t(lang, 'errorTitle'),
        switchHref: withLang(ctx.originalUrl, lang === 'de' ? 'en' : 'de'),
        body: `${renderMessage(t(lang, 'errorIntro'), { href: `${config.publicUrl}/`, label: t(lang, 'toApp') }, 'alert')}<p class="hint">${escapeHtml(String(out.error_description ?? out.error))}</p>`,
      });
    },
  };

  const provider = new Provider(issuer, configuration);
  // Behind a TLS-terminating proxy X-Forwarded-Proto decides whether cookies are Secure.
  provider.proxy = true;
  const verifyToken = createTokenVerifier({
    issuer,
    audience: config.oidc.audience,
    jwks: createLocalJWKSet(publicJwks(keys) as Parameters<typeof createLocalJWKSet>[0]),
  });
  return { provider, issuer, resource, verifyToken };
}

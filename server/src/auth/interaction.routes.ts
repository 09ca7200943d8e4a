/**
 * Hosted identity pages of the embedded provider, outside `/api` and `/oidc`:
 *
 * - `/auth/interaction/:uid` — login (GET form, POST credentials); oidc-provider sends the
 *   browser here and scopes its interaction cookie to this path, so registration lives below it
 * - `/auth/interaction/:uid/second-factor` — the verification code after the password, for an
 *   account with a TOTP authenticator (decision 0072), or a passkey instead (decision 0074)
 * - `/auth/interaction/:uid/passkey` — a passkey's answer, as the whole sign-in or as the second
 *   factor; `…/passkey/options` answers the WebAuthn options as JSON (the one JSON answer here,
 *   fetched by the page's passkey button); `/auth/assets/…` serves the WebAuthn browser bundle
 * - `/auth/interaction/:uid/register` — create an account, then continue signed in
 * - `/auth/forgot`, `/auth/reset/:token` — password reset by mail link
 * - `/auth/verify/:token` — email confirmation link
 *
 * Pages are German or English (`?lang=`, else the SPA's `ui_locales` on the login page, else
 * Accept-Language). Errors re-render the form with a message and a 4xx status; nothing here
 * answers JSON.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import formbody from '@fastify/formbody';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Clock, systemClock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { HttpError } from '../http/errors.ts';
import { rateLimitOptions } from '../http/rate-limit-store.ts';
import { recordLogin } from './accounts.repository.ts';
import {
  confirmEmail,
  type IdentityDeps,
  isResetTokenValid,
  registerAccount,
  requestPasswordReset,
  resetPassword,
  type SecondFactors,
  signIn,
} from './accounts.service.ts';
import { type Lang, pickLang, t } from './pages.i18n.ts';
import {
  escapeHtml,
  PAGE_HEADERS,
  pageHeadersWithPasskey,
  passwordHint,
  renderForm,
  renderMessage,
  renderPage,
  renderPasskeyForm,
  WEBAUTHN_BUNDLE_PATH,
  withLang,
} from './pages.ts';
import { hasPasskey } from './passkeys.repository.ts';
import { passkeySignInOptions, verifyPasskeySignIn } from './passkeys.service.ts';
import { MIN_PASSWORD_LENGTH } from './password.ts';
import type { IdentityProvider } from './provider.ts';
import { hasConfirmedTotp } from './second-factor.repository.ts';
import {
  issuePendingToken,
  issueTrustedDevice,
  isTrustedDevice,
  readPendingToken,
  redeemSecondFactorCode,
  rememberDeviceDays,
  TRUSTED_DEVICE_COOKIE,
} from './second-factor.service.ts';
import {
  ACCOUNT_THRESHOLD,
  accountKey,
  clearFailures,
  IP_THRESHOLD,
  ipKey,
  lockedUntil,
  recordFailures,
} from './throttle.ts';

/** Interaction ids and link tokens are URL-safe random strings. */
const SAFE_ID = /^[\w-]{8,128}$/;

type Fields = Record<string, string>;

function formFields(request: FastifyRequest): Fields {
  const body = (request.body ?? {}) as Record<string, unknown>;
  return Object.fromEntries(Object.entries(body).map(([k, v]) => [k, typeof v === 'string' ? v : '']));
}

/** The trusted-browser cookie's value (decision 0078), or '' when the browser sent none. */
function trustedDeviceCookie(request: FastifyRequest): string {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === TRUSTED_DEVICE_COOKIE) return value.join('=');
  }
  return '';
}

function langOf(request: FastifyRequest, fields: Fields = {}): Lang {
  const query = request.query as Record<string, unknown>;
  return pickLang(fields.lang ?? query.lang, request.headers['accept-language']);
}

function page(
  reply: FastifyReply,
  status: number,
  lang: Lang,
  title: string,
  path: string,
  body: string,
  headers: Record<string, string> = PAGE_HEADERS,
) {
  return reply
    .code(status)
    .headers(headers)
    .send(renderPage({ lang, title, switchHref: withLang(path, lang === 'de' ? 'en' : 'de'), body }));
}

/** A page with passkey buttons: its body is made with a fresh CSP nonce for the WebAuthn bundle. */
function passkeyPage(
  reply: FastifyReply,
  status: number,
  lang: Lang,
  title: string,
  path: string,
  body: (nonce: string) => string,
) {
  const nonce = randomBytes(16).toString('base64');
  return page(reply, status, lang, title, path, body(nonce), pageHeadersWithPasskey(nonce));
}

/** `@simplewebauthn/browser`'s UMD bundle (global `SimpleWebAuthnBrowser`), read once. */
function webauthnBundle(): string {
  const entry = createRequire(import.meta.url).resolve('@simplewebauthn/browser');
  return readFileSync(path.join(path.dirname(entry), '..', 'dist', 'bundle', 'index.umd.min.js'), 'utf8');
}

export interface IdentityRoutesOptions {
  identity: IdentityProvider;
  config: Config;
  db: Db;
  /** What the sign-in reads as now (throttle, second factor); default the machine's clock. */
  now?: Clock;
}

export async function identityPageRoutes(
  app: FastifyInstance,
  { identity, config, db, now = systemClock }: IdentityRoutesOptions,
) {
  await app.register(formbody);
  // Mail-sending and account-creating forms are capped per client IP so they cannot be used
  // to flood mailboxes or the account table; sign-in has its own backoff (auth/throttle.ts).
  await app.register(rateLimit, rateLimitOptions(config, db, 'auth'));
  const deps: IdentityDeps = { db, config, log: app.log, now };
  const { provider } = identity;
  const appLink = (lang: Lang) => ({ href: `${config.publicUrl}/`, label: t(lang, 'toApp') });
  const loginPath = (uid: string) => `/auth/interaction/${uid}`;

  /** The running interaction, or undefined when its cookie is missing/expired or for another uid. */
  async function interactionFor(request: FastifyRequest, reply: FastifyReply, uid: string) {
    try {
      const details = await provider.interactionDetails(request.raw, reply.raw);
      return details.uid === uid ? details : undefined;
    } catch (err) {
      request.log.info({ reason: (err as Error).message }, 'sign-in interaction not found');
      return undefined;
    }
  }

  function expired(reply: FastifyReply, lang: Lang, path: string) {
    return page(
      reply,
      400,
      lang,
      t(lang, 'errorTitle'),
      path,
      renderMessage(t(lang, 'errorIntro'), appLink(lang), 'alert'),
    );
  }

  function loginForm(lang: Lang, uid: string, nonce: string, email = '', alert?: string) {
    return `${renderForm({
      lang,
      action: loginPath(uid),
      intro: t(lang, 'loginIntro'),
      alert,
      fields: [
        { name: 'email', label: t(lang, 'email'), type: 'email', value: email, autocomplete: 'username' },
        { name: 'password', label: t(lang, 'password'), type: 'password', autocomplete: 'current-password' },
      ],
      submit: t(lang, 'signIn'),
      links: [
        { href: `/auth/forgot?uid=${uid}&lang=${lang}`, label: t(lang, 'forgotLink') },
        {
          href: `${loginPath(uid)}/register?lang=${lang}`,
          label: t(lang, 'registerLink'),
          prefix: t(lang, 'noAccount'),
        },
      ],
    })}
${renderPasskeyForm({
  lang,
  action: `${loginPath(uid)}/passkey`,
  optionsUrl: `${loginPath(uid)}/passkey/options`,
  label: t(lang, 'passkeySignIn'),
  lead: t(lang, 'or'),
  nonce,
})}`;
  }

  /** Ends the interaction signed in as `accountId` and sends the browser back to the provider. */
  async function finishLogin(request: FastifyRequest, reply: FastifyReply, accountId: string) {
    await recordLogin(db, accountId, now());
    const returnTo = await provider.interactionResult(
      request.raw,
      reply.raw,
      { login: { accountId, remember: true } },
      { mergeWithLastSubmission: false },
    );
    return reply.code(303).header('location', returnTo).header('cache-control', 'no-store').send();
  }

  app.get<{ Params: { uid: string } }>('/auth/interaction/:uid', async (request, reply) => {
    const { uid } = request.params;
    const details = SAFE_ID.test(uid) ? await interactionFor(request, reply, uid) : undefined;
    // The SPA may pass the user's language as ui_locales (OIDC Core 3.1.2.1); ?lang= still wins.
    const uiLocale = String(details?.params.ui_locales ?? '').slice(0, 2);
    const lang = langOf(request, (request.query as Fields).lang ? {} : { lang: uiLocale });
    if (!details) return expired(reply, lang, request.url);
    const hint = typeof details.params.login_hint === 'string' ? details.params.login_hint : '';
    return passkeyPage(reply, 200, lang, t(lang, 'loginTitle'), request.url, (nonce) =>
      loginForm(lang, uid, nonce, hint),
    );
  });

  app.post<{ Params: { uid: string } }>('/auth/interaction/:uid', async (request, reply) => {
    const fields = formFields(request);
    const lang = langOf(request, fields);
    const { uid } = request.params;
    const details = SAFE_ID.test(uid) ? await interactionFor(request, reply, uid) : undefined;
    if (!details) return expired(reply, lang, request.url);
    const email = (fields.email ?? '').trim();
    const result = await signIn(deps, email, fields.password ?? '', request.ip);
    if (result.ok && result.secondFactor) {
      // A browser trusted after an earlier code step skips it (decision 0078); the skipped step
      // counts as the passed second factor, so the account's failures are cleared as there.
      const trusted = trustedDeviceCookie(request);
      if (trusted && (await isTrustedDevice(deps, trusted, result.account.id))) {
        await clearFailures(db, accountKey(result.account.id));
        return finishLogin(request, reply, result.account.id);
      }
      const pending = await issuePendingToken(deps, result.account.id, uid);
      const step = {
        uid,
        pending,
        factors: result.factors,
        rememberDays: await rememberDeviceDays(deps, result.account.id),
      };
      return secondFactorPage(reply, 200, lang, request.url, step);
    }
    if (result.ok) return finishLogin(request, reply, result.account.id);
    const title = t(lang, 'loginTitle');
    const alert =
      result.reason === 'locked' ? lockedAlert(reply, lang, result.until) : t(lang, 'invalidCredentials');
    return passkeyPage(reply, result.reason === 'locked' ? 429 : 401, lang, title, request.url, (nonce) =>
      loginForm(lang, uid, nonce, email, alert),
    );
  });

  /** Sets Retry-After for a lock lasting until `until`; @returns the page's alert saying so. */
  function lockedAlert(reply: FastifyReply, lang: Lang, until: Date) {
    const seconds = Math.max(1, Math.ceil((until.getTime() - now().getTime()) / 1000));
    reply.header('retry-after', String(seconds));
    return t(lang, 'locked', { minutes: Math.max(1, Math.ceil(seconds / 60)) });
  }

  /**
   * The second step after the password; `pending` carries who passed it (decision 0072). With a
   * TOTP the code form, and a passkey button below when the account has passkeys too; with
   * passkeys only, the passkey button alone (decision 0074).
   */
  function secondFactorPage(
    reply: FastifyReply,
    status: number,
    lang: Lang,
    url: string,
    step: { uid: string; pending: string; factors: SecondFactors; rememberDays?: number },
    say: { alert?: string; error?: string } = {},
  ) {
    const { uid, pending, factors } = step;
    const remember = step.rememberDays ?? 0;
    if (!factors.passkey) {
      return page(
        reply,
        status,
        lang,
        t(lang, 'secondFactorTitle'),
        url,
        codeForm(lang, uid, pending, say, remember),
      );
    }
    const title = t(lang, factors.totp ? 'secondFactorTitle' : 'passkeyTitle');
    return passkeyPage(reply, status, lang, title, url, (nonce) => {
      const passkey = renderPasskeyForm({
        lang,
        action: `${loginPath(uid)}/passkey`,
        optionsUrl: `${loginPath(uid)}/passkey/options`,
        pending,
        label: t(lang, 'passkeyUse'),
        nonce,
        ...(factors.totp ? { lead: t(lang, 'or') } : {}),
      });
      if (factors.totp) return `${codeForm(lang, uid, pending, say, remember)}\n${passkey}`;
      const alert = say.alert ?? say.error;
      const shown = alert ? `<div class="alert" role="alert">${escapeHtml(alert)}</div>` : '';
      return `<p>${escapeHtml(t(lang, 'passkeyIntro'))}</p>${shown}
${passkey}
<div class="links"><a href="${loginPath(uid)}?lang=${lang}">${t(lang, 'backToLogin')}</a></div>`;
    });
  }

  /** The account's second factors now (they may change between the password and this step). */
  async function factorsOf(accountId: string): Promise<SecondFactors> {
    return { totp: await hasConfirmedTotp(db, accountId), passkey: await hasPasskey(db, accountId) };
  }

  /** The code form; with `rememberDays` > 0 (every company of the account allows it) "trust this browser". */
  function codeForm(
    lang: Lang,
    uid: string,
    pending: string,
    say: { alert?: string; error?: string } = {},
    rememberDays = 0,
  ) {
    return renderForm({
      ...(rememberDays > 0
        ? { checkbox: { name: 'remember', label: t(lang, 'trustBrowser', { days: rememberDays }) } }
        : {}),
      lang,
      action: `${loginPath(uid)}/second-factor`,
      intro: t(lang, 'secondFactorIntro'),
      alert: say.alert,
      hidden: { pending },
      fields: [
        {
          name: 'code',
          label: t(lang, 'secondFactorCode'),
          type: 'text',
          inputmode: 'numeric',
          autocomplete: 'one-time-code',
          hint: t(lang, 'secondFactorHint'),
          error: say.error,
        },
      ],
      submit: t(lang, 'secondFactorSubmit'),
      links: [{ href: `${loginPath(uid)}?lang=${lang}`, label: t(lang, 'backToLogin') }],
    });
  }

  // Reloading the code page (a GET of its form's address) starts again at the password: the
  // pending token lives only in the form.
  app.get<{ Params: { uid: string } }>('/auth/interaction/:uid/second-factor', async (request, reply) => {
    const { uid } = request.params;
    const lang = langOf(request);
    if (!SAFE_ID.test(uid)) return expired(reply, lang, request.url);
    return reply
      .code(303)
      .header('location', `${loginPath(uid)}?lang=${lang}`)
      .header('cache-control', 'no-store')
      .send();
  });

  // The code step counts wrong codes on the same keys as wrong passwords (auth/throttle.ts), so a
  // known password buys no extra guesses; a wrong code says only that the code is wrong.
  app.post<{ Params: { uid: string } }>('/auth/interaction/:uid/second-factor', async (request, reply) => {
    const fields = formFields(request);
    const lang = langOf(request, fields);
    const { uid } = request.params;
    const details = SAFE_ID.test(uid) ? await interactionFor(request, reply, uid) : undefined;
    const pending = fields.pending ?? '';
    const accountId = details ? await readPendingToken(deps, pending, uid) : undefined;
    if (!accountId) return expired(reply, lang, request.url);
    const rememberDays = await rememberDeviceDays(deps, accountId);
    const step = { uid, pending, factors: await factorsOf(accountId), rememberDays };
    const keys = [accountKey(accountId), ipKey(request.ip)];
    const until = await lockedUntil(db, keys, now());
    if (until) {
      const alert = lockedAlert(reply, lang, until);
      return secondFactorPage(reply, 429, lang, request.url, step, { alert });
    }
    if (await redeemSecondFactorCode(deps, accountId, fields.code ?? '')) {
      await clearFailures(db, accountKey(accountId));
      if (fields.remember === 'on' && rememberDays > 0) {
        // HttpOnly and only below /auth: the app's scripts never see it, the API never gets it.
        const value = await issueTrustedDevice(deps, accountId, rememberDays);
        const secure = config.publicUrl.startsWith('https:') ? '; Secure' : '';
        reply.header(
          'set-cookie',
          `${TRUSTED_DEVICE_COOKIE}=${value}; Path=/auth; Max-Age=${rememberDays * 86_400}; HttpOnly; SameSite=Lax${secure}`,
        );
      }
      return finishLogin(request, reply, accountId);
    }
    const lockedNow = await recordFailures(
      db,
      [
        { key: accountKey(accountId), threshold: ACCOUNT_THRESHOLD },
        { key: ipKey(request.ip), threshold: IP_THRESHOLD },
      ],
      now(),
    );
    if (lockedNow) {
      const alert = lockedAlert(reply, lang, lockedNow);
      return secondFactorPage(reply, 429, lang, request.url, step, { alert });
    }
    const error = t(lang, 'secondFactorWrong');
    return secondFactorPage(reply, 401, lang, request.url, step, { error });
  });

  const bundle = webauthnBundle();
  app.get(WEBAUTHN_BUNDLE_PATH, async (_request, reply) =>
    reply
      .header('content-type', 'text/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(bundle),
  );

  /**
   * The passkey button's options (JSON): with a valid pending token the account's passkeys as a
   * second factor, else a sign-in without password (decision 0074). Each call stores a challenge,
   * so the calls are capped per client IP.
   */
  app.post<{ Params: { uid: string } }>(
    '/auth/interaction/:uid/passkey/options',
    { config: { rateLimit: { max: 30, timeWindow: '5 minutes' } } },
    async (request, reply) => {
      const fields = formFields(request);
      const { uid } = request.params;
      const details = SAFE_ID.test(uid) ? await interactionFor(request, reply, uid) : undefined;
      const accountId =
        fields.pending && details ? await readPendingToken(deps, fields.pending, uid) : undefined;
      if (!details || (fields.pending && !accountId)) {
        const message = 'The sign-in has expired; start again.';
        return reply
          .code(400)
          .header('content-type', 'application/problem+json')
          .header('cache-control', 'no-store')
          .send({
            type: 'about:blank',
            title: 'Bad Request',
            status: 400,
            detail: message,
            errors: [{ field: fields.pending ? 'body.pending' : 'params.uid', message }],
          });
      }
      return reply.header('cache-control', 'no-store').send(await passkeySignInOptions(deps, uid, accountId));
    },
  );

  // A passkey's answer: the whole sign-in, or with a pending token the second factor. Wrong and
  // replayed answers count on the sign-in throttle like wrong codes (auth/throttle.ts).
  app.post<{ Params: { uid: string } }>('/auth/interaction/:uid/passkey', async (request, reply) => {
    const fields = formFields(request);
    const lang = langOf(request, fields);
    const { uid } = request.params;
    const details = SAFE_ID.test(uid) ? await interactionFor(request, reply, uid) : undefined;
    if (!details) return expired(reply, lang, request.url);
    const pending = fields.pending ?? '';
    const pendingAccount = pending ? await readPendingToken(deps, pending, uid) : undefined;
    if (pending && !pendingAccount) return expired(reply, lang, request.url);
    const result = await verifyPasskeySignIn(deps, {
      uid,
      responseText: fields.response ?? '',
      ip: request.ip,
      ...(pendingAccount ? { accountId: pendingAccount } : {}),
    });
    if (result.ok) return finishLogin(request, reply, result.accountId);
    const status = result.reason === 'locked' ? 429 : 401;
    const alert =
      result.reason === 'locked' ? lockedAlert(reply, lang, result.until) : t(lang, 'passkeyWrong');
    const loginUrl = loginPath(uid);
    if (pendingAccount) {
      const step = { uid, pending, factors: await factorsOf(pendingAccount) };
      return secondFactorPage(reply, status, lang, loginUrl, step, { alert });
    }
    return passkeyPage(reply, status, lang, t(lang, 'loginTitle'), loginUrl, (nonce) =>
      loginForm(lang, uid, nonce, '', alert),
    );
  });

  function registerForm(lang: Lang, uid: string, values: Fields = {}, errors: Record<string, string> = {}) {
    return renderForm({
      lang,
      action: `${loginPath(uid)}/register`,
      fields: [
        {
          name: 'name',
          label: t(lang, 'name'),
          type: 'text',
          value: values.name,
          error: errors.name,
          autocomplete: 'name',
          nonBlank: true,
        },
        {
          name: 'email',
          label: t(lang, 'email'),
          type: 'email',
          value: values.email,
          error: errors.email,
          autocomplete: 'email',
        },
        {
          name: 'password',
          label: t(lang, 'password'),
          type: 'password',
          error: errors.password,
          hint: passwordHint(lang),
          autocomplete: 'new-password',
          minLength: MIN_PASSWORD_LENGTH,
        },
      ],
      submit: t(lang, 'registerSubmit'),
      links: [
        { href: `${loginPath(uid)}?lang=${lang}`, label: t(lang, 'signIn'), prefix: t(lang, 'haveAccount') },
      ],
    });
  }

  app.get<{ Params: { uid: string } }>('/auth/interaction/:uid/register', async (request, reply) => {
    const lang = langOf(request);
    const { uid } = request.params;
    if (!SAFE_ID.test(uid) || !(await interactionFor(request, reply, uid)))
      return expired(reply, lang, request.url);
    return page(reply, 200, lang, t(lang, 'registerTitle'), request.url, registerForm(lang, uid));
  });

  const registerLimit = { rateLimit: { max: 30, timeWindow: '1 hour' } };
  app.post<{ Params: { uid: string } }>(
    '/auth/interaction/:uid/register',
    { config: registerLimit },
    async (request, reply) => {
      const fields = formFields(request);
      const lang = langOf(request, fields);
      const { uid } = request.params;
      if (!SAFE_ID.test(uid) || !(await interactionFor(request, reply, uid)))
        return expired(reply, lang, request.url);
      try {
        const account = await registerAccount(
          deps,
          { email: fields.email ?? '', name: fields.name ?? '', password: fields.password ?? '' },
          lang,
        );
        return await finishLogin(request, reply, account.id);
      } catch (err) {
        if (!(err instanceof HttpError) || err.status >= 500) throw err;
        // 409 (email taken) belongs to the email field.
        const errors = Object.fromEntries(
          (err.errors ?? [{ field: 'email', message: err.detail ?? err.title }]).map((e) => [
            e.field,
            e.message,
          ]),
        );
        return page(
          reply,
          err.status,
          lang,
          t(lang, 'registerTitle'),
          request.url,
          registerForm(lang, uid, fields, errors),
        );
      }
    },
  );

  function forgotForm(lang: Lang, uid: string | undefined, notice?: string) {
    return renderForm({
      lang,
      action: `/auth/forgot${uid ? `?uid=${uid}` : ''}`,
      intro: t(lang, 'forgotIntro'),
      notice,
      fields: [{ name: 'email', label: t(lang, 'email'), type: 'email', autocomplete: 'email' }],
      submit: t(lang, 'forgotSubmit'),
      links: uid
        ? [{ href: `${loginPath(uid)}?lang=${lang}`, label: t(lang, 'backToLogin') }]
        : [appLink(lang)],
    });
  }

  const uidOf = (request: FastifyRequest) => {
    const uid = (request.query as Record<string, unknown>).uid;
    return typeof uid === 'string' && SAFE_ID.test(uid) ? uid : undefined;
  };

  app.get('/auth/forgot', async (request, reply) => {
    const lang = langOf(request);
    return page(reply, 200, lang, t(lang, 'forgotTitle'), request.url, forgotForm(lang, uidOf(request)));
  });

  app.post(
    '/auth/forgot',
    { config: { rateLimit: { max: 5, timeWindow: '15 minutes' } } },
    async (request, reply) => {
      const fields = formFields(request);
      const lang = langOf(request, fields);
      const email = (fields.email ?? '').trim();
      if (email) await requestPasswordReset(deps, email, lang);
      const notice = t(lang, 'forgotSent', { email });
      return page(
        reply,
        200,
        lang,
        t(lang, 'forgotTitle'),
        request.url,
        forgotForm(lang, uidOf(request), notice),
      );
    },
  );

  function resetForm(lang: Lang, token: string, errors: Record<string, string> = {}) {
    return renderForm({
      lang,
      action: `/auth/reset/${token}`,
      fields: [
        {
          name: 'password',
          label: t(lang, 'newPassword'),
          type: 'password',
          error: errors.password,
          hint: passwordHint(lang),
          autocomplete: 'new-password',
          minLength: MIN_PASSWORD_LENGTH,
        },
        {
          name: 'password2',
          label: t(lang, 'repeatPassword'),
          type: 'password',
          error: errors.password2,
          autocomplete: 'new-password',
          minLength: MIN_PASSWORD_LENGTH,
        },
      ],
      submit: t(lang, 'resetSubmit'),
    });
  }

  const invalidLink = (reply: FastifyReply, lang: Lang, path: string) =>
    page(
      reply,
      400,
      lang,
      t(lang, 'linkInvalidTitle'),
      path,
      renderMessage(t(lang, 'linkInvalid'), appLink(lang), 'alert'),
    );

  app.get<{ Params: { token: string } }>('/auth/reset/:token', async (request, reply) => {
    const lang = langOf(request);
    const { token } = request.params;
    if (!SAFE_ID.test(token) || !(await isResetTokenValid(db, token))) {
      return invalidLink(reply, lang, request.url);
    }
    return page(reply, 200, lang, t(lang, 'resetTitle'), request.url, resetForm(lang, token));
  });

  app.post<{ Params: { token: string } }>('/auth/reset/:token', async (request, reply) => {
    const fields = formFields(request);
    const lang = langOf(request, fields);
    const { token } = request.params;
    const title = t(lang, 'resetTitle');
    if (!SAFE_ID.test(token)) return invalidLink(reply, lang, request.url);
    if ((fields.password ?? '') !== (fields.password2 ?? '')) {
      const errors = { password2: t(lang, 'passwordMismatch') };
      return page(reply, 400, lang, title, request.url, resetForm(lang, token, errors));
    }
    try {
      if (!(await resetPassword(deps, token, fields.password ?? '', lang))) {
        return invalidLink(reply, lang, request.url);
      }
    } catch (err) {
      if (!(err instanceof HttpError) || err.status >= 500) throw err;
      const errors = { password: err.detail ?? err.title };
      return page(reply, 400, lang, title, request.url, resetForm(lang, token, errors));
    }
    return page(reply, 200, lang, title, request.url, renderMessage(t(lang, 'resetDone'), appLink(lang)));
  });

  app.get<{ Params: { token: string } }>('/auth/verify/:token', async (request, reply) => {
    const lang = langOf(request);
    const { token } = request.params;
    const account = SAFE_ID.test(token) ? await confirmEmail(db, token) : undefined;
    const title = t(lang, 'verifyTitle');
    if (!account) return invalidLink(reply, lang, request.url);
    const message = t(lang, 'verifyDone', { email: account.email });
    return page(reply, 200, lang, title, request.url, renderMessage(message, appLink(lang)));
  });
}

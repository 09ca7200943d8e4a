/**
 * Hosted identity pages of the embedded provider, outside `/api` and `/oidc`:
 *
 * - `/auth/interaction/:uid` — login (GET form, POST credentials); oidc-provider sends the
 *   browser here and scopes its interaction cookie to this path, so registration lives below it
 * - `/auth/interaction/:uid/second-factor` — the verification code after the password, for an
 *   account with a TOTP authenticator (decision 0072)
 * - `/auth/interaction/:uid/register` — create an account, then continue signed in
 * - `/auth/forgot`, `/auth/reset/:token` — password reset by mail link
 * - `/auth/verify/:token` — email confirmation link
 *
 * Pages are German or English (`?lang=`, else the SPA's `ui_locales` on the login page, else
 * Accept-Language). Errors re-render the form with a message and a 4xx status; nothing here
 * answers JSON.
 */
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
  signIn,
} from './accounts.service.ts';
import { type Lang, pickLang, t } from './pages.i18n.ts';
import { PAGE_HEADERS, passwordHint, renderForm, renderMessage, renderPage, withLang } from './pages.ts';
import { MIN_PASSWORD_LENGTH } from './password.ts';
import type { IdentityProvider } from './provider.ts';
import { issuePendingToken, readPendingToken, redeemSecondFactorCode } from './second-factor.service.ts';
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

function langOf(request: FastifyRequest, fields: Fields = {}): Lang {
  const query = request.query as Record<string, unknown>;
  return pickLang(fields.lang ?? query.lang, request.headers['accept-language']);
}

function page(reply: FastifyReply, status: number, lang: Lang, title: string, path: string, body: string) {
  return reply
    .code(status)
    .headers(PAGE_HEADERS)
    .send(renderPage({ lang, title, switchHref: withLang(path, lang === 'de' ? 'en' : 'de'), body }));
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

  function loginForm(lang: Lang, uid: string, email = '', alert?: string) {
    return renderForm({
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
    });
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
    return page(reply, 200, lang, t(lang, 'loginTitle'), request.url, loginForm(lang, uid, hint));
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
      const pending = await issuePendingToken(deps, result.account.id, uid);
      return page(reply, 200, lang, t(lang, 'secondFactorTitle'), request.url, codeForm(lang, uid, pending));
    }
    if (result.ok) return finishLogin(request, reply, result.account.id);
    if (result.reason === 'locked') {
      const alert = lockedAlert(reply, lang, result.until);
      return page(reply, 429, lang, t(lang, 'loginTitle'), request.url, loginForm(lang, uid, email, alert));
    }
    const alert = t(lang, 'invalidCredentials');
    return page(reply, 401, lang, t(lang, 'loginTitle'), request.url, loginForm(lang, uid, email, alert));
  });

  /** Sets Retry-After for a lock lasting until `until`; @returns the page's alert saying so. */
  function lockedAlert(reply: FastifyReply, lang: Lang, until: Date) {
    const seconds = Math.max(1, Math.ceil((until.getTime() - now().getTime()) / 1000));
    reply.header('retry-after', String(seconds));
    return t(lang, 'locked', { minutes: Math.max(1, Math.ceil(seconds / 60)) });
  }

  /** The verification-code step; `pending` carries who passed the password step (decision 0072). */
  function codeForm(lang: Lang, uid: string, pending: string, say: { alert?: string; error?: string } = {}) {
    return renderForm({
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
    const title = t(lang, 'secondFactorTitle');
    const keys = [accountKey(accountId), ipKey(request.ip)];
    const until = await lockedUntil(db, keys, now());
    if (until) {
      const alert = lockedAlert(reply, lang, until);
      return page(reply, 429, lang, title, request.url, codeForm(lang, uid, pending, { alert }));
    }
    if (await redeemSecondFactorCode(deps, accountId, fields.code ?? '')) {
      await clearFailures(db, accountKey(accountId));
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
      return page(reply, 429, lang, title, request.url, codeForm(lang, uid, pending, { alert }));
    }
    const error = t(lang, 'secondFactorWrong');
    return page(reply, 401, lang, title, request.url, codeForm(lang, uid, pending, { error }));
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

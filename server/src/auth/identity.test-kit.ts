/**
 * Test kit for the identity tests: a real app with the embedded provider listening on a
 * loopback port, and a tiny "browser" (fetch + cookie jar with path matching, redirects
 * followed by hand) that walks the hosted pages the way a user's browser does.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { composeApp, createTestDatabase } from '../../test/helpers.ts';
import type { App } from '../app.ts';
import type { Clock } from '../clock.ts';
import { type Config, loadConfig } from '../config.ts';
import { type Database, openDatabase } from '../db/client.ts';
import { freePort } from '../free-port.ts';
import { identityAccountPorts } from './account-ports.ts';
import { requireAuth } from './bearer.ts';
import { createAuth } from './issuer.ts';
import type { IdentityProvider } from './provider.ts';

export { freePort };

export interface RunningApp {
  app: App;
  config: Config;
  database: Database;
  identity?: IdentityProvider;
  baseUrl: string;
  dataDir: string;
  close(): Promise<void>;
}

/** A protected route for tests only: echoes the verified claims (there is no product route yet). */
export const WHOAMI = '/api/test-only/whoami';

/**
 * Starts the app the way main.ts does (createAuth → buildApp) on 127.0.0.1. With `pgliteDir`
 * the database lives in that folder (restart tests); otherwise a fresh test database. With `clock`
 * the services and the hosted sign-in pages read it as now (the provider keeps the machine's).
 */
export async function startApp(
  options: {
    env?: Record<string, string>;
    pgliteDir?: string;
    dataDir?: string;
    port?: number;
    clock?: Clock;
  } = {},
): Promise<RunningApp> {
  const port = options.port ?? (await freePort());
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(tmpdir(), 'heizplan-idp-')));
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    WEB_DIST: '/nonexistent',
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    ...options.env,
  });
  let database: Database;
  if (options.pgliteDir) {
    database = await openDatabase({ kind: 'pglite', dir: options.pgliteDir });
    await database.migrate();
  } else {
    database = await createTestDatabase();
  }
  const { verifyToken, identity } = await createAuth(config, database.db);
  const { app } = await composeApp(config, database, verifyToken, {
    identity,
    // The account API reaches the local account store as in main.ts (passwords, second factor).
    ports: identityAccountPorts(config, database.db, { info: () => {} }, options.clock),
    ...(options.clock ? { clock: options.clock } : {}),
  });
  app.get(WHOAMI, async (request) => requireAuth(request));
  await app.listen({ port, host: '127.0.0.1' });
  return {
    app,
    config,
    database,
    identity,
    baseUrl: config.publicUrl,
    dataDir,
    close: async () => {
      await app.close();
      await database.close();
      if (!options.dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

interface StoredCookie {
  name: string;
  value: string;
  path: string;
}

/** Cookie jar + manual redirects: enough of a browser for the provider's cookies. */
export class Browser {
  private cookies: StoredCookie[] = [];

  constructor(private readonly origin: string) {}

  private cookieHeader(pathname: string) {
    return this.cookies
      .filter((c) => pathname === c.path || pathname.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`))
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
  }

  private store(response: Response, requestPath: string) {
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attrs] = line.split(';').map((s) => s.trim());
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      const attr = (key: string) =>
        attrs.find((a) => a.toLowerCase().startsWith(`${key}=`))?.slice(key.length + 1);
      const cookiePath = attr('path') ?? requestPath;
      const expires = attr('expires');
      // Real time on purpose: the provider sets cookie expiry from the machine's clock, as a browser reads it.
      const removed = value === '' || (expires !== undefined && new Date(expires).getTime() < Date.now());
      this.cookies = this.cookies.filter((c) => !(c.name === name && c.path === cookiePath));
      if (!removed) this.cookies.push({ name, value, path: cookiePath });
    }
  }

  /** Drops every cookie but those named `keep`: the same browser after its sign-in session ended. */
  forgetAllBut(...keep: string[]) {
    this.cookies = this.cookies.filter((c) => keep.includes(c.name));
  }

  /** One request, no redirect following; relative URLs resolve against the app origin. */
  async request(url: string, init: RequestInit = {}): Promise<Response> {
    const target = new URL(url, this.origin);
    const headers = new Headers(init.headers);
    const cookie = this.cookieHeader(target.pathname);
    if (cookie) headers.set('cookie', cookie);
    const response = await fetch(target, { ...init, headers, redirect: 'manual' });
    this.store(response, target.pathname);
    return response;
  }

  /** Follows redirects (GET) until a response is not a redirect or leaves for `stopAt`. */
  async follow(
    url: string,
    init: RequestInit = {},
    stopAt?: string,
  ): Promise<{ url: string; response: Response }> {
    let current = new URL(url, this.origin).toString();
    let response = await this.request(current, init);
    for (let hops = 0; hops < 10 && response.status >= 300 && response.status < 400; hops++) {
      current = new URL(response.headers.get('location') ?? '', current).toString();
      if (stopAt && current.startsWith(stopAt)) return { url: current, response };
      response = await this.request(current);
    }
    return { url: current, response };
  }

  /** Fills the page's form (hidden inputs included) and submits it. */
  submitForm(html: string, fields: Record<string, string>, stopAt?: string) {
    const form = parseForm(html);
    return this.submit(form.action, { ...form.hidden, ...fields }, stopAt);
  }

  /** Submits a urlencoded form and follows redirects like a browser. */
  submit(action: string, fields: Record<string, string>, stopAt?: string) {
    return this.follow(
      action,
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields).toString(),
      },
      stopAt,
    );
  }
}

export function formAction(html: string): string {
  const action = html.match(/<form method="post" action="([^"]+)"/)?.[1];
  if (!action) throw new Error(`no form in page:\n${html.slice(0, 500)}`);
  return action.replaceAll('&amp;', '&');
}

/** Action and hidden inputs of the page's form, as a browser would submit them. */
export function parseForm(html: string): { action: string; hidden: Record<string, string> } {
  const hidden = Object.fromEntries(
    [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1], m[2]]),
  );
  return { action: formAction(html), hidden };
}

export function linkTo(html: string, pathPrefix: string): string {
  const href = html.match(new RegExp(`href="(${pathPrefix}[^"]*)"`))?.[1];
  if (!href) throw new Error(`no link to ${pathPrefix} in page`);
  return href.replaceAll('&amp;', '&');
}

export function pkcePair() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** The SPA's authorization request (code + PKCE S256, no `resource`: the default applies). */
export function authorizeUrl(baseUrl: string, challenge: string, extra: Record<string, string> = {}) {
  const params = new URLSearchParams({
    client_id: 'heizplan-web',
    response_type: 'code',
    redirect_uri: `${baseUrl}/`,
    scope: 'openid profile email offline_access',
    state: 'state-1',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...extra,
  });
  return `/oidc/auth?${params}`;
}

export interface TokenSet {
  access_token: string;
  refresh_token?: string;
  id_token?: string;
  expires_in: number;
}

export async function postToken(baseUrl: string, fields: Record<string, string>) {
  return fetch(`${baseUrl}/oidc/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: 'heizplan-web', ...fields }).toString(),
  });
}

export async function exchangeCode(baseUrl: string, code: string, verifier: string): Promise<TokenSet> {
  const response = await postToken(baseUrl, {
    grant_type: 'authorization_code',
    code,
    code_verifier: verifier,
    redirect_uri: `${baseUrl}/`,
  });
  expect(response.status).toBe(200);
  return (await response.json()) as TokenSet;
}

/** Starts a login in `browser` and returns the login page (HTML) and its address. */
export async function openLoginPage(browser: Browser, baseUrl: string) {
  const { verifier, challenge } = pkcePair();
  const { url, response } = await browser.follow(authorizeUrl(baseUrl, challenge));
  expect(response.status).toBe(200);
  expect(url).toContain('/auth/interaction/');
  return { verifier, url, html: await response.text() };
}

/** The `code` of the redirect back to the SPA; fails the test when the flow ended elsewhere. */
export function codeFrom(url: string, baseUrl: string): string {
  expect(url.startsWith(`${baseUrl}/?`)).toBe(true);
  const code = new URL(url).searchParams.get('code');
  if (!code) throw new Error(`no code in ${url}`);
  return code;
}

/** Registers through the hosted page and completes the code flow; returns the tokens. */
export async function registerAndSignIn(
  browser: Browser,
  baseUrl: string,
  account: { email: string; name: string; password: string },
): Promise<TokenSet> {
  const login = await openLoginPage(browser, baseUrl);
  const registerPage = await browser.follow(linkTo(login.html, '/auth/interaction/[A-Za-z0-9_-]+/register'));
  const form = await registerPage.response.text();
  const done = await browser.submitForm(form, account, `${baseUrl}/?`);
  return exchangeCode(baseUrl, codeFrom(done.url, baseUrl), login.verifier);
}

/** Signs in with email + password through the hosted login page. */
export async function signInWithPassword(
  browser: Browser,
  baseUrl: string,
  email: string,
  password: string,
): Promise<{ status: number; url: string; html: string; verifier: string }> {
  const login = await openLoginPage(browser, baseUrl);
  const result = await browser.submitForm(login.html, { email, password }, `${baseUrl}/?`);
  return {
    status: result.response.status,
    url: result.url,
    html: result.url.startsWith(`${baseUrl}/?`) ? '' : await result.response.text(),
    verifier: login.verifier,
  };
}

/** Plain-text bodies of the mails in the outbox, oldest first (quoted-printable decoded). */
export async function readOutbox(dataDir: string): Promise<string[]> {
  const dir = path.join(dataDir, 'outbox');
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.eml')).sort();
  const mails = await Promise.all(names.map((n) => readFile(path.join(dir, n), 'utf8')));
  return mails.map((raw) =>
    raw
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
  );
}

/** The last mailed link whose path starts with `pathPrefix`, relative to the app. */
export async function lastMailedLink(dataDir: string, pathPrefix: string): Promise<string> {
  const mails = await readOutbox(dataDir);
  for (const mail of mails.reverse()) {
    const match = mail.match(new RegExp(`https?://[^\\s/]+(${pathPrefix}[^\\s]+)`));
    if (match?.[1]) return match[1];
  }
  throw new Error(`no mail with a link to ${pathPrefix}`);
}

/**
 * Security headers of every response (ASVS 5.0 §3.4, decision 0031), set by helmet
 * before anything else answers — the API, the built web app and its SPA fallback,
 * the public heating page and the embedded provider's pages at `/oidc` alike:
 *
 * - a Content-Security-Policy without 'unsafe-inline' or 'unsafe-eval' for scripts: the web
 *   app's own files, plus the SHA-256 of each inline `<script>` of its HTML files, computed at
 *   start from the build (the public page's early fetch, the silent-renew frame's hand-over);
 * - `frame-ancestors 'none'` and X-Frame-Options DENY, except for `/silent-renew.html`, which the
 *   app itself loads in a hidden frame (same origin);
 * - nosniff, `Referrer-Policy: no-referrer` (the public page's path is its access token), and
 *   HSTS only when PUBLIC_URL is https (on plain http a browser ignores it anyway, and a proxy
 *   test set-up on http must not pin anything).
 *
 * API answers get a policy of their own (they are data, never a document) and
 * `Cache-Control: no-store`. The hosted login pages under `/auth` and the provider's HTML pages
 * set their stricter page headers themselves (auth/pages.ts), which take precedence.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';
import type { Config } from '../config.ts';

/** Policy of API answers (OWASP REST Security Cheat Sheet): nothing may load, frame or submit. */
export const API_CSP = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** The page the app loads in a hidden frame for silent sign-in (web/public/silent-renew.html). */
export const SILENT_RENEW_PATH = '/silent-renew.html';

/** True for API paths; the OpenAPI viewer under `/api/docs` is a web page, not an API answer. */
const isApiPath = (pathname: string) =>
  (pathname === '/api' || pathname.startsWith('/api/')) &&
  pathname !== '/api/docs' &&
  !pathname.startsWith('/api/docs/');

/** The CSP source (`'sha256-…'`) that allows the inline script with exactly this text. */
export const scriptHashSource = (text: string) =>
  `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/** CSP sources for the text of every inline `<script>` in `html`. */
export function inlineScriptHashes(html: string): string[] {
  const scripts = html.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/gi);
  return [...scripts].map(([, text]) => scriptHashSource(text ?? ''));
}

/** The hashes of the inline scripts of every `.html` file under `dir`; none when it is missing. */
export function webInlineScriptHashes(dir: string): string[] {
  let files: string[];
  try {
    files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.html'));
  } catch {
    return [];
  }
  const hashes = files.flatMap((file) => inlineScriptHashes(readFileSync(path.join(dir, file), 'utf8')));
  return [...new Set(hashes)].sort();
}

/**
 * CSP directives of the web app's documents. `scriptHashes` come from `webInlineScriptHashes`.
 * An external OIDC issuer (OIDC_ISSUER) is allowed where the app talks to it: fetch (discovery,
 * token endpoint) and the silent-renew frame; Sentry's host (SENTRY_DSN) for fetch only.
 */
export function webCspDirectives(config: Config, scriptHashes: string[]): Record<string, string[]> {
  const issuer = config.oidc.issuer ? [new URL(config.oidc.issuer).origin] : [];
  // With SENTRY_DSN the browser sends its errors to Sentry's ingestion host (web lib/error-reporting.ts).
  const sentry = config.sentry.dsn ? [new URL(config.sentry.dsn).origin] : [];
  return {
    'default-src': ["'self'"],
    'base-uri': ["'none'"],
    'object-src': ["'none'"],
    'script-src': ["'self'", ...scriptHashes],
    'script-src-attr': ["'none'"],
    // Radix (dialogs' scroll lock, scroll areas) inserts <style> elements at run time; see 0031.
    'style-src': ["'self'", "'unsafe-inline'"],
    // QR code previews are data: URLs of the SVG drawn in the browser.
    'img-src': ["'self'", 'data:'],
    'connect-src': ["'self'", ...issuer, ...sentry],
    'frame-src': ["'self'", ...issuer],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
    ...(config.publicUrl.startsWith('https:') ? { 'upgrade-insecure-requests': [] } : {}),
  };
}

/** Serialises directives as a header value, in helmet's format. */
const serialise = (directives: Record<string, string[]>) =>
  Object.entries(directives)
    .map(([name, values]) => [name, ...values].join(' '))
    .join(';');

/**
 * Sets helmet's headers with the web policy on every response, then narrows API answers and
 * widens the silent-renew frame. Must be installed before the routes, the static files and the
 * `/oidc` middleware, so its onRequest hook runs first. helmet's middleware is built once here:
 * @fastify/helmet built it anew for every request, re-parsing the policy each time (about 2 % of
 * the units page's CPU, docs/decisions/0035).
 */
export function installSecurityHeaders(app: FastifyInstance, config: Config) {
  const directives = webCspDirectives(config, webInlineScriptHashes(config.webDist));
  const setHeaders = helmet({
    contentSecurityPolicy: { useDefaults: false, directives },
    xFrameOptions: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: config.publicUrl.startsWith('https:') ? { maxAge: 31_536_000 } : false,
  });
  app.addHook('onRequest', (request, reply, done) => {
    setHeaders(request.raw, reply.raw, (err?: unknown) => done(err as Error | undefined));
  });
  const frameable = serialise({ ...directives, 'frame-ancestors': ["'self'"] });
  app.addHook('onRequest', async (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '';
    if (isApiPath(pathname)) {
      reply.headers({ 'content-security-policy': API_CSP, 'cache-control': 'no-store' });
    } else if (pathname === SILENT_RENEW_PATH) {
      reply.headers({ 'content-security-policy': frameable, 'x-frame-options': 'SAMEORIGIN' });
    }
  });
}

/**
 * (ASVS 5.0 §3.4, decision 0031): the security headers of each kind of response —
 * API JSON, API problem, the app shell and its SPA fallback, a hashed asset (plain and as the
 * build's brotli copy), the public heating
 * page with its inline script, the silent-renew frame, a hosted login page and the provider's.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../test/helpers.ts';
import { Browser, type RunningApp, registerAndSignIn, startApp } from '../auth/identity.test-kit.ts';
import { loadConfig } from '../config.ts';
import { API_CSP, inlineScriptHashes, scriptHashSource, webCspDirectives } from './security-headers.ts';

const EARLY_FETCH = "window.__heatingView = fetch('/api/public/heating-view/x');";
const HAND_OVER = 'window.parent.postMessage({ source: "oidc-client" }, location.origin);';

/** The directives of a CSP header value, by name. */
function directives(csp: string | null): Record<string, string[]> {
  return Object.fromEntries(
    (csp ?? '')
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...values]) => [name as string, values]),
  );
}

function expectCommon(res: Response) {
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('referrer-policy')).toBe('no-referrer');
  // PUBLIC_URL is http here: HSTS would be ignored, and must not pin a test set-up.
  expect(res.headers.get('strict-transport-security')).toBeNull();
}

/** A strict policy for the web app's documents: own scripts and listed hashes only, no framing. */
function expectWebPolicy(res: Response, frameAncestors = "'none'") {
  expectCommon(res);
  const csp = directives(res.headers.get('content-security-policy'));
  expect(csp['script-src']).toContain("'self'");
  expect(csp['script-src']).not.toContain("'unsafe-inline'");
  expect(csp['script-src']).not.toContain("'unsafe-eval'");
  expect(csp['object-src']).toEqual(["'none'"]);
  expect(csp['base-uri']).toEqual(["'none'"]);
  expect(csp['frame-ancestors']).toEqual([frameAncestors]);
  expect(res.headers.get('x-frame-options')).toBe(frameAncestors === "'none'" ? 'DENY' : 'SAMEORIGIN');
  return csp;
}

describe('security headers', () => {
  let running: RunningApp;
  let webDist: string;
  const get = (url: string, init?: RequestInit) => fetch(`${running.baseUrl}${url}`, init);

  beforeAll(async () => {
    webDist = await mkdtemp(path.join(tmpdir(), 'heizplan-web-'));
    await mkdir(path.join(webDist, 'assets'));
    const shell =
      '<!doctype html><title>SPA</title><script type="module" src="/assets/main-Ab12Cd34.js"></script>';
    await writeFile(path.join(webDist, 'index.html'), shell);
    await writeFile(path.join(webDist, 'index.html.br'), brotliCompressSync(shell));
    await writeFile(path.join(webDist, 'assets', 'main-Ab12Cd34.js'), 'console.log(1);');
    await writeFile(
      path.join(webDist, 'assets', 'main-Ab12Cd34.js.br'),
      brotliCompressSync('console.log(1);'),
    );
    await writeFile(
      path.join(webDist, 'heating-view.html'),
      `<!doctype html><title>Heating view</title><script>${EARLY_FETCH}</script>`,
    );
    await writeFile(path.join(webDist, 'silent-renew.html'), `<!doctype html><script>${HAND_OVER}</script>`);
    running = await startApp({ env: { WEB_DIST: webDist } });
  });
  afterAll(async () => {
    await running?.close();
    await rm(webDist, { recursive: true, force: true });
  });

  it('API JSON and API problems: nothing may load or frame, and nothing is stored', async () => {
    for (const res of [await get('/api/health'), await get('/api/companies/'), await get('/api/nope')]) {
      expectCommon(res);
      expect(res.headers.get('content-security-policy')).toBe(API_CSP);
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
    expect((await get('/api/companies/')).status).toBe(401);
  });

  it('the app shell and its SPA fallback, and a hashed asset, plain and compressed', async () => {
    for (const url of ['/', '/units', '/assets/main-Ab12Cd34.js']) {
      for (const encoding of ['identity', 'br']) {
        const res = await get(url, { headers: { 'accept-encoding': encoding } });
        expect(res.status, url).toBe(200);
        expect(res.headers.get('content-encoding'), url).toBe(encoding === 'br' ? 'br' : null);
        expectWebPolicy(res);
      }
    }
  });

  it('the public heating page: its inline script is allowed by hash and nothing else inline', async () => {
    const res = await get('/heating-view/abcdefghijklmnopqrstuv');
    expect(await res.text()).toContain(EARLY_FETCH);
    expect(expectWebPolicy(res)['script-src']).toContain(scriptHashSource(EARLY_FETCH));
  });

  it('the silent-renew page may be framed by the app itself, and its script runs', async () => {
    const csp = expectWebPolicy(await get('/silent-renew.html'), "'self'");
    expect(csp['script-src']).toContain(scriptHashSource(HAND_OVER));
  });

  it('hosted login pages and the provider keep their stricter page policy', async () => {
    const expectPagePolicy = (res: Response) => {
      expectCommon(res);
      const csp = directives(res.headers.get('content-security-policy'));
      expect(csp['default-src']).toEqual(["'none'"]);
      expect(csp['frame-ancestors']).toEqual(["'none'"]);
      expect(res.headers.get('cache-control')).toBe('no-store');
      return csp;
    };
    expectPagePolicy(await get('/auth/forgot'));

    // The app's sign-out: the provider's confirmation page confirms itself with an inline script.
    const browser = new Browser(running.baseUrl);
    const tokens = await registerAndSignIn(browser, running.baseUrl, {
      name: 'Csp',
      email: 'csp@example.test',
      password: 'content security',
    });
    const logout = await browser.follow(`/oidc/session/end?id_token_hint=${tokens.id_token}`);
    const html = await logout.response.text();
    const scripts = inlineScriptHashes(html);
    expect(scripts).toHaveLength(1);
    expect(expectPagePolicy(logout.response)['script-src']).toEqual(scripts);
  });

  it("the provider's own pages: it adds the hash of its inline script to the web policy", async () => {
    // Without a session, ending it is a page that submits itself (oidc-provider's form_post helper).
    const res = await get('/oidc/session/end');
    const scripts = inlineScriptHashes(await res.text());
    expect(scripts.length).toBeGreaterThan(0);
    expect(expectWebPolicy(res)['script-src']).toEqual(expect.arrayContaining(scripts));
    expectWebPolicy(await get('/oidc/.well-known/openid-configuration'));
  });
});

it('sends HSTS when PUBLIC_URL is https', async () => {
  const t = await buildTestApp({ PUBLIC_URL: 'https://heizplan.example' });
  try {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  } finally {
    await t.close();
  }
});

it('lets the app reach an external issuer: fetch and the silent-renew frame, nothing else', () => {
  const config = loadConfig({
    OIDC_ISSUER: 'https://id.example.com/realms/heizplan',
    OIDC_CLIENT_ID: 'heizplan-web',
    PUBLIC_URL: 'https://heizplan.example',
  });
  const csp = webCspDirectives(config, []);
  expect(csp['connect-src']).toEqual(["'self'", 'https://id.example.com']);
  expect(csp['frame-src']).toEqual(["'self'", 'https://id.example.com']);
  expect(csp['script-src']).toEqual(["'self'"]);
  expect(csp['upgrade-insecure-requests']).toEqual([]);
});

it("lets the browser send its errors to Sentry's host when SENTRY_DSN is set, and nowhere else", () => {
  const csp = webCspDirectives(
    loadConfig({ SENTRY_DSN: 'https://publickey@o1.ingest.sentry.example/42' }),
    [],
  );
  expect(csp['connect-src']).toEqual(["'self'", 'https://o1.ingest.sentry.example']);
  expect(csp['frame-src']).toEqual(["'self'"]);
  expect(webCspDirectives(loadConfig({}), [])['connect-src']).toEqual(["'self'"]);
});

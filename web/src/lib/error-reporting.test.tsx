/**
 * Browser errors are reported (spec §8, §9): without a Sentry DSN the app posts them to the
 * server's endpoint — window errors, unhandled rejections, render errors caught by a route's
 * error boundary and failed chunk loads; with a DSN it hands them to Sentry's SDK at sample rate 1.
 */
import type { ClientErrorReport } from '@heizplan/contracts/client-errors';
import { screen } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../app/i18n.ts';
import { routes } from '../app/router.tsx';
import { renderRoutes } from '../test/render.tsx';
import { type FetchHandler, json, signIn } from '../test/signed-in.ts';
import { ErrorReporter, errorReporter, MAX_REPORTS_PER_PAGE, type SentryApi } from './error-reporting.ts';

vi.mock('../app/routes/units-page.tsx', () => ({
  UnitsPage: () => {
    throw new Error('units screen broke');
  },
}));

const NO_DSN = { sentry_dsn: null, environment: 'production', release: 'heizplan@0.1.0' };

/** The server: no DSN configured, reports accepted. */
const server: FetchHandler = (method, path) => {
  if (method === 'GET' && path === '/api/public/app-config') {
    return json(200, { support: { email: null, url: null }, error_reporting: NO_DSN });
  }
  if (method === 'POST' && path === '/api/public/client-errors') return new Response(null, { status: 204 });
  return undefined;
};

describe("the app's reporter without a DSN", () => {
  let fetchMock: ReturnType<typeof signIn>['fetchMock'];
  let stop: () => void;
  const posted = () =>
    fetchMock.mock.calls
      .filter(([url, init]) => url === '/api/public/client-errors' && init?.method === 'POST')
      .map(([, init]) => ({ body: JSON.parse(String(init?.body)), keepalive: init?.keepalive }));

  beforeAll(() => {
    // The reporter asks the server for its configuration as it starts.
    signIn({ extra: server });
    stop = errorReporter.start();
  });
  afterAll(() => stop());
  beforeEach(async () => {
    localStorage.clear();
    await setLanguage('de');
    ({ fetchMock } = signIn({ extra: server }));
  });
  afterEach(() => vi.unstubAllGlobals());

  it('posts an uncaught error of the window with its stack, the page and the release, surviving a reload', async () => {
    const error = new TypeError('x is undefined');
    window.dispatchEvent(new ErrorEvent('error', { error, message: error.message }));
    await vi.waitFor(() => expect(posted()).toHaveLength(1));
    expect(posted()[0]).toEqual({
      keepalive: true,
      body: {
        kind: 'error',
        message: 'TypeError: x is undefined',
        stack: error.stack,
        path: '/',
        release: 'heizplan@0.1.0',
      },
    });
  });

  it('posts an unhandled rejection', async () => {
    window.dispatchEvent(Object.assign(new Event('unhandledrejection'), { reason: new Error('no answer') }));
    await vi.waitFor(() => expect(posted()).toHaveLength(1));
    expect(posted()[0]?.body).toMatchObject({ kind: 'unhandledrejection', message: 'Error: no answer' });
  });

  it('posts a screen chunk that failed to load', async () => {
    const payload = new TypeError('Failed to fetch dynamically imported module: /assets/units-page-x.js');
    window.dispatchEvent(Object.assign(new Event('vite:preloadError', { cancelable: true }), { payload }));
    await vi.waitFor(() => expect(posted()).toHaveLength(1));
    expect(posted()[0]?.body).toMatchObject({
      kind: 'chunk',
      message: expect.stringContaining('units-page-x.js'),
    });
  });

  it("posts a render error caught by a route's error boundary", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const signedIn = signIn({ extra: server });
    fetchMock = signedIn.fetchMock;
    const { session } = signedIn;
    renderRoutes(routes, '/units', { session });
    expect(await screen.findByTestId('route-error')).toBeVisible();
    await vi.waitFor(() => expect(posted()).toHaveLength(1));
    expect(posted()[0]?.body).toMatchObject({
      kind: 'render',
      message: 'Error: units screen broke',
      path: '/',
    });
  });
});

describe('a reporter', () => {
  const deps = (dsn: string | null) => {
    const sentry = { init: vi.fn(), captureException: vi.fn() };
    return {
      sentry,
      post: vi.fn(async () => undefined),
      reporter: (post: (report: ClientErrorReport) => Promise<unknown>) =>
        new ErrorReporter({
          loadConfig: async () => ({ error_reporting: { ...NO_DSN, sentry_dsn: dsn } }),
          loadSentry: async () => sentry as unknown as SentryApi,
          post,
        }),
    };
  };

  it("with a DSN hands errors to Sentry's SDK at sample rate 1 instead of posting them", async () => {
    const { sentry, post, reporter } = deps('https://publickey@o1.ingest.sentry.example/42');
    const stop = reporter(post).start();
    const error = new Error('boom');
    window.dispatchEvent(new ErrorEvent('error', { error }));
    await vi.waitFor(() => expect(sentry.captureException).toHaveBeenCalledTimes(1));
    stop();
    expect(sentry.init).toHaveBeenCalledWith(
      expect.objectContaining({
        dsn: 'https://publickey@o1.ingest.sentry.example/42',
        sampleRate: 1,
        environment: 'production',
        release: 'heizplan@0.1.0',
      }),
    );
    expect(sentry.captureException).toHaveBeenCalledWith(error, { tags: { kind: 'error' } });
    // The reporter listens to the window itself; Sentry's own handlers would report twice.
    const [{ integrations }] = sentry.init.mock.calls[0] as [
      { integrations: (d: { name: string }[]) => unknown },
    ];
    expect(integrations([{ name: 'GlobalHandlers' }, { name: 'Dedupe' }])).toEqual([{ name: 'Dedupe' }]);
    expect(post).not.toHaveBeenCalled();
  });

  it('reports one error once and at most a few per page', async () => {
    const { reporter } = deps(null);
    const post = vi.fn(async (_report: ClientErrorReport) => undefined);
    const errors = reporter(post);
    const error = new Error('again');
    errors.report(error, 'render');
    errors.report(error, 'error');
    for (let i = 0; i < MAX_REPORTS_PER_PAGE + 5; i++) errors.report(new Error(`loop ${i}`), 'render');
    await vi.waitFor(() => expect(post).toHaveBeenCalledTimes(MAX_REPORTS_PER_PAGE));
    expect(post.mock.calls.filter(([report]) => report.message === 'Error: again')).toHaveLength(1);
  });

  it('drops known browser noise such as the ResizeObserver loop notice, and still reports real errors', async () => {
    const { reporter } = deps(null);
    const post = vi.fn(async (_report: ClientErrorReport) => undefined);
    const errors = reporter(post);
    errors.report('ResizeObserver loop completed with undelivered notifications.', 'error');
    errors.report(new Error('ResizeObserver loop limit exceeded'), 'error');
    errors.report('Script error.', 'error');
    errors.report(new Error('real'), 'error');
    await vi.waitFor(() => expect(post).toHaveBeenCalledTimes(1));
    expect(post.mock.calls[0]?.[0].message).toBe('Error: real');
  });

  it('still posts when the configuration cannot be loaded', async () => {
    const post = vi.fn(async () => undefined);
    const errors = new ErrorReporter({
      loadConfig: async () => {
        throw new Error('offline');
      },
      loadSentry: async () => {
        throw new Error('not wanted');
      },
      post,
    });
    errors.report(new Error('early'), 'error');
    await vi.waitFor(() => expect(post).toHaveBeenCalledTimes(1));
  });
});

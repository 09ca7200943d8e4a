/**
 * Errors the browser catches are reported (spec §8, §9 "error reporting sample rate 1"): uncaught
 * errors (`error` on window), unhandled promise rejections, render errors caught by the route
 * error boundaries (app/route-error-screen.tsx) and screen chunks that fail to load
 * (`vite:preloadError`, lib/chunk-load.ts).
 *
 * Where they go is the server's choice at run time (`GET /api/public/app-config`), so one build
 * serves every deployment: with a Sentry DSN through Sentry's official browser SDK
 * (`@sentry/react`, loaded only then) at `sampleRate: 1`; without one to
 * `POST /api/public/client-errors`, which writes them to the server's log. Errors caught before
 * the answer arrives wait for it. One error object is reported once, and a page reports at most
 * `MAX_REPORTS_PER_PAGE` (a render loop must not flood anyone; the endpoint is rate-limited too).
 */
import type { AppConfigResponse } from '@heizplan/contracts/app-config';
import type { ClientErrorReport } from '@heizplan/contracts/client-errors';
import type * as SentryReact from '@sentry/react';
import { getAppConfig } from './app-config.ts';
import type { PreloadErrorEvent } from './chunk-load.ts';

export type ErrorKind = ClientErrorReport['kind'];

/** Reports one page sends at most. */
export const MAX_REPORTS_PER_PAGE = 10;

/**
 * Browser noise that is no fault of the app, dropped before it counts or goes anywhere (also
 * handed to Sentry as `ignoreErrors`): the ResizeObserver loop notices Chromium and Firefox raise
 * when an observer's callback changes layout (harmless by the spec: the notifications arrive in
 * the next frame), and "Script error." for a cross-origin script whose details the browser hides.
 */
export const IGNORED_BROWSER_NOISE: readonly RegExp[] = [
  /ResizeObserver loop (completed with undelivered notifications|limit exceeded)/,
  /^Script error\.?$/,
];

const isNoise = (message: string) => IGNORED_BROWSER_NOISE.some((pattern) => pattern.test(message));

/** The part of `@sentry/react` the reporter uses. */
export type SentryApi = Pick<typeof SentryReact, 'init' | 'captureException'>;

export interface ErrorReporterDeps {
  loadConfig(): Promise<Pick<AppConfigResponse, 'error_reporting'>>;
  loadSentry(): Promise<SentryApi>;
  /** Sends a report to the server; must survive the page unloading (a reload follows a failed chunk). */
  post(report: ClientErrorReport): Promise<unknown>;
}

type Send = (report: ClientErrorReport, error: unknown) => void;

/** `name: message` of anything thrown; `String()` of what is not an Error. */
function messageOf(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}

export class ErrorReporter {
  private transport: Promise<Send> | null = null;
  private readonly reported = new WeakSet<object>();
  private count = 0;

  constructor(private readonly deps: ErrorReporterDeps) {}

  /**
   * Chooses where reports go and listens for the window's uncaught errors, unhandled rejections
   * and failed chunk loads. Install before `chunkReload` (main.tsx): its reload follows at once.
   * @returns the removal of the listeners.
   */
  start(target: Window = window): () => void {
    this.transport ??= this.chooseTransport();
    const onError = (event: ErrorEvent) => this.report(event.error ?? event.message, 'error');
    const onRejection = (event: Event) =>
      this.report((event as PromiseRejectionEvent).reason, 'unhandledrejection');
    const onPreloadError = (event: Event) => this.report((event as PreloadErrorEvent).payload, 'chunk');
    target.addEventListener('error', onError);
    target.addEventListener('unhandledrejection', onRejection);
    target.addEventListener('vite:preloadError', onPreloadError);
    return () => {
      target.removeEventListener('error', onError);
      target.removeEventListener('unhandledrejection', onRejection);
      target.removeEventListener('vite:preloadError', onPreloadError);
    };
  }

  /** Reports `error`, caught as `kind`; `componentStack` is React's for a render error. Never throws. */
  report(error: unknown, kind: ErrorKind, componentStack?: string): void {
    if (isNoise(error instanceof Error ? error.message : messageOf(error))) return;
    if (typeof error === 'object' && error !== null) {
      if (this.reported.has(error)) return;
      this.reported.add(error);
    }
    if (this.count >= MAX_REPORTS_PER_PAGE) return;
    this.count += 1;
    const report: ClientErrorReport = {
      kind,
      message: messageOf(error).slice(0, 1000),
      ...(error instanceof Error && error.stack ? { stack: error.stack.slice(0, 8000) } : {}),
      ...(componentStack ? { componentStack: componentStack.slice(0, 8000) } : {}),
      path: window.location.pathname.slice(0, 500),
    };
    this.transport ??= this.chooseTransport();
    this.transport
      .then((send) => send(report, error))
      .catch(() => {
        // Reporting must never raise an error of its own: it would be reported again.
      });
  }

  private async chooseTransport(): Promise<Send> {
    const toServer: Send = (report) => void this.deps.post(report).catch(() => {});
    let config: Pick<AppConfigResponse, 'error_reporting'>;
    try {
      config = await this.deps.loadConfig();
    } catch {
      return toServer;
    }
    const { sentry_dsn: dsn, environment, release } = config.error_reporting;
    if (!dsn) return (report, error) => toServer({ ...report, release }, error);
    const Sentry = await this.deps.loadSentry();
    Sentry.init({
      dsn,
      sampleRate: 1,
      ignoreErrors: [...IGNORED_BROWSER_NOISE],
      environment,
      release,
      // This reporter listens to the window itself (for both destinations); Sentry's own global
      // handlers would report each uncaught error a second time.
      integrations: (defaults) => defaults.filter((integration) => integration.name !== 'GlobalHandlers'),
    });
    return (report, error) =>
      Sentry.captureException(error instanceof Error ? error : new Error(report.message), {
        tags: { kind: report.kind },
        ...(report.componentStack ? { contexts: { react: { componentStack: report.componentStack } } } : {}),
      });
  }
}

/** The app's reporter: configuration from the server, Sentry loaded on demand, reports posted with keepalive. */
export const errorReporter = new ErrorReporter({
  loadConfig: getAppConfig,
  loadSentry: () => import('@sentry/react'),
  post: (report) =>
    fetch('/api/public/client-errors', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(report),
      keepalive: true,
    }),
});

/**
 * Server errors reach Sentry when SENTRY_DSN is set (spec §8, §9 "error reporting sample rate
 * 1"): every answer of 500 or more, through Sentry's official Node SDK at `sampleRate: 1`, tagged
 * with the request id the log line carries and the route's pattern — never the raw URL, whose
 * path can hold a QR code's access token. Client errors (4xx) are the client's business and are
 * not reported. Without a DSN nothing is loaded and the log (errors.ts) is the only record.
 *
 * The SDK is imported only when a DSN is set. It runs without OpenTelemetry and without its
 * load-time module hooks (no spans are wanted, only errors); its default integrations still
 * report uncaught exceptions and unhandled rejections of the process.
 */
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';

export interface ServerErrorReporter {
  /** Reports `error`, which made `request` answer 5xx. Returns at once; sending is in the background. */
  capture(error: unknown, request: FastifyRequest): void;
  /** Sends what is queued (up to 2 s) and stops the SDK. */
  close(): Promise<void>;
}

/** The reporter without a DSN: the log is the record. */
export const noErrorReporter: ServerErrorReporter = {
  capture: () => {},
  close: async () => {},
};

/** Sentry when `config.sentry.dsn` is set, else `noErrorReporter`. */
export async function createErrorReporter(config: Config): Promise<ServerErrorReporter> {
  const { dsn } = config.sentry;
  if (!dsn) return noErrorReporter;
  const Sentry = await import('@sentry/node');
  Sentry.init({
    dsn,
    sampleRate: 1,
    environment: config.env,
    release: `heizplan@${config.version}`,
    // Errors only: no tracer provider, and no load-time hooks that rewrite modules for tracing.
    enableOpenTelemetrySetup: false,
    enableRuntimeChannelInjection: false,
    // The error handler reports 5xx itself, with the request id and the route's pattern. Sentry's
    // Fastify integration would report the same error first, without them (and Dedupe would then
    // drop ours), so it is left out.
    integrations: (defaults) => defaults.filter((integration) => integration.name !== 'Fastify'),
  });
  return {
    capture: (error, request) =>
      Sentry.withScope((scope) => {
        scope.setTag('request_id', request.id);
        scope.setContext('request', { method: request.method, route: request.routeOptions.url ?? null });
        Sentry.captureException(error);
      }),
    close: async () => {
      await Sentry.close(2000);
    },
  };
}

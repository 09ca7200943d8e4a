/**
 * Body of `POST /api/public/client-errors`: an error the web app caught in the browser (spec §8,
 * §9 "error reporting sample rate 1"), sent when no Sentry DSN is configured so the server's log
 * shows it. Sizes are capped: the endpoint is public and must not become a log-flooding tool.
 */
import { z } from 'zod';

/** Where the browser caught it: window `error`, unhandled promise rejection, a route's error boundary, a screen chunk that failed to load. */
export const CLIENT_ERROR_KINDS = ['error', 'unhandledrejection', 'render', 'chunk'] as const;

export const ClientErrorReportSchema = z.object({
  kind: z.enum(CLIENT_ERROR_KINDS),
  /** The error's name and message, e.g. `TypeError: x is undefined`. */
  message: z.string().max(1000),
  stack: z.string().max(8000).optional(),
  /** React's component stack of a render error. */
  componentStack: z.string().max(8000).optional(),
  /** Path of the page (no query or fragment). */
  path: z.string().max(500),
  /** Version of the web app that reported it. */
  release: z.string().max(50).optional(),
});
export type ClientErrorReport = z.infer<typeof ClientErrorReportSchema>;

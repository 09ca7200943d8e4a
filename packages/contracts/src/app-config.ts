/**
 * Response of `GET /api/public/app-config`: what the web app shows or needs from the server's
 * configuration before anyone signs in — the operator's support contact (settings → help) and
 * where the browser reports its errors (spec §8, §9).
 */
import { z } from 'zod';

export const AppConfigResponseSchema = z.object({
  /** The running server's version (semantic versioning), shown on settings → help. */
  version: z.string(),
  /** SUPPORT_EMAIL and SUPPORT_URL; null when not configured. */
  support: z.object({ email: z.email().nullable(), url: z.url().nullable() }),
  /**
   * SENTRY_DSN (a DSN is public by design: it only allows sending events); null = the browser
   * posts its errors to `POST /api/public/client-errors`, which logs them.
   */
  error_reporting: z.object({ sentry_dsn: z.url().nullable(), environment: z.string(), release: z.string() }),
});
export type AppConfigResponse = z.infer<typeof AppConfigResponseSchema>;

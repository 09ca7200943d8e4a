/**
 * The caller's sign-in sessions at the embedded identity provider (decision 0074),
 * `/api/me/sessions…`: where the account is signed in, and ending one or all others. With an
 * external issuer every call answers 409 `accounts_external`.
 */
import { z } from 'zod';

/** One session: the browser and operating system it signed in from, first and last use. */
export const SessionSchema = z.object({
  id: z.string(),
  /** Browser and OS as parsed from the user agent; empty when it named none. */
  browser: z.string(),
  os: z.string(),
  created_at: z.iso.datetime({ offset: true }),
  last_used_at: z.iso.datetime({ offset: true }),
  /** The session this request's access token was issued in. */
  current: z.boolean(),
});
export type Session = z.infer<typeof SessionSchema>;

/** `GET /api/me/sessions`: the account's live sessions, the last used first. */
export const SessionListSchema = z.object({ results: z.array(SessionSchema) });
export type SessionList = z.infer<typeof SessionListSchema>;

/** `{sessionId}` of `/api/me/sessions/{sessionId}`. */
export const SessionParamsSchema = z.object({ sessionId: z.string().min(1).max(128) });

/** `DELETE /api/me/sessions?others=true`: ends every session but the caller's. */
export const EndSessionsQuerySchema = z.object({ others: z.literal('true') });

/**
 * The pause after an occupant's "Zu warm" / "Zu kalt" (decision 0070): this browser offers the
 * buttons of a room again 10 minutes after its last press. Kept per token in localStorage as the
 * press's instant (ISO 8601 UTC); a browser without storage (private mode, blocked) gets no pause
 * beyond the server's rate limit. Time is an input: callers pass now.
 */

/** How long (ms) a browser waits before it may send feedback for the same room again. */
export const FEEDBACK_PAUSE_MS = 10 * 60_000;

const key = (token: string) => `heizplan.heating-view.feedback.${token}`;

/** The browser's storage, or null where reading it throws. */
function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/**
 * Until when (a Date) this browser waits before another press for the room of `token`, or null
 * when it may press now (`now` past the pause, no press remembered, or no storage).
 */
export function feedbackPausedUntil(token: string, now: Date, store = storage()): Date | null {
  let last: string | null = null;
  try {
    last = store?.getItem(key(token)) ?? null;
  } catch {
    return null;
  }
  const at = last === null ? Number.NaN : Date.parse(last);
  if (Number.isNaN(at)) return null;
  const until = at + FEEDBACK_PAUSE_MS;
  return until > now.getTime() ? new Date(until) : null;
}

/** Remembers a press for the room of `token` at `at`; storage that refuses is left alone. */
export function rememberFeedback(token: string, at: Date, store = storage()): void {
  try {
    store?.setItem(key(token), at.toISOString());
  } catch {
    // Full or blocked storage: the server's rate limit still holds.
  }
}

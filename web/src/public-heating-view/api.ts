/**
 * The public heating view's calls, with plain fetch: no auth, no query library.
 * Answers are typed by the shared contract (types only, so zod stays out of this bundle).
 */
import type { OccupantFeeling } from '@heizplan/contracts/occupant-feedback';
import type { PublicHeatingView } from '@heizplan/contracts/public-heating-view';

export type ViewResult =
  | { kind: 'ok'; view: PublicHeatingView }
  | { kind: 'notFound' }
  | { kind: 'tooMany'; retryAfterSeconds: number }
  /** 400/409: the problem's `code` and `params`, which the page words in its own language. */
  | { kind: 'refused'; code: string | null; params: Record<string, string | number> }
  | { kind: 'error' };

const base = (token: string) => `/api/public/heating-view/${encodeURIComponent(token)}`;

async function toResult(response: Response): Promise<ViewResult> {
  if (response.ok) return { kind: 'ok', view: (await response.json()) as PublicHeatingView };
  if (response.status === 404) return { kind: 'notFound' };
  if (response.status === 429)
    return { kind: 'tooMany', retryAfterSeconds: Number(response.headers.get('retry-after')) || 60 };
  if (response.status === 400 || response.status === 409) {
    const problem = (await response.json().catch(() => ({}))) as {
      code?: string;
      params?: Record<string, string | number>;
    };
    return { kind: 'refused', code: problem.code ?? null, params: problem.params ?? {} };
  }
  return { kind: 'error' };
}

const settle = (request: Promise<Response>) => request.then(toResult, (): ViewResult => ({ kind: 'error' }));

/**
 * The view of `token`. The page's inline script starts the first request before this bundle
 * loads (heating-view.html), so the first call takes that response instead of waiting again.
 */
export function loadView(token: string): Promise<ViewResult> {
  const early = (window as { __heatingView?: Promise<Response> }).__heatingView;
  if (early !== undefined) {
    delete (window as { __heatingView?: Promise<Response> }).__heatingView;
    return settle(early);
  }
  return settle(fetch(base(token), { headers: { accept: 'application/json' } }));
}

export function changeSetpoint(token: string, setpoint: number): Promise<ViewResult> {
  return settle(
    fetch(`${base(token)}/setpoint`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ setpoint }),
    }),
  );
}

/** What became of an occupant's "Zu warm" / "Zu kalt". */
export type FeedbackResult =
  | { kind: 'sent' }
  | { kind: 'notFound' }
  | { kind: 'tooMany'; retryAfterSeconds: number }
  | { kind: 'error' };

/** Sends the occupant's `feeling` for the room of `token` (204 = recorded). */
export async function sendFeedback(token: string, feeling: OccupantFeeling): Promise<FeedbackResult> {
  try {
    const response = await fetch(`${base(token)}/feedback`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ feeling }),
    });
    if (response.ok) return { kind: 'sent' };
    if (response.status === 404) return { kind: 'notFound' };
    if (response.status === 429)
      return { kind: 'tooMany', retryAfterSeconds: Number(response.headers.get('retry-after')) || 60 };
    return { kind: 'error' };
  } catch {
    return { kind: 'error' };
  }
}

/**
 * "Zu warm" / "Zu kalt" on the public room page (decision 0070): two buttons a thumb finds at
 * 375 px (at least 56 px high, half the width each), plain buttons so a keyboard reaches and presses
 * them. After a press a live region says "Danke, Ihre Rückmeldung ist angekommen" and, as the
 * buttons rest for 10 minutes in this browser, from when another press is possible.
 */
import type { OccupantFeeling } from '@heizplan/contracts/occupant-feedback';
import { useEffect, useState } from 'react';
import { useClock } from '../lib/clock.tsx';
import { sendFeedback } from './api.ts';
import { type Language, text } from './dictionary.ts';
import { feedbackPausedUntil, rememberFeedback } from './feedback-cooldown.ts';

type State = 'idle' | 'sending' | 'sent' | 'failed' | 'tooMany';

/**
 * The feedback buttons for the room of `token`; `formatTime` words an instant for the page's
 * language and the company's time zone (14:05).
 */
export function Feedback({
  token,
  lang,
  formatTime,
}: {
  token: string;
  lang: Language;
  formatTime: (iso: string) => string;
}) {
  const clock = useClock();
  const [state, setState] = useState<State>('idle');
  const [retryAfter, setRetryAfter] = useState(60);
  // Re-read after a press and when the pause ends, so the buttons come back by themselves.
  const [, setTick] = useState(0);
  const pausedUntil = feedbackPausedUntil(token, clock());

  const pauseEnd = pausedUntil?.getTime() ?? null;
  useEffect(() => {
    if (pauseEnd === null) return;
    const timer = setTimeout(() => setTick((n) => n + 1), Math.max(0, pauseEnd - clock().getTime()) + 250);
    return () => clearTimeout(timer);
  }, [pauseEnd, clock]);

  const press = async (feeling: OccupantFeeling) => {
    setState('sending');
    const result = await sendFeedback(token, feeling);
    if (result.kind === 'sent') {
      rememberFeedback(token, clock());
      setState('sent');
    } else if (result.kind === 'tooMany') {
      setRetryAfter(result.retryAfterSeconds);
      setState('tooMany');
    } else setState('failed');
    setTick((n) => n + 1);
  };

  const disabled = state === 'sending' || pausedUntil !== null;
  const button =
    'min-h-14 rounded-2xl border-2 px-3 py-3 text-lg font-semibold shadow-sm focus-visible:outline focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:border-stone-200 disabled:bg-stone-100 disabled:text-stone-500 disabled:shadow-none';
  const message =
    state === 'sent'
      ? text(lang, 'feedbackThanks')
      : state === 'sending'
        ? text(lang, 'feedbackSending')
        : state === 'failed'
          ? text(lang, 'feedbackFailed')
          : state === 'tooMany'
            ? text(lang, 'tooMany', { seconds: retryAfter })
            : '';
  return (
    <section
      className="flex flex-col gap-3 rounded-2xl bg-white p-4 shadow-sm"
      aria-labelledby="hv-feedback-title"
      data-testid="hv-feedback"
    >
      <h2 id="hv-feedback-title" className="text-sm text-stone-600">
        {text(lang, 'feedbackTitle')}
      </h2>
      <div className="grid grid-cols-2 gap-3">
        <button
          type="button"
          className={`${button} border-red-300 bg-red-50 text-red-900 active:bg-red-100`}
          disabled={disabled}
          onClick={() => void press('too_warm')}
          data-testid="hv-too-warm"
        >
          {text(lang, 'tooWarm')}
        </button>
        <button
          type="button"
          className={`${button} border-sky-300 bg-sky-50 text-sky-900 active:bg-sky-100`}
          disabled={disabled}
          onClick={() => void press('too_cold')}
          data-testid="hv-too-cold"
        >
          {text(lang, 'tooCold')}
        </button>
      </div>
      {/* A polite live region of its own: the page's role="status" announces the setpoint. */}
      <div
        aria-live="polite"
        aria-atomic="true"
        className="flex flex-col gap-1 text-sm"
        data-testid="hv-feedback-status"
      >
        {message && (
          <p className={state === 'sent' ? 'font-medium text-green-800' : 'text-stone-700'}>{message}</p>
        )}
        {pausedUntil && (
          <p className="text-stone-600">
            {text(lang, 'feedbackWait', { time: formatTime(pausedUntil.toISOString()) })}
          </p>
        )}
      </div>
    </section>
  );
}

/**
 * The public heating view (spec §1 and §9): the room's name, room temperature and
 * setpoint, whether a wall thermostat overrides it, −/+ in 0.5 °C steps within the limits, "Zu warm"
 * / "Zu kalt" for the occupant to say how the room feels (decision 0070), until when a change holds,
 * and the help for a cold radiator with the live values filled in. Presses
 * move a target shown at once and sent once they pause (lib/use-pending-target.ts).
 * Refreshes every minute while visible. Plain React and fetch, to stay a small page for phones.
 */
import type { PublicHeatingView } from '@heizplan/contracts/public-heating-view';
import { useCallback, useEffect, useState } from 'react';
import { type Clock, ClockProvider, systemClock, useClock } from '../lib/clock.tsx';
import { usePendingTarget } from '../lib/use-pending-target.ts';
import { changeSetpoint, loadView, type ViewResult } from './api.ts';
import { type Language, type TextKey, text } from './dictionary.ts';
import { Feedback } from './feedback.tsx';
import { evaluateHelp } from './help.ts';
import { celsiusIn, type Notice, noticeText, refusalNotice } from './refusal.ts';
import { stepSetpoint } from './stepping.ts';

const REFRESH_MS = 60_000;

/** Texts of values; a time on `now`'s day (in `timeZone`) reads without its weekday. */
function formatters(lang: Language, timeZone: string, now: Date) {
  const clock = new Intl.DateTimeFormat(lang, { timeZone, hour: '2-digit', minute: '2-digit' });
  const dayClock = new Intl.DateTimeFormat(lang, {
    timeZone,
    weekday: 'short',
    hour: '2-digit',
    minute: '2-digit',
  });
  const day = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  });
  return {
    celsius: celsiusIn(lang),
    /** 14:05 today, "Mo., 06:00" on another day. */
    time: (iso: string) => {
      const date = new Date(iso);
      return day.format(date) === day.format(now) ? clock.format(date) : dayClock.format(date);
    },
  };
}

function Message({
  children,
  tone = 'info',
}: {
  children: React.ReactNode;
  tone?: 'info' | 'warn' | 'error';
}) {
  const colors = {
    info: 'bg-sky-50 text-sky-900',
    warn: 'bg-amber-50 text-amber-900',
    error: 'bg-red-50 text-red-900',
  };
  return <p className={`rounded-xl px-4 py-3 text-sm ${colors[tone]}`}>{children}</p>;
}

function Help({ view, lang }: { view: PublicHeatingView; lang: Language }) {
  const clock = useClock();
  const format = formatters(lang, view.timeZone, clock());
  const help = evaluateHelp(view, format);
  const marks = { ok: '✓', fail: '✗', unknown: '?' };
  const markColors = {
    ok: 'bg-green-100 text-green-800',
    fail: 'bg-red-100 text-red-800',
    unknown: 'bg-stone-200 text-stone-700',
  };
  return (
    <details className="rounded-2xl bg-white p-4 shadow-sm" data-testid="hv-help">
      <summary className="cursor-pointer text-base font-semibold">{text(lang, 'helpTitle')}</summary>
      <ul className="mt-3 flex flex-col gap-3">
        {help.checks.map((check) => (
          <li key={check.key} className="flex gap-3 text-sm" data-state={check.state}>
            <span
              aria-hidden="true"
              className={`grid size-6 shrink-0 place-items-center rounded-full font-bold ${markColors[check.state]}`}
            >
              {marks[check.state]}
            </span>
            <span>{text(lang, check.key, check.values)}</span>
          </li>
        ))}
      </ul>
      <p className="mt-4 border-t border-stone-200 pt-3 text-sm font-medium" data-testid="hv-verdict">
        {text(lang, help.verdict)}
      </p>
    </details>
  );
}

function View({
  token,
  view,
  lang,
  onChange,
  target,
  notice,
}: {
  token: string;
  view: PublicHeatingView;
  lang: Language;
  onChange: (setpoint: number) => void;
  /** The value pressed to and not yet confirmed; shown instead of the server's setpoint. */
  target: number | null;
  notice: Notice | null;
}) {
  const clock = useClock();
  const format = formatters(lang, view.timeZone, clock());
  const { min, max } = view;
  const setpoint = target ?? view.setpoint;
  const busy = target !== null;
  // What a screen reader hears after a press (WCAG 2.1 SC 4.1.3): saving, then saved and whether
  // it is on its way to the valve. Nothing at first load: nothing changed yet.
  const [saved, setSaved] = useState(false);
  const [wasBusy, setWasBusy] = useState(busy);
  if (busy !== wasBusy) {
    setWasBusy(busy);
    setSaved(!busy);
  }
  const announcement =
    setpoint === null
      ? ''
      : busy
        ? text(lang, 'announceSaving', { setpoint: format.celsius(setpoint) })
        : saved
          ? text(lang, view.deliveryPending ? 'announceDelivering' : 'announceSaved', {
              setpoint: format.celsius(setpoint),
            })
          : '';
  // A closure outranks an occupant's change (decision 0051): the server would refuse it.
  const closed = view.setpointSource === 'closure';
  const canChange = !view.paused && !closed && setpoint !== null;
  const lower = setpoint === null ? null : stepSetpoint(setpoint, -1, view);
  const raise = setpoint === null ? null : stepSetpoint(setpoint, 1, view);
  const button =
    'grid size-14 place-items-center rounded-full bg-brand-600 text-3xl font-semibold text-white shadow active:bg-brand-700 disabled:bg-stone-300 disabled:shadow-none';
  return (
    <>
      <section className="grid grid-cols-2 gap-3">
        <div className="rounded-2xl bg-white p-4 shadow-sm">
          <h2 className="text-sm text-stone-600">{text(lang, 'room')}</h2>
          <p className="mt-1 text-3xl font-semibold tabular-nums" data-testid="hv-room">
            {view.roomTemperature === null ? '–' : format.celsius(view.roomTemperature)}
          </p>
          <p className="mt-1 text-xs text-stone-500">
            {view.lastReadingAt
              ? text(lang, 'lastReading', { time: format.time(view.lastReadingAt) })
              : text(lang, 'noReading')}
          </p>
        </div>
        <div className="rounded-2xl bg-white p-4 shadow-sm">
          <h2 className="text-sm text-stone-600">{text(lang, 'setpoint')}</h2>
          <p className="mt-1 text-3xl font-semibold tabular-nums text-brand-700" data-testid="hv-setpoint">
            {setpoint === null ? '–' : format.celsius(setpoint)}
          </p>
          {view.valveOpening !== null && (
            <p className="mt-1 text-xs text-stone-500">
              {text(lang, 'valve', { percent: Math.round(view.valveOpening) })}
            </p>
          )}
        </div>
      </section>
      <p role="status" className="sr-only" data-testid="hv-announcement">
        {announcement}
      </p>
      {view.deliveryPending && (
        <Message>
          <span data-testid="hv-delivering">{text(lang, 'delivering')}</span>
        </Message>
      )}
      {(view.wallControlReported || view.wallControlOverride) && (
        <Message tone={view.wallControlOverride ? 'warn' : 'info'}>
          <span data-testid="hv-wall-control">
            {text(lang, view.wallControlOverride ? 'override' : 'noOverride')}
          </span>
        </Message>
      )}
      {view.paused || closed ? (
        <Message>
          <span data-testid={closed ? 'hv-closed' : 'hv-paused'}>
            {text(lang, closed ? 'closed' : 'paused')}
          </span>
        </Message>
      ) : (
        <section className="flex items-center justify-between gap-4 rounded-2xl bg-white p-4 shadow-sm">
          <button
            type="button"
            className={button}
            aria-label={text(lang, 'lower')}
            disabled={!canChange || lower === null}
            onClick={() => lower !== null && onChange(lower)}
            data-testid="hv-lower"
          >
            −
          </button>
          <p className="text-center text-xs text-stone-600">
            {busy
              ? text(lang, 'saving')
              : text(lang, 'limits', { min: format.celsius(min), max: format.celsius(max) })}
          </p>
          <button
            type="button"
            className={button}
            aria-label={text(lang, 'raise')}
            disabled={!canChange || raise === null}
            onClick={() => raise !== null && onChange(raise)}
            data-testid="hv-raise"
          >
            +
          </button>
        </section>
      )}
      <Feedback token={token} lang={lang} formatTime={format.time} />
      {notice && (
        <Message tone="error">
          <span data-testid="hv-notice">{noticeText(lang, notice)}</span>
        </Message>
      )}
      {view.occupantChange ? (
        <Message>
          <span data-testid="hv-holds">
            {view.occupantChange.until
              ? text(lang, 'holdsUntil', { time: format.time(view.occupantChange.until) })
              : text(lang, 'holdsUntilNextSwitch')}
          </span>
        </Message>
      ) : (
        view.nextChange && (
          <p className="px-1 text-sm text-stone-600">
            {text(lang, 'next', {
              setpoint: format.celsius(view.nextChange.setpoint),
              time: format.time(view.nextChange.at),
            })}
          </p>
        )
      )}
      <Help view={view} lang={lang} />
    </>
  );
}

/** The page; `clock` is what it reads as now (tests fix it), the system clock by default. */
export function HeatingViewApp({
  token,
  lang,
  clock = systemClock,
}: {
  token: string;
  lang: Language;
  clock?: Clock;
}) {
  const [result, setResult] = useState<ViewResult | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const refresh = useCallback(() => loadView(token).then(setResult), [token]);

  useEffect(() => {
    void refresh();
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') void refresh();
    }, REFRESH_MS);
    return () => clearInterval(timer);
  }, [refresh]);

  const view = result?.kind === 'ok' ? result.view : null;
  useEffect(() => {
    document.title = view ? `${view.unitName} – ${text(lang, 'title')}` : text(lang, 'title');
  }, [view, lang]);

  const pending = usePendingTarget<ViewResult>({
    send: (setpoint) => changeSetpoint(token, setpoint),
    onResult: (answer) => {
      if (answer.kind === 'ok') setResult(answer);
      else if (answer.kind === 'refused') setNotice(refusalNotice(lang, answer.code, answer.params));
      else if (answer.kind === 'tooMany')
        setNotice({ key: 'tooMany', values: { seconds: answer.retryAfterSeconds } });
      else setResult(answer);
    },
  });
  const change = (setpoint: number) => {
    setNotice(null);
    pending.set(setpoint);
  };

  const problem: Record<string, TextKey> = { notFound: 'notFound', error: 'error' };
  return (
    <ClockProvider clock={clock}>
      <main className="mx-auto flex min-h-full w-full max-w-md flex-col gap-4 p-4">
        <header className="pt-2">
          <p className="text-xs font-semibold uppercase tracking-wide text-brand-700">Heizplan</p>
          <h1 className="text-2xl font-semibold" data-testid="hv-name">
            {view ? view.unitName : text(lang, 'title')}
          </h1>
        </header>
        {result === null ? (
          <p className="text-stone-600">{text(lang, 'loading')}</p>
        ) : view ? (
          <View
            token={token}
            view={view}
            lang={lang}
            onChange={change}
            target={pending.target}
            notice={notice}
          />
        ) : result.kind === 'tooMany' ? (
          <Message tone="warn">{text(lang, 'tooMany', { seconds: result.retryAfterSeconds })}</Message>
        ) : (
          <div className="flex flex-col items-start gap-3" role="alert" data-testid={`hv-${result.kind}`}>
            <Message tone={result.kind === 'notFound' ? 'info' : 'error'}>
              {text(lang, problem[result.kind] ?? 'error')}
            </Message>
            {result.kind !== 'notFound' && (
              <button
                type="button"
                className="rounded-lg bg-brand-600 px-4 py-2 text-sm font-medium text-white"
                onClick={() => void refresh()}
              >
                {text(lang, 'retry')}
              </button>
            )}
          </div>
        )}
        {/* Every public page names who runs it (§ 5 DDG): the server's legal pages. */}
        <footer className="mt-auto pt-6 text-xs text-stone-600">
          <nav aria-label={text(lang, 'legal')} className="flex flex-wrap gap-x-4 gap-y-1">
            <a className="underline" href="/legal/impressum.html">
              {text(lang, 'imprint')}
            </a>
            <a className="underline" href="/legal/datenschutz.html" hrefLang="de">
              {text(lang, 'privacy')}
            </a>
            <a className="underline" href={text(lang, 'accessibilityHref')}>
              {text(lang, 'accessibility')}
            </a>
          </nav>
        </footer>
      </main>
    </ClockProvider>
  );
}

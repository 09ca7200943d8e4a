/**
 * The unit page's "Rückmeldungen der Raumnutzer" (decision 0070): how often occupants pressed
 * "Zu warm" and "Zu kalt" on the room's public page in the last 30 days, and each press with its
 * local time in the company's zone (02.12.2026 08:15), the room temperature and setpoint then
 * (21,5 °C) and the trend of the hour before (+0,8 K/h); an empty state without any.
 */
import type { OccupantFeedbackEntry } from '@heizplan/contracts/occupant-feedback';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useClock } from '../../../lib/clock.tsx';
import { useHeatingFormat } from '../../../lib/format.ts';
import { useUnitFeedback } from '../api/unit-feedback.ts';

/** The window shown: the last 30 days up to the minute the card opened. */
const WINDOW_DAYS = 30;
const MINUTE_MS = 60_000;

/** "02.12.2026 08:15" in German, the locale's own date and time otherwise; in `timeZone`. */
function useMoment(timeZone?: string) {
  const { i18n } = useTranslation();
  const date = new Intl.DateTimeFormat(i18n.language, {
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    timeZone,
  });
  const time = new Intl.DateTimeFormat(i18n.language, { hour: '2-digit', minute: '2-digit', timeZone });
  return (iso: string) => `${date.format(new Date(iso))} ${time.format(new Date(iso))}`;
}

/** A trend in K/h with its sign ("+0,8 K/h", "−0,3 K/h", "0,0 K/h"); a dash when unknown. */
function useTrend() {
  const { i18n } = useTranslation();
  const number = new Intl.NumberFormat(i18n.language, {
    minimumFractionDigits: 1,
    maximumFractionDigits: 1,
    signDisplay: 'exceptZero',
  });
  return (value: number | null) => (value === null ? '—' : `${number.format(value).replace('-', '−')} K/h`);
}

function Entry({ entry, timeZone }: { entry: OccupantFeedbackEntry; timeZone?: string }) {
  const { t } = useTranslation('feedback');
  const format = useHeatingFormat();
  const moment = useMoment(timeZone);
  const trend = useTrend();
  return (
    <li
      className="flex flex-wrap items-baseline gap-x-4 gap-y-1 py-2 text-sm"
      data-testid="unit-feedback-entry"
    >
      <span className="tabular-nums text-stone-700">{moment(entry.at)}</span>
      <span className={`font-semibold ${entry.feeling === 'too_warm' ? 'text-red-800' : 'text-sky-800'}`}>
        {t(`feelings.${entry.feeling}`)}
      </span>
      <span className="tabular-nums text-stone-700">
        {t('room', { value: format.celsius(entry.roomTemperature) })}
      </span>
      <span className="tabular-nums text-stone-700">
        {t('setpoint', { value: format.celsius(entry.setpoint) })}
      </span>
      <span className="tabular-nums text-stone-700">{t('trend', { value: trend(entry.trend) })}</span>
    </li>
  );
}

/** The room's feedback of the last 30 days; `timeZone` is the company's (IANA). */
export function UnitFeedback({ unitId, timeZone }: { unitId: string; timeZone?: string }) {
  const { t } = useTranslation('feedback');
  const clock = useClock();
  // Fixed when the card opens, to the minute, so the query's key stays put between renders.
  const [range] = useState(() => {
    const to = new Date(Math.ceil(clock().getTime() / MINUTE_MS) * MINUTE_MS);
    const from = new Date(to.getTime() - WINDOW_DAYS * 86_400_000);
    return { from: from.toISOString(), to: to.toISOString() };
  });
  const feedback = useUnitFeedback(unitId, range.from, range.to);
  if (feedback.isPending) return <Spinner loading testid="unit-feedback-loading" />;
  if (!feedback.data) {
    return (
      <p role="alert" className="text-red-800">
        {t('loadError')}
      </p>
    );
  }
  const { counts, results } = feedback.data;
  const zone = feedback.data.timeZone ?? timeZone;
  return (
    <div className="flex flex-col gap-4" data-testid="unit-feedback">
      <dl className="grid grid-cols-2 gap-3 text-sm sm:max-w-sm" aria-label={t('counts')}>
        <div className="rounded-lg bg-red-50 p-3 text-red-900">
          <dt>{t('feelings.too_warm')}</dt>
          <dd className="text-2xl font-semibold tabular-nums" data-testid="unit-feedback-too-warm">
            {counts.tooWarm}
          </dd>
        </div>
        <div className="rounded-lg bg-sky-50 p-3 text-sky-900">
          <dt>{t('feelings.too_cold')}</dt>
          <dd className="text-2xl font-semibold tabular-nums" data-testid="unit-feedback-too-cold">
            {counts.tooCold}
          </dd>
        </div>
      </dl>
      {results.length === 0 ? (
        <p className="text-sm text-stone-600" data-testid="unit-feedback-empty">
          {t('empty')}
        </p>
      ) : (
        <ul className="flex flex-col divide-y divide-stone-100" aria-label={t('list')}>
          {results.map((entry) => (
            <Entry key={entry.id} entry={entry} timeZone={zone} />
          ))}
        </ul>
      )}
    </div>
  );
}

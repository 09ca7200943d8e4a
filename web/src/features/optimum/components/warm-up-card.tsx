/**
 * The unit page's explanation of optimum start (decision 0056): whether it acts for this room,
 * what the room has learned — warm-up rate, dead time, cooling, how long a switch-off keeps it within 0.5 K, confidence — its last warm-ups as
 * bars (minutes to comfort) and how often the room was warm at the comfort time in 30 days.
 */
import type { UnitWarmUp } from '@heizplan/contracts/optimum';
import type { TFunction } from 'i18next';
import { DateTime } from 'luxon';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useHeatingFormat } from '../../../lib/format.ts';
import { useUnitWarmUp } from '../api/get-warm-up.ts';

function ModeNote({ warmUp }: { warmUp: UnitWarmUp }) {
  const { t } = useTranslation('optimum');
  const key =
    warmUp.companyMode === 'off' ? 'companyOff' : !warmUp.optimumStart ? 'unitOff' : `mode.${warmUp.mode}`;
  return (
    <p className="text-sm text-stone-700" data-testid="warm-up-mode">
      {t(key)}
    </p>
  );
}

function Sessions({ warmUp, timeZone }: { warmUp: UnitWarmUp; timeZone?: string }) {
  const { t, i18n } = useTranslation('optimum');
  const format = useHeatingFormat();
  const longest = Math.max(60, ...warmUp.sessions.map((s) => s.durationMinutes));
  return (
    <ol className="flex flex-col gap-1.5" aria-label={t('sessions')} data-testid="warm-up-sessions">
      {warmUp.sessions.map((s) => (
        <li
          key={s.start}
          className="grid grid-cols-[6rem_1fr] items-center gap-2 text-xs sm:grid-cols-[8rem_1fr]"
        >
          <span className="tabular-nums text-stone-600">
            {DateTime.fromISO(s.start, { zone: timeZone })
              .setLocale(i18n.language)
              .toLocaleString({ weekday: 'short', day: '2-digit', month: '2-digit' })}
          </span>
          <span className="flex min-w-0 flex-col gap-0.5">
            <span className="tabular-nums">
              {t(s.outdoor === null ? 'session' : 'sessionOutdoor', {
                minutes: format.plain(Math.round(s.durationMinutes)),
                lift: format.plain(Math.round(s.lift * 10) / 10),
                rate: format.plain(Math.round(s.rate * 10) / 10),
                outdoor: s.outdoor === null ? '' : format.celsius(Math.round(s.outdoor * 10) / 10),
              })}
            </span>
            <span
              className="h-1.5 rounded bg-orange-500"
              style={{ width: `${Math.max(4, (s.durationMinutes / longest) * 100)}%` }}
              aria-hidden="true"
            />
          </span>
        </li>
      ))}
    </ol>
  );
}

/**
 * What the model does with the outdoor temperature (decision 0057): nothing without it (the
 * building has no location or no weather), the learned dependence, or not yet one.
 */
function outdoorNote(
  warmUp: UnitWarmUp,
  t: TFunction<'optimum'>,
  format: ReturnType<typeof useHeatingFormat>,
): string {
  if (!warmUp.sessions.some((s) => s.outdoor !== null)) return t('indoorOnly');
  const model = warmUp.model;
  if (!model?.learned || model.ratePerOutdoorK === 0) return t('outdoorNotYet');
  // Fitted, but below what the note can show: say so rather than "0 K/h per kelvin".
  const perK = Math.round(model.ratePerOutdoorK * 100) / 100;
  return perK === 0 ? t('outdoorNoEffect') : t('outdoorLearned', { perK: format.plain(perK) });
}

export function WarmUpCard({ unitId, timeZone }: { unitId: string; timeZone?: string }) {
  const { t } = useTranslation('optimum');
  const format = useHeatingFormat();
  const warmUp = useUnitWarmUp(unitId);
  if (warmUp.isPending) return <Spinner loading testid="warm-up-loading" />;
  if (!warmUp.data) {
    return (
      <p role="alert" className="text-red-800">
        {t('loadError')}
      </p>
    );
  }
  const data = warmUp.data;
  const model = data.model;
  const judged = data.mornings.filter((m) => m.room !== null);
  const hits = judged.filter((m) => m.hit).length;
  return (
    <div className="flex flex-col gap-4" data-testid="warm-up">
      <ModeNote warmUp={data} />
      {model === null ? (
        <p className="text-sm text-stone-600" data-testid="warm-up-none">
          {t('none')}
        </p>
      ) : (
        <dl
          className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-3 lg:grid-cols-5"
          data-testid="warm-up-model"
        >
          <div>
            <dt className="text-stone-600">{t('rate')}</dt>
            <dd className="font-semibold">
              {model.learned ? `${format.plain(Math.round(model.rateAt0 * 10) / 10)} K/h` : t('defaultRate')}
            </dd>
          </div>
          <div>
            <dt className="text-stone-600">{t('deadtime')}</dt>
            <dd className="font-semibold">
              {t('minutes', { minutes: format.plain(Math.round(model.deadtimeMinutes)) })}
            </dd>
          </div>
          <div>
            <dt className="text-stone-600">{t('cooling')}</dt>
            <dd className="font-semibold">
              {model.coolRate === null ? '—' : `${format.plain(Math.round(model.coolRate * 10) / 10)} K/h`}
            </dd>
          </div>
          <div>
            <dt className="text-stone-600">{t('comfortHold')}</dt>
            <dd className="font-semibold">
              {model.comfortHoldMinutes === null
                ? '—'
                : t('minutes', { minutes: format.plain(Math.round(model.comfortHoldMinutes)) })}
            </dd>
          </div>
          <div>
            <dt className="text-stone-600">{t('confidence')}</dt>
            <dd className="font-semibold">{format.percent(model.confidence * 100)}</dd>
          </div>
        </dl>
      )}
      {data.sessions.length > 0 && <Sessions warmUp={data} timeZone={timeZone} />}
      <p className="text-sm" data-testid="warm-up-hits">
        {judged.length === 0 ? t('noMornings') : t('hits', { hits, count: judged.length })}
      </p>
      <p className="text-xs text-stone-600" data-testid="warm-up-outdoor">
        {outdoorNote(data, t, format)}
      </p>
    </div>
  );
}

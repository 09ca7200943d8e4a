/**
 * How optimum start and stop moved the preview's switch points (decision 0056): with more than two,
 * one line per kind says on how many days and from when to when ("Vorheizen an 7 Tagen, frühestens
 * 05:58, spätestens 06:14 Uhr"), and the single lines open below it. Each line reads:
 * "Vorheizen ab Di., 01.12., 06:12 — 16,8 → 21,0 °C, gelernt 1,9 K/h, Sicherheit 85 %". In shadow
 * mode the lines say they are only shown, not sent.
 */
import type { Preview, PreviewOptimum } from '@heizplan/contracts/heating';
import { DateTime } from 'luxon';
import { useTranslation } from 'react-i18next';
import { useHeatingFormat } from '../../../lib/format.ts';

export function PreviewOptimumList({ preview }: { preview: Preview }) {
  const { t, i18n } = useTranslation('plans');
  const format = useHeatingFormat();
  if (preview.optimum.length === 0) return null;
  const shadow = preview.optimum.some((o) => !o.applied);
  const when = (iso: string) =>
    DateTime.fromISO(iso, { zone: preview.timeZone }).setLocale(i18n.language).toLocaleString({
      weekday: 'short',
      day: '2-digit',
      month: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    });
  const line = (o: PreviewOptimum) => {
    const parts = [
      t(o.kind === 'optimum_start' ? 'optimum.start' : 'optimum.stop', {
        time: when(o.start),
        from: format.celsius(o.from),
        to: format.celsius(o.to),
      }),
      o.outdoor === null
        ? t('optimum.indoorOnly')
        : t('optimum.outdoor', { outdoor: format.celsius(o.outdoor) }),
      o.learned
        ? t(o.kind === 'optimum_start' ? 'optimum.learned' : 'optimum.learnedCooling', {
            rate: format.plain(o.rate),
            confidence: format.percent(o.confidence * 100),
          })
        : t('optimum.default'),
    ];
    if (o.classADelayMinutes > 0)
      parts.push(t('optimum.classA', { minutes: format.plain(o.classADelayMinutes) }));
    return parts.join(', ');
  };
  const list = (
    <ul className="flex flex-col gap-1">
      {preview.optimum.map((o) => (
        <li key={`${o.kind}-${o.switchAt}`} data-testid={`preview-optimum-${o.switchAt}`}>
          {line(o)}
        </li>
      ))}
    </ul>
  );
  // A week brings a line a day for each kind, seven alike but for the minute: one line per kind
  // says when, the lines themselves open on request.
  const local = (iso: string) => DateTime.fromISO(iso, { zone: preview.timeZone });
  const summaries = (['optimum_start', 'optimum_stop'] as const).flatMap((kind) => {
    const shifts = preview.optimum.filter((o) => o.kind === kind);
    if (shifts.length === 0) return [];
    const minutes = (o: PreviewOptimum) => local(o.start).hour * 60 + local(o.start).minute;
    const sorted = [...shifts].sort((a, b) => minutes(a) - minutes(b));
    const time = (o: PreviewOptimum) =>
      local(o.start).setLocale(i18n.language).toLocaleString(DateTime.TIME_SIMPLE);
    return [
      {
        kind,
        text: t(kind === 'optimum_start' ? 'optimum.summaryStart' : 'optimum.summaryStop', {
          count: shifts.length,
          earliest: time(sorted[0] as PreviewOptimum),
          latest: time(sorted.at(-1) as PreviewOptimum),
        }),
      },
    ];
  });
  return (
    <section
      className="flex flex-col gap-1 text-sm"
      data-testid="preview-optimum"
      aria-label={t('optimum.title')}
    >
      <h3 className="font-medium text-stone-800">{t('optimum.title')}</h3>
      {shadow && <p className="text-stone-600">{t('optimum.shadow')}</p>}
      {preview.optimum.length <= 2 ? (
        list
      ) : (
        <>
          <ul className="flex flex-col gap-1" data-testid="preview-optimum-summary">
            {summaries.map((summary) => (
              <li key={summary.kind}>{summary.text}</li>
            ))}
          </ul>
          <details>
            <summary className="cursor-pointer text-brand-700">
              {t('optimum.lines', { count: preview.optimum.length })}
            </summary>
            <div className="mt-1">{list}</div>
          </details>
        </>
      )}
    </section>
  );
}

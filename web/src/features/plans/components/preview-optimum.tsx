/**
 * How optimum start and stop moved the preview's switch points (decision 0056), one line each:
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
  return (
    <section
      className="flex flex-col gap-1 text-sm"
      data-testid="preview-optimum"
      aria-label={t('optimum.title')}
    >
      <h3 className="font-medium text-stone-800">{t('optimum.title')}</h3>
      {shadow && <p className="text-stone-600">{t('optimum.shadow')}</p>}
      <ul className="flex flex-col gap-1">
        {preview.optimum.map((o) => (
          <li key={`${o.kind}-${o.switchAt}`} data-testid={`preview-optimum-${o.switchAt}`}>
            {line(o)}
          </li>
        ))}
      </ul>
    </section>
  );
}

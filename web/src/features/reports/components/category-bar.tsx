/**
 * Occupied hours by EN 16798-1 winter category as one stacked bar (I green to "below" red),
 * with a legend that carries the numbers, so the bar itself is decoration for screen readers.
 */
import type { Report } from '@heizplan/contracts/reports';
import { useTranslation } from 'react-i18next';
import { cx } from '../../../components/ui/cx.ts';
import { useReportFormat } from '../report-format.ts';

const CATEGORIES = ['i', 'ii', 'iii', 'below'] as const;
const COLOURS: Record<(typeof CATEGORIES)[number], string> = {
  i: 'bg-emerald-600',
  ii: 'bg-lime-500',
  iii: 'bg-amber-400',
  below: 'bg-red-600',
};

export function CategoryBar({ hours }: { hours: Report['comfort']['categoryHours'] }) {
  const { t } = useTranslation('reports');
  const format = useReportFormat();
  const total = CATEGORIES.reduce((sum, category) => sum + hours[category], 0);
  return (
    <section
      className="flex flex-col gap-3 rounded-xl border border-stone-200 bg-white p-4"
      aria-labelledby="report-categories-title"
      data-testid="report-categories"
    >
      <div>
        <h2 id="report-categories-title" className="text-base font-semibold">
          {t('categories.title')}
        </h2>
        <p className="text-xs text-stone-600">{t('categories.description')}</p>
      </div>
      {total === 0 ? (
        <p className="text-sm text-stone-600">{t('categories.none')}</p>
      ) : (
        <>
          <div className="flex h-4 w-full overflow-hidden rounded-full bg-stone-100" aria-hidden="true">
            {CATEGORIES.map((category) =>
              hours[category] > 0 ? (
                <div
                  key={category}
                  className={COLOURS[category]}
                  style={{ width: `${(hours[category] / total) * 100}%` }}
                />
              ) : null,
            )}
          </div>
          <ul className="grid grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
            {CATEGORIES.map((category) => (
              <li
                key={category}
                className="flex items-center gap-2"
                data-testid={`report-category-${category}`}
              >
                <span className={cx('size-3 shrink-0 rounded-sm', COLOURS[category])} aria-hidden="true" />
                <span className="min-w-0">
                  {t(`categories.${category}`)}:{' '}
                  <span className="tabular-nums">
                    {t('categories.value', {
                      hours: format.hours(hours[category]),
                      share: format.share(hours[category] / total),
                    })}
                  </span>
                </span>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

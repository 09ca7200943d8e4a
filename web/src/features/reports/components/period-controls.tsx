/**
 * The report's period: month or heating season (a toggle), one period back or on (arrows; none
 * into the future), and in the month view the browser's own month picker. A season reads
 * "Heizperiode 2026/27".
 */
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { cx } from '../../../components/ui/cx.ts';
import { controlClass } from '../../../components/ui/field.tsx';
import { Icon } from '../../../components/ui/icon.tsx';
import { useReportFormat } from '../report-format.ts';
import {
  isLatest,
  monthOfDate,
  type PeriodKind,
  type ReportView,
  shiftView,
  withPeriodKind,
} from '../report-view.ts';

const KINDS: PeriodKind[] = ['month', 'season'];
const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

export function PeriodControls({
  view,
  today,
  onChange,
}: {
  view: ReportView;
  today: Date;
  onChange: (view: ReportView) => void;
}) {
  const { t } = useTranslation('reports');
  const format = useReportFormat();
  const { period } = view;
  return (
    <div className="flex flex-wrap items-center gap-2" data-testid="report-period">
      <fieldset className="inline-flex rounded-lg border border-stone-300 bg-white p-0.5">
        <legend className="sr-only">{t('period.kind')}</legend>
        {KINDS.map((kind) => (
          <button
            key={kind}
            type="button"
            aria-pressed={period.kind === kind}
            onClick={() => onChange(withPeriodKind(view, kind, today))}
            className={cx(
              'rounded-md px-3 py-1.5 text-sm font-medium',
              period.kind === kind ? 'bg-brand-600 text-white' : 'text-stone-700 hover:bg-stone-100',
            )}
            data-testid={`report-period-${kind}`}
          >
            {t(`period.${kind}`)}
          </button>
        ))}
      </fieldset>
      <div className="flex items-center gap-1">
        <Button
          variant="secondary"
          className="w-10 px-0"
          aria-label={t('period.previous')}
          title={t('period.previous')}
          onClick={() => onChange(shiftView(view, -1))}
          testid="report-period-previous"
        >
          <Icon name="chevronLeft" />
        </Button>
        {period.kind === 'month' ? (
          <input
            type="month"
            aria-label={t('period.monthInput')}
            value={period.month}
            max={monthOfDate(today)}
            onChange={(event) => {
              const month = event.target.value;
              if (MONTH.test(month)) onChange({ ...view, period: { kind: 'month', month } });
            }}
            className={cx(controlClass, 'w-44')}
            data-testid="report-month"
          />
        ) : (
          <span
            className="flex h-10 items-center rounded-lg border border-stone-300 bg-white px-3 text-sm font-medium"
            data-testid="report-season"
          >
            {format.season(period.season)}
          </span>
        )}
        <Button
          variant="secondary"
          className="w-10 px-0"
          aria-label={t('period.next')}
          title={t('period.next')}
          disabled={isLatest(view, today)}
          onClick={() => onChange(shiftView(view, 1))}
          testid="report-period-next"
        >
          <Icon name="chevronRight" />
        </Button>
      </div>
    </div>
  );
}

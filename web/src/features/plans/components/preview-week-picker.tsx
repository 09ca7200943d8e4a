/**
 * Which days a 7-day preview shows: from now (the default) or from local midnight
 * of a chosen date in the company's time zone — the week of the next DST change, next winter —
 * a week back or forward with the arrows, within the API's two years of today.
 */
import { PREVIEW_FROM_MAX_YEARS } from '@heizplan/contracts/heating';
import { DateTime } from 'luxon';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { TextInput } from '../../../components/ui/field.tsx';
import { useClock } from '../../../lib/clock.tsx';
import { useCompany } from '../../../lib/company/get-company.ts';

/** The company default (decision 0004) until the company has loaded. */
const DEFAULT_ZONE = 'Europe/Berlin';

export interface PreviewWeek {
  /** Chosen local start date 'YYYY-MM-DD', or null for "from now". */
  date: string | null;
  setDate(date: string | null): void;
  /** The `from` instant to send (local midnight with offset), undefined for now. */
  from: string | undefined;
  zone: string;
}

/** The chosen start of a preview, as state and as the instant the API takes. */
export function usePreviewWeek(): PreviewWeek {
  const company = useCompany();
  const zone = company.data?.time_zone ?? DEFAULT_ZONE;
  const [date, setDate] = useState<string | null>(null);
  const from = date ? (DateTime.fromISO(date, { zone }).startOf('day').toISO() ?? undefined) : undefined;
  return { date, setDate, from, zone };
}

export function PreviewWeekPicker({ week }: { week: PreviewWeek }) {
  const { t } = useTranslation('plans');
  const clock = useClock();
  const today = DateTime.fromJSDate(clock()).setZone(week.zone).startOf('day');
  // A day inside the API's bound on both sides, whatever the hour of today.
  const min = today.minus({ years: PREVIEW_FROM_MAX_YEARS }).plus({ days: 1 });
  const max = today.plus({ years: PREVIEW_FROM_MAX_YEARS }).minus({ days: 1 });
  const current = week.date ? DateTime.fromISO(week.date, { zone: week.zone }) : today;
  const shifted = (days: number) => current.plus({ days });
  const within = (day: DateTime) => day >= min && day <= max;
  return (
    <div className="flex flex-wrap items-end gap-2" data-testid="preview-week">
      <TextInput
        type="date"
        label={t('week.start')}
        value={week.date ?? ''}
        min={min.toISODate() ?? undefined}
        max={max.toISODate() ?? undefined}
        onChange={(event) => {
          const value = DateTime.fromISO(event.target.value, { zone: week.zone });
          week.setDate(value.isValid && within(value) ? event.target.value : null);
        }}
        testid="preview-week-start"
        className="w-44"
      />
      <Button
        variant="secondary"
        size="sm"
        disabled={!within(shifted(-7))}
        onClick={() => week.setDate(shifted(-7).toISODate())}
        testid="preview-week-previous"
      >
        {t('week.previous')}
      </Button>
      <Button
        variant="secondary"
        size="sm"
        disabled={!within(shifted(7))}
        onClick={() => week.setDate(shifted(7).toISODate())}
        testid="preview-week-next"
      >
        {t('week.next')}
      </Button>
      <Button
        variant="ghost"
        size="sm"
        disabled={week.date === null}
        onClick={() => week.setDate(null)}
        testid="preview-week-now"
      >
        {t('week.now')}
      </Button>
    </div>
  );
}

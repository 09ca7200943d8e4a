/** The dates of a specific-days plan (e.g. public holidays): a date input, an add button and removable chips. */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { TextInput } from '../../../components/ui/field.tsx';
import { formatDay } from '../../../lib/format.ts';

export function DatesEditor({
  dates,
  onChange,
  error,
}: {
  dates: string[];
  onChange: (dates: string[]) => void;
  error: string | null;
}) {
  const { t, i18n } = useTranslation('plans');
  const [date, setDate] = useState('');
  const add = () => {
    if (date && !dates.includes(date)) onChange([...dates, date].sort());
    setDate('');
  };
  return (
    <div className="flex flex-col gap-2" data-testid="plan-dates">
      <div className="flex items-end gap-2">
        <div className="flex-1 sm:max-w-xs">
          <TextInput
            label={t('dates')}
            type="date"
            value={date}
            onChange={(event) => setDate(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter') {
                event.preventDefault();
                add();
              }
            }}
            error={error}
            testid="plan-date-input"
          />
        </div>
        <Button
          variant="secondary"
          onClick={add}
          disabled={!date}
          testid="plan-date-add"
          className={error ? 'mb-7' : ''}
        >
          {t('addDate')}
        </Button>
      </div>
      <ul className="flex flex-wrap gap-2">
        {dates.map((d) => (
          <li
            key={d}
            className="inline-flex items-center gap-1 rounded-md bg-brand-100 py-0.5 pr-1 pl-2 text-sm text-brand-700"
          >
            {Number.isNaN(Date.parse(d)) ? d : formatDay(d, i18n.language, 'UTC')}
            <Button
              variant="ghost"
              size="sm"
              className="h-6 px-1"
              aria-label={t('removeDate', { date: d })}
              onClick={() => onChange(dates.filter((x) => x !== d))}
              testid={`plan-date-remove-${d}`}
            >
              ×
            </Button>
          </li>
        ))}
      </ul>
    </div>
  );
}

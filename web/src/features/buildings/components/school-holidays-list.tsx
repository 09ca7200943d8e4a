/**
 * The school holidays (Ferien) of a building's state in one year, in the holidays dialog
 * (decision 0052): each period with its dates and name, and what it does to the building — its
 * holiday mode around the clock when the building uses school holidays, else nothing. Says up to
 * when the shipped data reaches.
 */
import type { Building, HolidayList } from '@heizplan/contracts/buildings';
import { useTranslation } from 'react-i18next';
import { formatHolidayDate } from '../holiday-dates.ts';

export interface SchoolHolidaysListProps {
  building: Building;
  year: number;
  list: HolidayList;
  /** The building's holiday mode in words with its °C ("Frostschutz (8 °C)"). */
  mode: string;
  stale: boolean;
  /** The member may change the building (then the note says where to switch them on). */
  canOperate: boolean;
}

export function SchoolHolidaysList({
  building,
  year,
  list,
  mode,
  stale,
  canOperate,
}: SchoolHolidaysListProps) {
  const { t, i18n } = useTranslation('buildings');
  const on = building.schoolHolidays;
  const until = formatHolidayDate(list.schoolHolidaysUntil, i18n.language);
  return (
    <section
      className="flex flex-col gap-2"
      aria-labelledby="school-holidays-title"
      data-testid="school-holidays"
    >
      <h3 id="school-holidays-title" className="text-sm font-semibold text-ink">
        {t('holidays.schoolTitle', { year })}
      </h3>
      <p className="text-xs text-stone-600" data-testid="school-holidays-note">
        {on
          ? t('holidays.schoolOn', { mode })
          : t(canOperate ? 'holidays.schoolOffOperate' : 'holidays.schoolOff')}
      </p>
      {list.schoolHolidays.length === 0 ? (
        <p className="text-sm text-stone-600" data-testid="school-holidays-none">
          {t('holidays.schoolNone', { year, until })}
        </p>
      ) : (
        <ul
          className={`flex flex-col divide-y divide-stone-200 ${stale ? 'opacity-50' : ''}`}
          aria-label={t('holidays.schoolTitle', { year })}
          data-testid="school-holidays-list"
        >
          {list.schoolHolidays.map((period) => (
            <li
              key={period.start}
              className="grid gap-x-3 gap-y-0.5 py-2 text-sm sm:grid-cols-[9.5rem_1fr]"
              data-testid={`school-holiday-${period.start}`}
            >
              <span className="text-stone-700 tabular-nums">
                {period.start === period.end
                  ? formatHolidayDate(period.start, i18n.language)
                  : t('holidays.schoolRange', {
                      start: formatHolidayDate(period.start, i18n.language),
                      end: formatHolidayDate(period.end, i18n.language),
                    })}
              </span>
              <span className="flex flex-col gap-0.5">
                <span className="font-medium text-ink">{period.name}</span>
                <span className={on ? 'text-sky-800' : 'text-stone-600'}>
                  {on ? t('holidays.effectClosure', { mode }) : t('holidays.effectIgnore')}
                </span>
              </span>
            </li>
          ))}
        </ul>
      )}
      <p className="text-xs text-stone-500" data-testid="school-holidays-source">
        {t('holidays.schoolSource', { until })}
      </p>
    </section>
  );
}

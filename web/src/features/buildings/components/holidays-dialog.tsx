/**
 * A building's public holidays of one year (decision 0052): a year switcher (‹ 2026 ›), then each
 * holiday with its date and weekday ("Di., 06.01.2026"), its name, a "regional" badge for a
 * holiday of the building's region only, and what happens that day: the holiday heating mode
 * all day when the building treats holidays as closures, the Sunday switch points when it treats
 * them like Sundays, else heating by plan; below, the state's school holidays of the year and the
 * company's own days of the building (added, imported from ICS, deleted by who may operate);
 * last, links to the closures and booking calendars lists filtered to the building (by path and
 * `?building=`: the buildings feature imports neither). Opened from the building's row by every
 * member.
 */
import type { Building } from '@heizplan/contracts/buildings';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog, DialogClose } from '../../../components/ui/dialog.tsx';
import { Icon } from '../../../components/ui/icon.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useClock } from '../../../lib/clock.tsx';
import { type ModeTemperatures, useModeLabel } from '../../../lib/heating/heating-modes.ts';
import { useHolidayRegions, useHolidays } from '../api/buildings.ts';
import { holidayLanguage, regionName, useFederalStates } from '../federal-states.ts';
import { formatHolidayDate, yearIn } from '../holiday-dates.ts';
import { OwnDaysSection } from './own-days-section.tsx';
import { SchoolHolidaysList } from './school-holidays-list.tsx';

/** The years the API answers (`HolidayQuerySchema`). */
const FIRST_YEAR = 2000;
const LAST_YEAR = 2100;

const linkClass = 'py-1 font-medium text-brand-700 hover:underline';

export interface HolidaysDialogProps {
  building: Building;
  onClose: () => void;
  zone: string;
  temperatures: ModeTemperatures;
  /** The member may change the building (then the note says where to switch holidays on). */
  canOperate: boolean;
}

export function HolidaysDialog({ building, onClose, zone, temperatures, canOperate }: HolidaysDialogProps) {
  const { t, i18n } = useTranslation('buildings');
  const clock = useClock();
  const lang = holidayLanguage(i18n.language);
  const [year, setYear] = useState(() => yearIn(zone, clock()));
  const holidays = useHolidays(building.id, year, lang);
  const regions = useHolidayRegions(lang);
  const states = useFederalStates();
  const modeLabel = useModeLabel(temperatures, 'buildings');
  const treatment = building.publicHolidays;
  const closes = treatment === 'closure';
  const region = regionName(regions.data, building.state, building.region);
  const where = region
    ? t('stateWithRegion', { state: states.name(building.state), region })
    : states.name(building.state);
  const mode = modeLabel(building.holidayMode);
  const effect = closes
    ? t('holidays.effectClosure', { mode })
    : t(treatment === 'sunday' ? 'holidays.effectSunday' : 'holidays.effectIgnore');
  const list = holidays.data?.results ?? [];

  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={t('holidays.title', { year })}
      description={t('holidays.where', { name: building.name, state: where })}
      testid="holidays-dialog"
      footer={
        <DialogClose>
          <Button variant="secondary" testid="holidays-close">
            {t('holidays.close')}
          </Button>
        </DialogClose>
      }
    >
      <div className="flex flex-col gap-4">
        <p
          className={`rounded-lg p-3 text-sm ${treatment !== 'ignore' ? 'bg-sky-50 text-sky-900' : 'bg-stone-100 text-stone-700'}`}
          data-testid="holidays-note"
        >
          {closes
            ? t('holidays.closureNote', { mode, zone })
            : treatment === 'sunday'
              ? t('holidays.sundayNote')
              : t(canOperate ? 'holidays.ignoreNoteOperate' : 'holidays.ignoreNote')}
        </p>
        <div className="flex items-center justify-center gap-2">
          <Button
            variant="ghost"
            size="sm"
            onClick={() => setYear((y) => y - 1)}
            disabled={year <= FIRST_YEAR}
            aria-label={t('holidays.previousYear')}
            testid="holidays-previous"
          >
            <Icon name="chevronLeft" />
          </Button>
          <span
            className="min-w-16 text-center text-lg font-semibold tabular-nums"
            aria-live="polite"
            data-testid="holidays-year"
          >
            {year}
          </span>
          <Button
            variant="ghost"
            size="sm"
            onClick={() => setYear((y) => y + 1)}
            disabled={year >= LAST_YEAR}
            aria-label={t('holidays.nextYear')}
            testid="holidays-next"
          >
            <Icon name="chevronRight" />
          </Button>
        </div>
        {holidays.isPending ? (
          <div className="flex justify-center py-8">
            <Spinner loading testid="holidays-loading" />
          </div>
        ) : holidays.isError ? (
          <p
            role="alert"
            className="rounded-lg bg-red-50 p-3 text-sm text-red-800"
            data-testid="holidays-error"
          >
            {t('holidays.loadError')}
          </p>
        ) : list.length === 0 ? (
          <p className="text-sm text-stone-600" data-testid="holidays-none">
            {t('holidays.none', { year })}
          </p>
        ) : (
          <ul
            className={`flex flex-col divide-y divide-stone-200 ${holidays.isPlaceholderData ? 'opacity-50' : ''}`}
            aria-busy={holidays.isPlaceholderData}
            aria-label={t('holidays.title', { year })}
            data-testid="holidays-list"
          >
            {list.map((holiday) => (
              <li
                key={`${holiday.date}-${holiday.name}`}
                className="grid gap-x-3 gap-y-0.5 py-2 text-sm sm:grid-cols-[9.5rem_1fr]"
                data-testid={`holiday-${holiday.date}`}
              >
                <span className="text-stone-700 tabular-nums" data-testid={`holiday-date-${holiday.date}`}>
                  {formatHolidayDate(holiday.date, i18n.language)}
                </span>
                <span className="flex flex-col gap-0.5">
                  <span className="flex flex-wrap items-center gap-x-2 gap-y-1 font-medium text-ink">
                    {holiday.name}
                    {holiday.regional && (
                      <span
                        className="rounded bg-amber-50 px-1.5 py-0.5 text-xs font-normal text-amber-900"
                        title={t('holidays.regionalHint')}
                        data-testid={`holiday-regional-${holiday.date}`}
                      >
                        {t('holidays.regional')}
                      </span>
                    )}
                  </span>
                  <span
                    className={treatment !== 'ignore' ? 'text-sky-800' : 'text-stone-600'}
                    data-testid={`holiday-effect-${holiday.date}`}
                  >
                    {effect}
                  </span>
                </span>
              </li>
            ))}
          </ul>
        )}
        {holidays.data && (
          <SchoolHolidaysList
            building={building}
            year={year}
            list={holidays.data}
            mode={mode}
            stale={holidays.isPlaceholderData}
            canOperate={canOperate}
          />
        )}
        <OwnDaysSection building={building} year={year} mode={mode} canOperate={canOperate} />
        <section
          className="flex flex-col gap-2 border-t border-stone-200 pt-4"
          aria-labelledby="building-calendars-title"
          data-testid="building-calendars"
        >
          <h3 id="building-calendars-title" className="text-sm font-semibold text-ink">
            {t('holidays.calendarsTitle')}
          </h3>
          <div className="flex flex-col items-start gap-1 text-sm sm:flex-row sm:flex-wrap sm:gap-x-6">
            <Link
              to={`/closures?building=${building.id}`}
              onClick={onClose}
              className={linkClass}
              data-testid="holidays-closures-link"
            >
              {t('holidays.closuresLink')}
            </Link>
            <Link
              to={`/booking-feeds?building=${building.id}`}
              onClick={onClose}
              className={linkClass}
              data-testid="holidays-booking-feeds-link"
            >
              {t('holidays.bookingFeedsLink')}
            </Link>
          </div>
        </section>
      </div>
    </Dialog>
  );
}

/**
 * What decided a setpoint, in words, wherever the app names it — the 7-day preview's steps and the
 * heating log (decisions 0051–0053): "Schließzeit: Betriebsurlaub — Frostschutz", "Feiertag: 1.
 * Weihnachtstag — Absenkbetrieb", "Weihnachtsferien (Bayern) — Frostschutz", "Eigener Tag:
 * Brückentag — Frostschutz", "Buchung: Elternabend 19:00–21:00" (the booking's own times in the
 * company's zone) and "Termin: Elternabend". Texts in `common.json` under `sources`.
 */
import type { Preview } from '@heizplan/contracts/heating';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../format.ts';

/** The named things a preview step or a log entry may carry. */
export interface NamedSource {
  closure?: Preview['closures'][number] | null;
  booking?: Preview['bookings'][number] | null;
  event?: { title: string } | null;
}

const CLOSURE_KEYS = {
  closure: 'sources.closure',
  holiday: 'sources.holiday',
  school_holiday: 'sources.schoolHoliday',
  company_day: 'sources.companyDay',
} as const;

/**
 * A function naming a source in the user's language (times in `zone`, the company's IANA zone),
 * or null when the source carries no name.
 */
export function useSourceName(): (source: NamedSource, zone: string | undefined) => string | null {
  const { t, i18n } = useTranslation('common');
  return ({ closure, booking, event }, zone) => {
    const time = (iso: string) => formatTime(iso, i18n.language, zone);
    if (closure)
      return t(CLOSURE_KEYS[closure.kind], { name: closure.name, mode: t(`sources.modes.${closure.mode}`) });
    if (booking)
      return t('sources.booking', { title: booking.title, from: time(booking.start), to: time(booking.end) });
    if (event?.title) return t('sources.event', { title: event.title });
    return null;
  };
}

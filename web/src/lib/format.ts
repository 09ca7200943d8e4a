/** Number and time formatting of the heating screens in the UI language and the company's time zone. */
import { useTranslation } from 'react-i18next';

/** Formats °C values ("21,5 °C" in German) and percentages; '—' for unknown values. */
export function useHeatingFormat() {
  const { i18n } = useTranslation();
  const celsiusFormat = new Intl.NumberFormat(i18n.language, {
    minimumFractionDigits: 1,
    maximumFractionDigits: 1,
  });
  const percentFormat = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 0 });
  return {
    celsius: (value: number | null | undefined) =>
      value === null || value === undefined ? '—' : `${celsiusFormat.format(value)} °C`,
    percent: (value: number | null | undefined) =>
      value === null || value === undefined ? '—' : `${percentFormat.format(value)} %`,
    /** Date and time of an ISO instant in `timeZone` (IANA), e.g. the company's. */
    dateTime: (iso: string, timeZone?: string) =>
      new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(
        new Date(iso),
      ),
  };
}

/**
 * The report's numbers in the UI language, on top of `useHeatingFormat` ("21,5 °C", "12 %"):
 * hours ("1.234,5 h"), energy ("1.234,5 kWh"), shares 0–1 as percent, signed changes
 * ("−10 %"), degree days, ISO dates ("26.11.2026") and the period's name ("November 2026",
 * "Heizperiode 2026/27"). Unknown values read '—'.
 */
import { useTranslation } from 'react-i18next';
import { formatDay, formatMonth, useHeatingFormat } from '../../lib/format.ts';

type Value = number | null | undefined;
const known = (value: Value): value is number =>
  value !== null && value !== undefined && Number.isFinite(value);

export function useReportFormat() {
  const { t, i18n } = useTranslation('reports');
  const heating = useHeatingFormat();
  const language = i18n.language;
  const oneDecimal = new Intl.NumberFormat(language, { maximumFractionDigits: 1 });
  const whole = new Intl.NumberFormat(language, { maximumFractionDigits: 0 });
  const twoDecimals = new Intl.NumberFormat(language, { maximumFractionDigits: 2 });
  const number = (value: Value, format: Intl.NumberFormat, unit: string) =>
    known(value) ? `${format.format(value)}${unit ? ` ${unit}` : ''}` : '—';
  return {
    celsius: heating.celsius,
    /** A share 0–1 as whole percent: 0.123 → "12 %". */
    share: (value: Value) => (known(value) ? heating.percent(value * 100) : '—'),
    hours: (value: Value) => number(value, oneDecimal, 'h'),
    kwh: (value: Value) => number(value, oneDecimal, 'kWh'),
    /** kWh per degree day, per m² and year, heating hours per degree day: up to two decimals. */
    ratio: (value: Value, unit: string) => number(value, twoDecimals, unit),
    degreeDays: (value: Value) => number(value, whole, 'Kd'),
    count: (value: Value) => number(value, whole, ''),
    /** A change as signed percent: −0.1 → "−10 %", 0.05 → "+5 %". */
    change: (value: Value) => {
      if (!known(value)) return '—';
      const percent = Math.round(value * 100);
      const sign = percent < 0 ? '−' : percent > 0 ? '+' : '±';
      return `${sign}${whole.format(Math.abs(percent))} %`;
    },
    /** An ISO date `2026-11-26` as "26.11.2026" (the date as written, whatever the zone). */
    day: (iso: string) => formatDay(`${iso}T00:00:00Z`, language, 'UTC'),
    /** `2026-11` → "November 2026". */
    month: (month: string) => formatMonth(month, language),
    /** `2026` → "Heizperiode 2026/27". */
    season: (season: number) =>
      t('period.seasonName', { first: season, second: String((season + 1) % 100).padStart(2, '0') }),
  };
}

export type ReportFormat = ReturnType<typeof useReportFormat>;

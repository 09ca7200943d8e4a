/** Net money in the user's language, e.g. `4,90 €` / `€4.90` (cents in, ISO 4217 currency). */
import { useTranslation } from 'react-i18next';
import { formatDay } from '../../lib/format.ts';

export function useMoney() {
  const { i18n } = useTranslation();
  return (cents: number, currency: string) =>
    new Intl.NumberFormat(i18n.language, { style: 'currency', currency }).format(cents / 100);
}

/** A date in the user's language, e.g. `23.11.2027`. */
export function useDay() {
  const { i18n } = useTranslation();
  return (iso: string) => formatDay(iso, i18n.language);
}

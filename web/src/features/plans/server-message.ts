/**
 * The heating engine answers in English with the spec §5 sentences; in the UI they are shown
 * in the user's language. Other server sentences are shown as the server wrote them.
 */
import { useTranslation } from 'react-i18next';

const KNOWN: Record<string, string> = {
  'Invalid schedule!': 'serverErrors.invalidSchedule',
  'There is an error in the schedule.': 'serverErrors.invalidScheduleDetail',
  'Invalid time!': 'serverErrors.invalidTime',
  'The time is not valid.': 'serverErrors.invalidTimeDetail',
  'Value exceeds temperature range set by your company.': 'serverErrors.outOfRange',
};

export function useServerMessage() {
  const { t } = useTranslation('plans');
  return (message: string) => {
    const key = KNOWN[message];
    return key ? t(key) : message;
  };
}

/**
 * The server answers with the spec §5 sentences in English; the dialog shows them in the
 * user's language. Other server sentences are shown as the server wrote them.
 */
import { useTranslation } from 'react-i18next';

const KNOWN: Record<string, string> = {
  'The end date must not be before the start date.': 'errors.endBeforeStart',
  'No units selected': 'errors.noUnits',
  'An end time is required when regular events are prevented.': 'errors.endRequired',
  'Value exceeds temperature range set by your company.': 'errors.outOfRange',
  'The end date must not be in the past.': 'errors.endInPast',
  'A past event is read-only.': 'errors.pastReadOnly',
  'A running event can only be shortened or ended.': 'errors.runningOnlyShorten',
  'Unknown unit': 'errors.unknownUnit',
  'Unknown group': 'errors.unknownGroup',
};

export function useEventServerMessage() {
  const { t } = useTranslation('events');
  return (message: string) => {
    const key = KNOWN[message];
    return key ? t(key) : message;
  };
}

/**
 * The heating log screen's download (decision 0060): a window of local dates in the company's
 * time zone (from the start of `from` to the end of `to`; the last 30 days at first) and the
 * buttons for a CSV for Excel or an XLSX workbook of the unit's log. A window the server refuses
 * (over 366 days, or ending before it starts) is explained in the error toast.
 */
import { DateTime } from 'luxon';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ExportButtons } from '../../../components/export-buttons.tsx';
import { TextInput } from '../../../components/ui/field.tsx';
import { useClock } from '../../../lib/clock.tsx';
import { useProblemMessage } from '../../../lib/problem-message.ts';
import { downloadHeatingLog } from '../api/export-heating-log.ts';

/** Days the window covers when the screen opens. */
const DEFAULT_DAYS = 30;

export function LogDownload({ unitId, timeZone }: { unitId: string; timeZone: string | undefined }) {
  const { t, i18n } = useTranslation('units');
  const problems = useProblemMessage();
  const zone = timeZone ?? 'local';
  const clock = useClock();
  const today = DateTime.fromJSDate(clock()).setZone(zone);
  const [from, setFrom] = useState(() => today.minus({ days: DEFAULT_DAYS }).toISODate() ?? '');
  const [to, setTo] = useState(() => today.toISODate() ?? '');
  // Midnight of the day in the company's zone; the window ends at the midnight after `to`.
  const instant = (date: string, days = 0) => DateTime.fromISO(date, { zone }).plus({ days }).toISO() ?? '';
  return (
    <fieldset
      className="flex flex-col gap-3 rounded-xl border border-stone-200 bg-white p-4"
      data-testid="log-download"
    >
      <legend className="px-1 text-sm font-semibold">{t('log.download.title')}</legend>
      <div className="grid gap-3 sm:grid-cols-2">
        <TextInput
          type="date"
          label={t('log.download.from')}
          value={from}
          onChange={(event) => setFrom(event.target.value)}
          testid="log-download-from"
        />
        <TextInput
          type="date"
          label={t('log.download.to')}
          value={to}
          onChange={(event) => setTo(event.target.value)}
          testid="log-download-to"
        />
      </div>
      <ExportButtons
        onExport={(format) =>
          downloadHeatingLog(
            { unitId, from: instant(from), to: instant(to, 1) },
            format,
            i18n.language === 'en' ? 'en' : 'de',
          )
        }
        labels={{ excel: t('log.download.csv'), xlsx: t('log.download.xlsx') }}
        hint={t('log.download.hint')}
        errorText={t('log.download.error')}
        describeError={problems.reason}
        disabled={!from || !to}
        testid="log-download"
      />
    </fieldset>
  );
}

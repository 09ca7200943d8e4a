/**
 * `/units/:unitId/log` (spec §2, §3): the unit's heating log, newest first, with a "load more"
 * button while the server has older entries. Each entry: time in the company's time zone,
 * kind and what decided it ("Schließzeit: Betriebsurlaub — Frostschutz", "Buchung: Elternabend
 * 19:00–21:00", "Termin: Elternabend"), old → new setpoint (with what the valves got where their
 * model adjusted it), and who did it — "you" for the signed-in member, the member's name, or
 * "automatically" (the scheduler) or "an occupant via the QR code (anonymous)". Above the list, the log of a window of days downloads for
 * Excel (`LogDownload`).
 */
import type { LogEntry } from '@heizplan/contracts/heating';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { Button } from '../../../components/ui/button.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useMe } from '../../../lib/account/get-me.ts';
import { useCompany } from '../../../lib/company/get-company.ts';
import { useHeatingFormat } from '../../../lib/format.ts';
import { useSourceName } from '../../../lib/heating/source-name.ts';
import { usePageTitle } from '../../../lib/page-title.tsx';
import { useCan } from '../../../lib/use-can.ts';
import { useHeatingLog } from '../api/get-log.ts';
import { useUnit } from '../api/get-unit.ts';
import { DeliveredSetpoints } from '../components/delivered-setpoints.tsx';
import { LogDownload } from '../components/log-download.tsx';

export function UnitLogPage() {
  const { t } = useTranslation('units');
  const { unitId = '' } = useParams();
  const unit = useUnit(unitId);
  usePageTitle(t('log.title', { name: unit.data?.name ?? '' }));
  const log = useHeatingLog(unitId);
  const me = useMe();
  const company = useCompany();
  const format = useHeatingFormat();
  const sourceName = useSourceName();
  const zone = company.data?.time_zone;
  const canRead = useCan('read');
  const entries = log.data?.pages.flatMap((page) => page.results) ?? [];
  const actorOf = (entry: LogEntry) => {
    // Nobody signed in: the scheduler's own step (the kind above names its source), or an occupant
    // on the room's QR page, who stays anonymous (spec §3).
    if (!entry.actor) return entry.kind === 'qr_change' ? t('log.occupant') : t('log.automatic');
    return entry.actor.id === me.data?.id ? t('log.you') : entry.actor.name;
  };

  return (
    <section className="mx-auto flex w-full max-w-3xl flex-col gap-4 p-4 sm:p-6">
      <Link to={`/units/${unitId}`} className="text-sm text-brand-700 hover:underline">
        ← {unit.data?.name ?? t('backToUnit')}
      </Link>
      <h1 className="text-2xl font-semibold">{t('log.title', { name: unit.data?.name ?? '' })}</h1>
      {company.data && (
        <p className="text-sm text-stone-600">{t('log.timeZone', { zone: company.data.time_zone })}</p>
      )}
      {canRead && company.data && <LogDownload unitId={unitId} timeZone={zone} />}
      {log.isPending ? (
        <div className="flex justify-center py-10">
          <Spinner loading size="lg" testid="log-loading" />
        </div>
      ) : log.isError && entries.length === 0 ? (
        <p role="alert" className="rounded-lg bg-red-50 p-4 text-red-800">
          {t('loadError')}
        </p>
      ) : entries.length === 0 ? (
        <p
          className="rounded-xl border border-dashed border-stone-300 bg-white p-8 text-center text-stone-600"
          data-testid="log-empty"
        >
          {t('log.empty')}
        </p>
      ) : (
        <ol
          className="flex flex-col divide-y divide-stone-100 rounded-xl border border-stone-200 bg-white"
          data-testid="log-list"
        >
          {entries.map((entry) => (
            <li
              key={entry.id}
              className="grid gap-1 p-4 sm:grid-cols-[11rem_1fr_auto] sm:items-baseline sm:gap-4"
              data-testid={`log-entry-${entry.id}`}
            >
              <time dateTime={entry.at} className="text-sm text-stone-600 tabular-nums">
                {format.dateTime(entry.at, company.data?.time_zone)}
              </time>
              <div>
                <p className="font-medium">{t(`kinds.${entry.kind}`)}</p>
                {sourceName(entry, zone) && (
                  <p className="text-sm text-ink" data-testid={`log-source-${entry.id}`}>
                    {sourceName(entry, zone)}
                  </p>
                )}
                <p className="text-sm text-stone-600" data-testid={`log-actor-${entry.id}`}>
                  {actorOf(entry)}
                </p>
              </div>
              <div className="sm:text-right">
                <p className="tabular-nums" data-testid={`log-setpoints-${entry.id}`}>
                  {format.celsius(entry.oldSetpoint)} →{' '}
                  <span className="font-semibold">{format.celsius(entry.newSetpoint)}</span>
                </p>
                <DeliveredSetpoints delivered={entry.delivered ?? []} testid={`log-delivered-${entry.id}`} />
              </div>
            </li>
          ))}
        </ol>
      )}
      {log.hasNextPage && (
        <div className="flex justify-center">
          <Button
            variant="secondary"
            loading={log.isFetchingNextPage}
            onClick={() => void log.fetchNextPage()}
            testid="log-load-more"
          >
            {t('log.loadMore')}
          </Button>
        </div>
      )}
    </section>
  );
}

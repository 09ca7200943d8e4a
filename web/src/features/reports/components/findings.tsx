/**
 * What the report found to act on: missed targets (a banner), efficiency losses per room (window
 * open while heating, a valve open in a warm room, a room almost always below its setpoint, a
 * device that reports too rarely, occupants' complaints despite comfortable figures) and the rooms
 * furthest below comfort. Each room links to its
 * own report.
 */
import type { Report } from '@heizplan/contracts/reports';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Icon } from '../../../components/ui/icon.tsx';
import { useReportFormat } from '../report-format.ts';

/** The address search of a room's report. */
export type RoomLink = (unitId: string) => string;

const HOUR_LOSSES = new Set(['window_open_heating', 'valve_stuck_open']);

function RoomName({ unitId, name, roomLink }: { unitId: string; name: string; roomLink: RoomLink }) {
  return (
    <Link
      to={{ search: roomLink(unitId) }}
      className="font-medium text-brand-700 underline-offset-2 hover:underline"
      data-testid={`report-room-link-${unitId}`}
    >
      {name}
    </Link>
  );
}

export function TargetsBanner({ report }: { report: Report }) {
  const { t } = useTranslation('reports');
  const format = useReportFormat();
  const { targets } = report;
  if (targets.missed.length === 0) return null;
  const figures = {
    heating_hours_per_degree_day: {
      value: format.ratio(report.weather.current.heatingHoursPerDegreeDay, 'h'),
      target: format.ratio(targets.maxHeatingHoursPerDegreeDay, 'h'),
    },
    below_comfort_share: {
      value: format.share(report.comfort.belowComfortShare),
      target: format.share(targets.maxBelowComfortShare),
    },
  };
  return (
    <div
      role="alert"
      className="flex gap-3 rounded-xl border border-amber-300 bg-amber-50 p-4 text-amber-950"
      data-testid="report-targets-missed"
    >
      <Icon name="warning" className="mt-0.5 size-5 shrink-0" />
      <div className="flex flex-col gap-1">
        <p className="font-semibold">{t('targets.title')}</p>
        <ul className="list-disc pl-5 text-sm">
          {targets.missed.map((missed) => (
            <li key={missed}>{t(`targets.${missed}`, figures[missed])}</li>
          ))}
        </ul>
      </div>
    </div>
  );
}

function Panel({ title, testid, children }: { title: string; testid: string; children: ReactNode }) {
  return (
    <section
      className="flex min-w-0 flex-col gap-3 rounded-xl border border-stone-200 bg-white p-4"
      data-testid={testid}
    >
      <h2 className="text-base font-semibold">{title}</h2>
      {children}
    </section>
  );
}

export function LossesList({ losses, roomLink }: { losses: Report['losses']; roomLink: RoomLink }) {
  const { t } = useTranslation('reports');
  const format = useReportFormat();
  return (
    <Panel title={t('losses.title')} testid="report-losses">
      {losses.length === 0 ? (
        <p className="text-sm text-stone-600">{t('losses.none')}</p>
      ) : (
        <ul className="flex flex-col divide-y divide-stone-100">
          {losses.map((loss) => (
            <li
              key={`${loss.kind}-${loss.unitId}`}
              className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-0.5 py-2 text-sm"
              data-testid={`report-loss-${loss.kind}-${loss.unitId}`}
            >
              <span className="flex min-w-0 flex-col">
                <RoomName unitId={loss.unitId} name={loss.name} roomLink={roomLink} />
                <span className="text-stone-700">{t(`losses.kinds.${loss.kind}`)}</span>
              </span>
              <span className="tabular-nums text-stone-800">
                {HOUR_LOSSES.has(loss.kind)
                  ? format.hours(loss.value)
                  : loss.kind === 'complaints_despite_comfort'
                    ? t('losses.complaints', { count: loss.value })
                    : t('losses.share', { share: format.share(loss.value) })}
              </span>
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}

export function WorstRooms({
  rooms,
  roomLink,
}: {
  rooms: Report['comfort']['worstRooms'];
  roomLink: RoomLink;
}) {
  const { t } = useTranslation('reports');
  const format = useReportFormat();
  return (
    <Panel title={t('worst.title')} testid="report-worst-rooms">
      {rooms.length === 0 ? (
        <p className="text-sm text-stone-600">{t('worst.none')}</p>
      ) : (
        <ol className="flex flex-col divide-y divide-stone-100">
          {rooms.map((room) => (
            <li
              key={room.unitId}
              className="flex flex-wrap items-baseline justify-between gap-x-3 py-2 text-sm"
            >
              <RoomName unitId={room.unitId} name={room.name} roomLink={roomLink} />
              <span className="tabular-nums text-stone-800">
                {t('worst.value', { share: format.share(room.belowComfortShare) })}
              </span>
            </li>
          ))}
        </ol>
      )}
    </Panel>
  );
}

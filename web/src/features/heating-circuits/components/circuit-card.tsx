/**
 * One heating circuit as a caretaker reads it: what the heat generator should do now and why —
 * run or not (and the reason), the recommended supply temperature next to the heating curve's at
 * today's outdoor temperature, the demand, the rooms that need heat and the rooms that hold the
 * supply temperature up now and over the last 7 days (the first candidates for a bigger radiator
 * or hydraulic balancing) — what was last written to the generator (mode "An": value, taken or
 * failed, a change by hand) with the recent writes, and a chart of the last 48 hours or two weeks
 * with its table. Admins get "Bearbeiten" and "Löschen".
 */
import type { CircuitWrite, HeatingCircuit } from '@heizplan/contracts/heating-circuits';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ChartWithTable } from '../../../components/chart-with-table.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useClock } from '../../../lib/clock.tsx';
import { useHeatingFormat } from '../../../lib/format.ts';
import {
  type CircuitRange,
  RANGE_MS,
  useCircuitReadings,
  useCircuitWrites,
} from '../api/heating-circuits.ts';

/** After a change by hand nothing is written for this long (decision 0077), ms. */
const OVERRIDE_PAUSE_MS = 3_600_000;

const CircuitChart = lazy(() => import('./circuit-chart.tsx'));

export interface CircuitCardProps {
  circuit: HeatingCircuit;
  buildingName: string;
  /** The company's time zone (IANA): the chart's and the table's times. */
  timeZone: string;
  onEdit?: (() => void) | undefined;
  onDelete?: (() => void) | undefined;
}

export function CircuitCard({ circuit, buildingName, timeZone, onEdit, onDelete }: CircuitCardProps) {
  const { t, i18n } = useTranslation('circuits');
  const format = useHeatingFormat();
  const clock = useClock();
  const [range, setRange] = useState<CircuitRange>('48h');
  // The window ends at the current minute, so a minute's re-renders ask once.
  const until = Math.floor(clock().getTime() / 60_000) * 60_000;
  const readings = useCircuitReadings(circuit.id, range, until);
  const state = circuit.state;
  const headingId = `circuit-${circuit.id}-title`;
  const rows = readings.data?.readings ?? [];
  const latest = rows.at(-1);
  const chartLabel = t('chart.label', {
    name: circuit.name,
    range: t(`ranges.${range}`),
    recommended: format.celsius(latest?.supplySetpoint),
    curve: format.celsius(latest?.curveSupply),
  });

  return (
    <article
      aria-labelledby={headingId}
      className="flex min-w-0 flex-col gap-4 rounded-xl border border-stone-200 bg-white p-4 shadow-sm"
    >
      <header className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 id={headingId} className="text-lg font-semibold text-ink">
            {circuit.name}
          </h2>
          <p className="text-sm text-stone-700">
            {buildingName} · {t(`generators.${circuit.generatorType}`)} · {t(`modes.${circuit.mode}`)}
          </p>
        </div>
        {(onEdit || onDelete) && (
          <div className="flex gap-2">
            {onEdit && (
              <Button
                variant="secondary"
                onClick={onEdit}
                aria-label={t('actions.editNamed', { name: circuit.name })}
              >
                {t('actions.edit')}
              </Button>
            )}
            {onDelete && (
              <Button
                variant="secondary"
                onClick={onDelete}
                aria-label={t('actions.deleteNamed', { name: circuit.name })}
              >
                {t('actions.delete')}
              </Button>
            )}
          </div>
        )}
      </header>

      {state === null ? (
        <p className="text-sm text-stone-700">
          {circuit.mode === 'off' ? t('state.off') : t('state.waiting')}
        </p>
      ) : (
        <>
          <p className="text-base font-medium text-ink">
            {state.enabled
              ? t('state.run', { supply: format.celsius(state.supplySetpoint) })
              : t('state.stop')}{' '}
            <span className="font-normal text-stone-700">{t(`reasons.${state.reason}`)}</span>
          </p>
          <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2 lg:grid-cols-4">
            <div>
              <dt className="text-stone-600">{t('state.recommended')}</dt>
              <dd className="font-medium tabular-nums">{format.celsius(state.supplySetpoint)}</dd>
            </div>
            <div>
              <dt className="text-stone-600">{t('state.curve')}</dt>
              <dd className="font-medium tabular-nums">
                {state.outdoor === null
                  ? t('state.noOutdoor')
                  : t('state.curveAt', {
                      supply: format.celsius(state.curveSupply),
                      outdoor: format.celsius(state.outdoor),
                    })}
              </dd>
            </div>
            <div>
              <dt className="text-stone-600">{t('state.demand')}</dt>
              <dd className="font-medium tabular-nums">{format.percent(state.demandPercent)}</dd>
            </div>
            <div>
              <dt className="text-stone-600">{t('state.roomsNeedingHeat')}</dt>
              <dd className="font-medium tabular-nums">
                {t('state.roomsOf', { count: state.roomsNeedingHeat, total: circuit.unitIds.length })}
              </dd>
            </div>
          </dl>
          <div className="grid gap-4 text-sm sm:grid-cols-2">
            <section aria-labelledby={`${headingId}-now`}>
              <h3 id={`${headingId}-now`} className="font-medium text-ink">
                {t('holding.now')}
              </h3>
              {state.holdingUp.length === 0 ? (
                <p className="text-stone-700">{t('holding.none')}</p>
              ) : (
                <ul className="list-disc pl-5">
                  {state.holdingUp.map((room) => (
                    <li key={room.unitId}>
                      {t('holding.requests', { name: room.name, count: room.requests })}
                    </li>
                  ))}
                </ul>
              )}
            </section>
            <section aria-labelledby={`${headingId}-week`}>
              <h3 id={`${headingId}-week`} className="font-medium text-ink">
                {t('holding.week')}
              </h3>
              {circuit.holdingUpWeek.length === 0 ? (
                <p className="text-stone-700">{t('holding.noneWeek')}</p>
              ) : (
                <ol className="list-decimal pl-5">
                  {circuit.holdingUpWeek.map((room) => (
                    <li key={room.unitId}>
                      {t('holding.requests', { name: room.name, count: room.requests })}
                    </li>
                  ))}
                </ol>
              )}
              <p className="mt-1 text-xs text-stone-600">{t('holding.hint')}</p>
            </section>
          </div>
        </>
      )}

      {(circuit.output !== null || circuit.lastWrite !== null) && (
        <CircuitWrites circuit={circuit} timeZone={timeZone} headingId={`${headingId}-writes`} />
      )}

      <div className="flex flex-col gap-2">
        <fieldset className="flex gap-2">
          <legend className="sr-only">{t('ranges.label')}</legend>
          {(['48h', '14d'] as const).map((option) => (
            <Button
              key={option}
              variant={range === option ? 'primary' : 'secondary'}
              aria-pressed={range === option}
              onClick={() => setRange(option)}
            >
              {t(`ranges.${option}`)}
            </Button>
          ))}
        </fieldset>
        {readings.isPending ? (
          <div className="flex justify-center py-8">
            <Spinner loading />
          </div>
        ) : rows.length === 0 ? (
          <p className="text-sm text-stone-700">{t('chart.empty')}</p>
        ) : (
          <ChartWithTable
            label={chartLabel}
            caption={t('chart.caption', { name: circuit.name, range: t(`ranges.${range}`), zone: timeZone })}
            columns={[
              t('chart.time'),
              t('chart.outdoor'),
              t('chart.curve'),
              t('chart.recommended'),
              t('chart.demand'),
            ]}
            rows={rows.map((reading) => ({
              key: reading.at,
              cells: [
                format.dateTime(reading.at, timeZone),
                format.celsius(reading.outdoor),
                format.celsius(reading.curveSupply),
                reading.enabled ? format.celsius(reading.supplySetpoint) : t('chart.off'),
                format.percent(reading.demandPercent),
              ],
            }))}
          >
            <Suspense fallback={<Spinner loading />}>
              <CircuitChart
                readings={rows}
                language={i18n.language}
                timeZone={timeZone}
                from={until - RANGE_MS[range]}
                to={until}
              />
            </Suspense>
          </ChartWithTable>
        )}
      </div>
    </article>
  );
}

/** The last write to the heat generator, a change by hand it showed, and the recent writes. */
function CircuitWrites({
  circuit,
  timeZone,
  headingId,
}: {
  circuit: HeatingCircuit;
  timeZone: string;
  headingId: string;
}) {
  const { t } = useTranslation('circuits');
  const format = useHeatingFormat();
  const last = circuit.lastWrite;
  const writes = useCircuitWrites(circuit.id, last !== null);
  const value = (write: CircuitWrite) =>
    !write.enabled
      ? t('writes.off')
      : write.supplySetpoint === null
        ? t('writes.onNoSetpoint')
        : t('writes.on', { supply: format.celsius(write.supplySetpoint) });
  const result = (write: CircuitWrite) => (write.ok ? t('writes.ok') : t('writes.failed'));
  const time = (write: CircuitWrite) => format.dateTime(write.at, timeZone);
  const readBack = (write: CircuitWrite) =>
    [
      write.readBackEnabled === null
        ? null
        : write.readBackEnabled
          ? t('writes.readBackOn')
          : t('writes.readBackOff'),
      write.readBackSetpoint === null ? null : format.celsius(write.readBackSetpoint),
    ]
      .filter(Boolean)
      .join(', ');

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-1 text-sm">
      <h3 id={headingId} className="font-medium text-ink">
        {t('writes.title')}
      </h3>
      {last === null ? (
        <p className="text-stone-700">{t('writes.none')}</p>
      ) : (
        <>
          <p className={last.ok ? 'text-ink' : 'font-medium text-red-800'}>
            {t('writes.last', { time: time(last), value: value(last), result: result(last) })}
          </p>
          {last.override && (
            <p className="font-medium text-amber-900">
              {t('writes.override', {
                readBack: readBack(last),
                until: format.dateTime(
                  new Date(Date.parse(last.at) + OVERRIDE_PAUSE_MS).toISOString(),
                  timeZone,
                ),
              })}
            </p>
          )}
          {(writes.data?.writes.length ?? 0) > 1 && (
            <section aria-labelledby={`${headingId}-recent`}>
              <h4 id={`${headingId}-recent`} className="text-stone-700">
                {t('writes.recent')}
              </h4>
              <ul className="list-disc pl-5 tabular-nums">
                {writes.data?.writes.map((write) => (
                  <li key={write.at}>
                    {t(write.override ? 'writes.rowOverride' : 'writes.row', {
                      time: time(write),
                      value: value(write),
                      result: result(write),
                    })}
                  </li>
                ))}
              </ul>
            </section>
          )}
        </>
      )}
    </section>
  );
}

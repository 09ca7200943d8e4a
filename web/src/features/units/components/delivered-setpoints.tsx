/**
 * "Valve gets 24,0 °C (device sets whole degrees only)" under a setpoint: what the valves really
 * get where their model cannot take the value (it accepts whole degrees, say, or nothing above
 * 35 °C). Nothing when every valve gets the setpoint as it is.
 */
import type { DeliveredSetpoint } from '@heizplan/contracts/heating';
import { useTranslation } from 'react-i18next';
import { useHeatingFormat } from '../../../lib/format.ts';
import { usePendingSetpoint } from '../pending-setpoints.ts';

function useReason() {
  const { t } = useTranslation('units');
  const format = useHeatingFormat();
  return ({ reason, step, min, max, devices }: DeliveredSetpoint) => {
    if (reason === 'range') {
      return t('delivered.range', { min: format.plain(min ?? 0), max: format.plain(max ?? 0) });
    }
    if (step === 1) return t('delivered.wholeDegrees', { count: devices });
    if (step === 0.5) return t('delivered.halfDegrees', { count: devices });
    return t('delivered.steps', { count: devices, step: format.plain(step ?? 0) });
  };
}

/**
 * One line per value the valves get. `unitId`: on the units table, hidden while a setpoint
 * pressed to there is not yet confirmed (the lines describe the previous one).
 */
export function DeliveredSetpoints({
  delivered,
  unitId,
  testid,
}: {
  delivered: DeliveredSetpoint[];
  unitId?: string;
  testid: string;
}) {
  const { t } = useTranslation('units');
  const format = useHeatingFormat();
  const reasonOf = useReason();
  const pressed = usePendingSetpoint(unitId ?? '');
  if (delivered.length === 0 || pressed !== null) return null;
  return (
    // Wraps inside the table's one-line cells instead of widening the table.
    <span
      className="block basis-full whitespace-normal text-xs font-normal text-stone-600"
      data-testid={testid}
    >
      {delivered.map((item) => (
        <span key={`${item.setpoint}-${item.reason}`} className="block">
          {`${t('delivered.value', { count: item.devices, value: format.celsius(item.setpoint) })} (${reasonOf(item)})`}
        </span>
      ))}
    </span>
  );
}

/**
 * "Pending on 3 devices" under a unit's setpoint: devices whose latest setpoint has not
 * been acknowledged yet, and those where it failed. Battery valves take a command only after their
 * next uplink, so the tooltip explains the wait.
 */
import type { Unit } from '@heizplan/contracts/heating';
import { useTranslation } from 'react-i18next';
import { Tooltip } from '../../../components/ui/tooltip.tsx';

export function PendingDownlinks({ unit }: { unit: Unit }) {
  const { t } = useTranslation('units');
  const { pending, failed } = unit.downlinks;
  if (pending === 0 && failed === 0) return null;
  return (
    <Tooltip content={t('downlinks.hint')} width={260} testid={`unit-downlinks-${unit.id}-tooltip`}>
      {/* Wraps inside the table's one-line cells: "Ausstehend auf 1 Gerät" must not widen the table. */}
      <button
        type="button"
        className="block whitespace-normal text-left text-xs"
        data-testid={`unit-downlinks-${unit.id}`}
      >
        {pending > 0 && (
          <span className="block text-amber-800">{t('downlinks.pending', { count: pending })}</span>
        )}
        {failed > 0 && <span className="block text-red-700">{t('downlinks.failed', { count: failed })}</span>}
      </button>
    </Tooltip>
  );
}

/**
 * Controls of one units-table row (spec §2): − and + change the setpoint by 0.5 °C within the
 * company range (a button is disabled at the limit), and pause/resume. A paused unit holds its
 * frost protection setpoint, so − and + are disabled until it is resumed. Failures show a toast
 * with the server's explanation.
 */
import type { Unit } from '@heizplan/contracts/heating';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { useToast } from '../../../components/ui/toast-provider.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { type UnitControl, useControlUnit } from '../api/unit-controls.ts';
import { steppedSetpoint } from '../setpoint.ts';

export interface TemperatureRange {
  min: number;
  max: number;
}

export function UnitControls({ unit, range }: { unit: Unit; range: TemperatureRange | undefined }) {
  const { t } = useTranslation('units');
  const { toast } = useToast();
  const control = useControlUnit();
  const lower = range ? steppedSetpoint(unit.setpoint, -1, range) : null;
  const raise = range ? steppedSetpoint(unit.setpoint, 1, range) : null;
  const busy = control.isPending;

  const run = (input: UnitControl) =>
    control.mutate(input, {
      onError: (error) =>
        toast({
          type: 'error',
          title: t('controls.error'),
          description: error instanceof ApiError ? error.detail : undefined,
        }),
    });

  return (
    <div className="flex items-center gap-1" data-testid={`unit-controls-${unit.id}`}>
      <Button
        variant="secondary"
        size="sm"
        className="w-8 px-0"
        aria-label={t('controls.lower', { name: unit.name })}
        disabled={unit.paused || lower === null || busy}
        onClick={() => lower !== null && run({ unitId: unit.id, action: 'setpoint', setpoint: lower })}
        testid={`unit-lower-${unit.id}`}
      >
        −
      </Button>
      <Button
        variant="secondary"
        size="sm"
        className="w-8 px-0"
        aria-label={t('controls.raise', { name: unit.name })}
        disabled={unit.paused || raise === null || busy}
        onClick={() => raise !== null && run({ unitId: unit.id, action: 'setpoint', setpoint: raise })}
        testid={`unit-raise-${unit.id}`}
      >
        +
      </Button>
      <Button
        variant="ghost"
        size="sm"
        disabled={busy}
        aria-label={t(unit.paused ? 'controls.resumeUnit' : 'controls.pauseUnit', { name: unit.name })}
        onClick={() => run({ unitId: unit.id, action: unit.paused ? 'resume' : 'pause' })}
        testid={`unit-${unit.paused ? 'resume' : 'pause'}-${unit.id}`}
      >
        {t(unit.paused ? 'controls.resume' : 'controls.pause')}
      </Button>
    </div>
  );
}

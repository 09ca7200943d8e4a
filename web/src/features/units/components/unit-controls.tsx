/**
 * Controls of one units-table row (spec §2): − and + change the setpoint by 0.5 °C within the
 * company range (a button is disabled at the limit), and pause/resume. A paused unit holds its
 * frost protection setpoint, so − and + are disabled until it is resumed. Presses step from the
 * value last pressed to, which the row shows at once, and one absolute setpoint is sent once they
 * pause (lib/use-pending-target.ts). Failures show a toast in the user's language.
 */
import type { Unit } from '@heizplan/contracts/heating';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { Icon } from '../../../components/ui/icon.tsx';
import { useToast } from '../../../components/ui/toast-provider.tsx';
import { useHeatingFormat } from '../../../lib/format.ts';
import { announce } from '../../../lib/page-title.tsx';
import { useProblemMessage } from '../../../lib/problem-message.ts';
import { usePendingTarget } from '../../../lib/use-pending-target.ts';
import { controlUnit, type UnitControl, useControlUnit, useUnitAnswered } from '../api/unit-controls.ts';
import { publishPendingSetpoint } from '../pending-setpoints.ts';
import { steppedSetpoint } from '../setpoint.ts';

export interface TemperatureRange {
  min: number;
  max: number;
}

export function UnitControls({ unit, range }: { unit: Unit; range: TemperatureRange | undefined }) {
  const { t } = useTranslation('units');
  const { toast } = useToast();
  const problems = useProblemMessage();
  const control = useControlUnit();
  const answered = useUnitAnswered();
  const failed = (error: unknown) =>
    toast({
      type: 'error',
      title: t('controls.error'),
      description: problems.reason(error),
    });
  const pending = usePendingTarget({
    send: (setpoint) => controlUnit({ unitId: unit.id, action: 'setpoint', setpoint }),
    onResult: answered,
    onError: failed,
  });
  useEffect(() => publishPendingSetpoint(unit.id, pending.target), [unit.id, pending.target]);
  const format = useHeatingFormat();
  // The row's new value is only seen: say it, and that it is on its way (WCAG 4.1.3).
  // biome-ignore lint/correctness/useExhaustiveDependencies: said when the pressed value changes
  useEffect(() => {
    if (pending.target !== null) {
      announce(t('controls.announceSetpoint', { name: unit.name, setpoint: format.celsius(pending.target) }));
    }
  }, [pending.target]);
  useEffect(() => () => publishPendingSetpoint(unit.id, null), [unit.id]);
  const shown = pending.target ?? unit.setpoint;
  const lower = range ? steppedSetpoint(shown, -1, range) : null;
  const raise = range ? steppedSetpoint(shown, 1, range) : null;
  const busy = control.isPending;
  // Paused or held by a closure (decision 0051): a manual change could not take effect.
  const held = unit.paused || unit.setpointSource === 'closure';

  const run = (input: UnitControl) =>
    control.mutate(input, {
      onError: failed,
      onSuccess: () =>
        announce(
          t(input.action === 'pause' ? 'controls.announcePaused' : 'controls.announceResumed', {
            name: unit.name,
          }),
        ),
    });

  return (
    // The row lays the buttons out (two by two on a phone) together with the graph button.
    <div className="contents" data-testid={`unit-controls-${unit.id}`}>
      <Button
        variant="secondary"
        size="sm"
        className="w-8 px-0"
        aria-label={t('controls.lower', { name: unit.name })}
        disabled={held || lower === null || busy}
        onClick={() => lower !== null && pending.set(lower)}
        testid={`unit-lower-${unit.id}`}
      >
        −
      </Button>
      <Button
        variant="secondary"
        size="sm"
        className="w-8 px-0"
        aria-label={t('controls.raise', { name: unit.name })}
        disabled={held || raise === null || busy}
        onClick={() => raise !== null && pending.set(raise)}
        testid={`unit-raise-${unit.id}`}
      >
        +
      </Button>
      {/* An icon with its word as tooltip keeps the row narrow enough for 1280 px. */}
      <Button
        variant="ghost"
        size="sm"
        className="w-8 px-0"
        disabled={busy}
        aria-label={t(unit.paused ? 'controls.resumeUnit' : 'controls.pauseUnit', { name: unit.name })}
        title={t(unit.paused ? 'controls.resume' : 'controls.pause')}
        onClick={() => run({ unitId: unit.id, action: unit.paused ? 'resume' : 'pause' })}
        testid={`unit-${unit.paused ? 'resume' : 'pause'}-${unit.id}`}
      >
        <Icon name={unit.paused ? 'play' : 'pause'} />
      </Button>
    </div>
  );
}

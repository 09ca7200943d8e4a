/**
 * "No plan" next to a setpoint whose source is `no_plan`: the room is at frost
 * protection because no plan covers today, which the bare 8 °C did not say.
 */
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

export function NoPlanBadge({ unitId }: { unitId: string }) {
  const { t } = useTranslation('units');
  const hintId = useId();
  return (
    <span
      data-testid={`unit-no-plan-${unitId}`}
      aria-describedby={hintId}
      title={t('noPlanHint')}
      className="rounded bg-stone-100 px-1.5 py-0.5 text-xs text-stone-700"
    >
      {t('noPlan')}
      <span id={hintId} hidden>
        {t('noPlanHint')}
      </span>
    </span>
  );
}

/**
 * Room temperature cell (spec §2, §9): the measured value, with a warning icon and a tooltip
 * when it is more than 2 °C away from the setpoint.
 */
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { Icon } from '../../../components/ui/icon.tsx';
import { Tooltip } from '../../../components/ui/tooltip.tsx';
import { useHeatingFormat } from '../../../lib/format.ts';
import { DEVIATION_WARNING_C, deviates } from '../setpoint.ts';

export function RoomTemperature({
  unitId,
  setpoint,
  room,
}: {
  unitId: string;
  setpoint: number | null;
  room: number | null;
}) {
  const { t } = useTranslation('units');
  const format = useHeatingFormat();
  return (
    <span className="inline-flex items-center gap-1.5">
      {format.celsius(room)}
      {deviates(setpoint, room) && (
        <Tooltip
          content={t('deviation', { limit: DEVIATION_WARNING_C })}
          width={200}
          testid={`deviation-tooltip-${unitId}`}
        >
          <Button
            variant="ghost"
            size="sm"
            className="h-6 w-6 px-0"
            aria-label={t('deviationLabel')}
            testid={`deviation-warning-${unitId}`}
          >
            {/* The icon, not the button, carries the warning colour: the button keeps the kit's look. */}
            <span className="text-amber-600">
              <Icon name="warning" />
            </span>
          </Button>
        </Tooltip>
      )}
    </span>
  );
}

/**
 * Room temperature (spec §2, §9): the measured value, with a warning icon and a tooltip when it
 * has stayed more than 2 °C away from the setpoint for longer than the alert rule allows a room
 * to heat up or cool down after a switch point (setpoint.ts). Until then a quiet hint says the
 * room is still adjusting, so a cold room at 06:05 does not look like a fault.
 */
import type { Unit } from '@heizplan/contracts/heating';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { Icon } from '../../../components/ui/icon.tsx';
import { Tooltip } from '../../../components/ui/tooltip.tsx';
import { useClock } from '../../../lib/clock.tsx';
import { formatMoment, useHeatingFormat } from '../../../lib/format.ts';
import { DEVIATION_WARNING_C, deviationState } from '../setpoint.ts';

export interface RoomTemperatureProps {
  unit: Pick<Unit, 'id' | 'setpoint' | 'roomTemperature' | 'setpointSince' | 'paused'>;
  /** The company's `farFromSetpointMinutes`: how long after a switch point a deviation is no fault. */
  settleMinutes: number;
  /** The company's time zone, for the time of the switch point. */
  timeZone?: string;
  /** Prefix of the test ids; a second copy on the same screen needs its own. */
  testid?: string;
}

export function RoomTemperature({
  unit,
  settleMinutes,
  timeZone,
  testid = 'deviation',
}: RoomTemperatureProps) {
  const { t, i18n } = useTranslation('units');
  const format = useHeatingFormat();
  const clock = useClock();
  const now = clock().getTime();
  const room = unit.roomTemperature;
  const state = deviationState(
    { setpoint: unit.setpoint, room, setpointSince: unit.setpointSince, paused: unit.paused },
    settleMinutes,
    now,
  );
  const since = unit.setpointSince ? formatMoment(unit.setpointSince, now, i18n.language, timeZone) : null;
  const limit = new Intl.NumberFormat(i18n.language).format(DEVIATION_WARNING_C);
  const warming = unit.setpoint !== null && room !== null && room < unit.setpoint;
  return (
    <span className="inline-flex items-center gap-1.5">
      {format.celsius(room)}
      {state === 'warning' && (
        <Tooltip
          content={[
            t('deviation', { limit }),
            since ? t('deviationLasting', { since, minutes: settleMinutes }) : '',
          ].join(' ')}
          width={260}
          testid={`${testid}-tooltip-${unit.id}`}
        >
          <Button
            variant="ghost"
            size="sm"
            className="h-6 w-6 px-0"
            aria-label={t('deviationLabel')}
            testid={`${testid}-warning-${unit.id}`}
          >
            {/* The icon, not the button, carries the warning colour: the button keeps the kit's look. */}
            <span className="text-amber-600">
              <Icon name="warning" />
            </span>
          </Button>
        </Tooltip>
      )}
      {state === 'settling' && (
        <Tooltip
          content={t(warming ? 'settling.warming' : 'settling.cooling', {
            since,
            minutes: settleMinutes,
            limit,
          })}
          width={260}
          testid={`${testid}-tooltip-${unit.id}`}
        >
          <Button
            variant="ghost"
            size="sm"
            className="h-6 w-6 px-0"
            aria-label={t(warming ? 'settling.warmingLabel' : 'settling.coolingLabel')}
            testid={`${testid}-settling-${unit.id}`}
          >
            <span className="text-stone-500">
              <Icon name="info" />
            </span>
          </Button>
        </Tooltip>
      )}
    </span>
  );
}

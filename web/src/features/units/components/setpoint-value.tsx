/** A unit's setpoint in the table: the value pressed to while it is unconfirmed, else the server's. */
import type { Unit } from '@heizplan/contracts/heating';
import { useHeatingFormat } from '../../../lib/format.ts';
import { usePendingSetpoint } from '../pending-setpoints.ts';

export function SetpointValue({ unit }: { unit: Unit }) {
  const format = useHeatingFormat();
  const pending = usePendingSetpoint(unit.id);
  return <>{format.celsius(pending ?? unit.setpoint)}</>;
}

/**
 * The units table's controls: `POST …/units/{unitId}/setpoint` (manual change, logged
 * `web_change`, held until the next switch point), `…/pause` (frost protection setpoint,
 * logged `paused`) and `…/resume` (logged `resumed`). Each answers the updated unit.
 */
import type { Unit } from '@heizplan/contracts/heating';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { api, companyPath } from '../../../lib/api-client.ts';
import { heatingKeys } from '../../../lib/heating/query-keys.ts';

export type UnitControl =
  | { unitId: string; action: 'setpoint'; setpoint: number }
  | { unitId: string; action: 'pause' | 'resume' };

export const controlUnit = (control: UnitControl) =>
  api.post<Unit>(companyPath(`/units/${control.unitId}/${control.action}`), {
    body: control.action === 'setpoint' ? { setpoint: control.setpoint } : undefined,
  });

/** Takes a unit the server answered with into the cache and refreshes the lists and its log. */
export function useUnitAnswered() {
  const queryClient = useQueryClient();
  return useCallback(
    (unit: Unit) => {
      queryClient.setQueryData(heatingKeys.unit(unit.id), unit);
      void queryClient.invalidateQueries({ queryKey: heatingKeys.units });
      void queryClient.invalidateQueries({ queryKey: heatingKeys.log(unit.id) });
    },
    [queryClient],
  );
}

export function useControlUnit() {
  const answered = useUnitAnswered();
  return useMutation({ mutationFn: controlUnit, onSuccess: answered });
}

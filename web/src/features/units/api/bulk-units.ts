/**
 * The rooms list's bulk edit: `POST /api/companies/{id}/units/bulk-update` (wall control limits
 * in °C and/or group), `…/units/bulk-delete` and `…/units/bulk-qr-code` (enable or disable), each
 * all or nothing on the server. Every success refetches the units (and what counts them: groups,
 * buildings, QR allowance).
 */
import type { UnitBulkChanges, UnitBulkResult } from '@heizplan/contracts/heating';
import type { UnitQrBulkResult } from '@heizplan/contracts/qr-codes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, companyPath } from '../../../lib/api-client.ts';
import { heatingKeys } from '../../../lib/heating/query-keys.ts';
import { qrKeys } from '../../../lib/qr-codes.ts';

export type BulkUnitAction =
  | { kind: 'update'; unitIds: string[]; changes: UnitBulkChanges }
  | { kind: 'delete'; unitIds: string[] }
  | { kind: 'qrCode'; unitIds: string[]; enabled: boolean };

/** Runs one bulk action; @returns how many units it covered. */
export async function runBulkUnitAction(action: BulkUnitAction): Promise<number> {
  switch (action.kind) {
    case 'update': {
      const body = { unitIds: action.unitIds, changes: action.changes };
      return (await api.post<UnitBulkResult>(companyPath('/units/bulk-update'), { body })).count;
    }
    case 'delete': {
      const body = { unitIds: action.unitIds };
      return (await api.post<UnitBulkResult>(companyPath('/units/bulk-delete'), { body })).count;
    }
    case 'qrCode': {
      const body = { unitIds: action.unitIds, enabled: action.enabled };
      return (await api.post<UnitQrBulkResult>(companyPath('/units/bulk-qr-code'), { body })).count;
    }
  }
}

export function useBulkUnitAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: runBulkUnitAction,
    onSuccess: (_, action) => {
      void queryClient.invalidateQueries({ queryKey: heatingKeys.units });
      void queryClient.invalidateQueries({ queryKey: heatingKeys.groups });
      // A building counts its units; a group move or new limits may change previews.
      void queryClient.invalidateQueries({ queryKey: heatingKeys.buildings });
      void queryClient.invalidateQueries({ queryKey: heatingKeys.preview });
      if (action.kind !== 'update') void queryClient.invalidateQueries({ queryKey: qrKeys.all });
    },
  });
}

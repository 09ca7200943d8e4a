/**
 * QR code calls: a unit's code with the company's remaining allowance
 * (`GET|POST|DELETE …/units/{unitId}/qr-code`, `POST …/regenerate`) and every enabled code for
 * the print sheet (`GET …/qr-codes`). Changing one code changes the remaining count everywhere,
 * so mutations invalidate every QR query.
 */
import type { UnitQrState } from '@heizplan/contracts/qr-codes';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, companyPath } from '../../../lib/api-client.ts';
import { qrKeys } from '../../../lib/qr-codes.ts';

export { useQrCodes } from '../../../lib/qr-codes.ts';

const unitPath = (unitId: string) => companyPath(`/units/${unitId}/qr-code`);

export function useUnitQrCode(unitId: string) {
  return useQuery({
    queryKey: qrKeys.unit(unitId),
    queryFn: (): Promise<UnitQrState> => api.get<UnitQrState>(unitPath(unitId)),
  });
}

export type QrAction = 'enable' | 'regenerate' | 'disable';

const request: Record<QrAction, (unitId: string) => Promise<UnitQrState>> = {
  enable: (unitId) => api.post<UnitQrState>(unitPath(unitId)),
  regenerate: (unitId) => api.post<UnitQrState>(`${unitPath(unitId)}/regenerate`),
  disable: (unitId) => api.delete<UnitQrState>(unitPath(unitId)),
};

/** Enables, regenerates or disables a unit's code; the answer becomes the unit's cached state. */
export function useQrAction(unitId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (action: QrAction) => request[action](unitId),
    onSuccess: (state) => {
      queryClient.setQueryData(qrKeys.unit(unitId), state);
      void queryClient.invalidateQueries({ queryKey: qrKeys.all });
    },
  });
}

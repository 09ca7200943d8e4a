/**
 * The company's QR codes as several features read them: the keys every QR query lives under
 * (changing one code changes the remaining allowance everywhere, so a change invalidates them
 * all) and the list of enabled codes with the allowance (`GET …/qr-codes`), which the print
 * sheet and the rooms list's bulk QR dialog show.
 */
import type { QrCodeList } from '@heizplan/contracts/qr-codes';
import { useQuery } from '@tanstack/react-query';
import { api, companyPath } from './api-client.ts';

export const qrKeys = {
  all: ['qr-codes'] as const,
  unit: (unitId: string) => ['qr-codes', 'unit', unitId] as const,
  list: ['qr-codes', 'list'] as const,
};

export function useQrCodes() {
  return useQuery({
    queryKey: qrKeys.list,
    queryFn: (): Promise<QrCodeList> => api.get<QrCodeList>(companyPath('/qr-codes')),
  });
}

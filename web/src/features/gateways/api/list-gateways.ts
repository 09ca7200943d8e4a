/** `GET /api/companies/{id}/gateways?page&size&q&sort&order`: one page of gateways with their online state. */
import type { Gateway, GatewayPage } from '@heizplan/contracts/devices';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { TablePage } from '../../../components/ui/table.tsx';
import { api, companyPath } from '../../../lib/api-client.ts';
import { type GatewayListParams, gatewayKeys } from './query-keys.ts';

export type { GatewayListParams };

export const listGateways = (query: GatewayListParams): Promise<TablePage<Gateway>> =>
  api.get<GatewayPage>(companyPath('/gateways'), { query });

export function useGateways(query: GatewayListParams) {
  return useQuery({
    queryKey: gatewayKeys.list(query),
    queryFn: () => listGateways(query),
    placeholderData: keepPreviousData,
  });
}

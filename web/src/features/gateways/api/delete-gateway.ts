/** `DELETE /api/companies/{id}/gateways/{gatewayId}`. */
import { api, companyPath } from '../../../lib/api-client.ts';
import { useGatewayMutation } from './use-gateway-mutation.ts';

export const deleteGateway = (gatewayId: string) =>
  api.delete<undefined>(companyPath(`/gateways/${encodeURIComponent(gatewayId)}`));

export const useDeleteGateway = () => useGatewayMutation(deleteGateway);

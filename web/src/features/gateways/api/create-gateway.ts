/**
 * `POST /api/companies/{id}/gateways`: registers a gateway by its EUI (16 hex). 400 carries
 * per-field `errors`; 409 when the EUI is registered already.
 */
import type { Gateway, GatewayCreate } from '@heizplan/contracts/devices';
import { api, companyPath } from '../../../lib/api-client.ts';
import { useGatewayMutation } from './use-gateway-mutation.ts';

export const createGateway = (gateway: GatewayCreate) =>
  api.post<Gateway>(companyPath('/gateways'), { body: gateway });

export const useCreateGateway = () => useGatewayMutation(createGateway);

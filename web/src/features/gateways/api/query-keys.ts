/** TanStack Query keys of gateways; every gateway change invalidates `all`. */
import type { GatewayListQuerySchema } from '@heizplan/contracts/devices';
import type { z } from 'zod';

export type GatewayListParams = Partial<z.input<typeof GatewayListQuerySchema>>;

export const gatewayKeys = {
  all: ['gateways'] as const,
  list: (query: GatewayListParams) => ['gateways', 'list', query] as const,
};

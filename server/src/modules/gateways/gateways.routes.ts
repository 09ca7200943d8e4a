/**
 * Gateway endpoints under `/api/companies/{companyId}/gateways`: list (paging,
 * sorting, search), register, read, rename / change stats interval, delete. Each answer carries
 * the online state derived from last seen.
 */
import {
  GatewayCreateSchema,
  GatewayListQuerySchema,
  GatewayPageSchema,
  GatewayParamsSchema,
  GatewaySchema,
  GatewayUpdateSchema,
} from '@heizplan/contracts/devices';
import type { FastifyInstance } from 'fastify';
import { companyResourceRoutes } from '../../http/company-resource-routes.ts';
import type { GatewaysService } from './gateways.service.ts';

export async function gatewaysRoutes(fastify: FastifyInstance, { gateways }: { gateways: GatewaysService }) {
  companyResourceRoutes(fastify, {
    resource: 'gateways',
    idParam: 'gatewayId',
    schemas: {
      params: GatewayParamsSchema,
      listQuery: GatewayListQuerySchema,
      page: GatewayPageSchema,
      item: GatewaySchema,
      create: GatewayCreateSchema,
      update: GatewayUpdateSchema,
    },
    summaries: {
      list: 'List gateways with their online state (paged, sortable, searchable)',
      create: 'Register a gateway by its EUI',
      get: 'Read a gateway',
      update: 'Rename a gateway or change its stats interval',
      remove: 'Delete a gateway',
    },
    service: gateways,
  });
}

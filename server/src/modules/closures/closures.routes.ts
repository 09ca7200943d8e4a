/**
 * Closure endpoints under `/api/companies/{companyId}/closures` (decision 0051): list (paging,
 * past ones on request, by unit or building, calendar range — recurring closures by their occurrences),
 * create, read, update and delete.
 */
import {
  ClosureInputSchema,
  ClosureListQuerySchema,
  ClosurePageSchema,
  ClosureParamsSchema,
  ClosureSchema,
  ClosureUpdateSchema,
} from '@heizplan/contracts/closures';
import type { FastifyInstance } from 'fastify';
import { companyResourceRoutes } from '../../http/company-resource-routes.ts';
import type { ClosuresService } from './closures.service.ts';

export async function closuresRoutes(
  fastify: FastifyInstance,
  { closures: service }: { closures: ClosuresService },
) {
  companyResourceRoutes(fastify, {
    resource: 'closures',
    idParam: 'closureId',
    schemas: {
      params: ClosureParamsSchema,
      listQuery: ClosureListQuerySchema,
      page: ClosurePageSchema,
      item: ClosureSchema,
      create: ClosureInputSchema,
      update: ClosureUpdateSchema,
    },
    summaries: {
      list: 'List closures (upcoming and running, by their occurrences; `includePast`, `unitId`, `buildingId`, `from`/`to` for a calendar range)',
      create:
        'Create a closure (company, buildings or floors, groups or units, with exceptions; once or recurring by an RRULE)',
      get: 'Read a closure',
      update: 'Update a closure (only the fields given change)',
      remove: 'Delete a closure (a running one stops at once)',
    },
    service,
  });
}

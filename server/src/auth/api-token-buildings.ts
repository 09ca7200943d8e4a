/**
 * API tokens limited to buildings (decision 0058): such a token reaches only what lies in its
 * buildings — the company's own record, a unit of its buildings (and everything under it), one
 * of its buildings (and everything under it), and the lists, exports and reports filtered by
 * `buildingId` to one of them. Every other endpoint covers the whole company and answers 403
 * `api_token_buildings`. The role matrix applies on top, as for every token.
 */
import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/client.ts';
import { forbidden } from '../http/errors.ts';
import { unitBuilding } from './auth.repository.ts';

const COMPANY = '/api/companies/:companyId';
/** Lists, exports and reports whose `buildingId` filter keeps them inside one building. */
const FILTERED = new Set(
  ['/units', '/units/export', '/devices', '/devices/export', '/reports', '/reports/export'].map(
    (path) => `GET ${COMPANY}${path}`,
  ),
);

const refused = (detail: string) => forbidden(detail, { code: 'api_token_buildings' });

/**
 * @throws 403 `api_token_buildings` unless the request stays inside `buildingIds` (see above);
 * a unit's building is read from the database.
 */
export async function requireTokenBuildings(
  db: Db,
  request: FastifyRequest,
  companyId: string,
  buildingIds: readonly string[],
): Promise<void> {
  const url = request.routeOptions.url ?? '';
  const params = (request.params ?? {}) as Record<string, string | undefined>;
  const query = (request.query ?? {}) as Record<string, string | undefined>;
  if (request.method === 'GET' && url === '/api/companies/:id/') return;
  if (url.startsWith(`${COMPANY}/buildings/:buildingId`)) {
    if (params.buildingId && buildingIds.includes(params.buildingId)) return;
    throw refused('This API token is limited to other buildings.');
  }
  if (url.startsWith(`${COMPANY}/units/:unitId`)) {
    const unit = await unitBuilding(db, companyId, params.unitId ?? '');
    // An unknown unit is left to the endpoint's own 404.
    if (!unit || (unit.building_id !== null && buildingIds.includes(unit.building_id))) return;
    throw refused('This API token is limited to other buildings.');
  }
  if (FILTERED.has(`${request.method} ${url}`)) {
    if (query.buildingId && buildingIds.includes(query.buildingId)) return;
    throw refused('This API token is limited to buildings: give one of them as buildingId.');
  }
  throw refused('This API token is limited to buildings; this endpoint covers the whole company.');
}

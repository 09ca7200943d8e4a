/** `GET /api/companies/{id}/units/{unitId}`: one unit with setpoint, limits and plan state. */
import type { Unit } from '@heizplan/contracts/heating';
import { api, companyPath } from '../api-client.ts';

export const getUnit = (unitId: string): Promise<Unit> => api.get<Unit>(companyPath(`/units/${unitId}`));

/** Test data and fetch stubs for the heating screens' component tests. */
import type { Unit } from '@heizplan/contracts/heating';
import { type FetchHandler, json, testCompany } from './signed-in.ts';

let seq = 0;
/** A unit with a uuid-shaped id (the contract checks it) and the given fields. */
export const testUnit = (over: Partial<Unit> = {}): Unit => {
  seq += 1;
  return {
    id: `00000000-0000-4000-8000-${String(seq).padStart(12, '0')}`,
    name: `Raum ${seq}`,
    groupId: null,
    groupName: null,
    buildingId: null,
    buildingName: null,
    floor: null,
    setpoint: 21,
    setpointSource: 'regular_plan',
    setpointSince: '2026-11-22T05:00:00.000Z',
    ignoreWallControl: false,
    nextChangeAt: null,
    wallControlMin: null,
    wallControlMax: null,
    paused: false,
    pausedAt: null,
    manualChange: null,
    roomTemperature: 21,
    valveOpening: 40,
    supplyTemperature: null,
    hasOwnActivePlan: false,
    optimumStart: true,
    downlinks: { pending: 0, failed: 0, delivered: [] },
    createdAt: '2026-11-01T10:00:00.000Z',
    createdBy: { id: 'u1', name: 'Ada Lovelace' },
    ...over,
  };
};

/** A problem+json answer as the server sends it; `code` is what screens translate. */
export const problem = (status: number, title: string, detail?: string, errors?: unknown[], code?: string) =>
  json(status, {
    type: 'about:blank',
    title,
    status,
    ...(detail ? { detail } : {}),
    ...(code ? { code } : {}),
    ...(errors ? { errors } : {}),
  });

/** Answers the company, units list, groups list and (empty) buildings list calls; `more` answers first. */
export function heatingApi(units: Unit[], more?: FetchHandler, company = testCompany()): FetchHandler {
  return (method, url, init) => {
    const answer = more?.(method, url, init);
    if (answer) return answer;
    const path = url.split('?')[0];
    if (method === 'GET' && path === '/api/companies/c1/') return json(200, company);
    if (method === 'GET' && path === '/api/companies/c1/units') {
      return json(200, { results: units, count: units.length, page: 1, size: 10 });
    }
    if (method === 'GET' && path === '/api/companies/c1/groups') {
      return json(200, { results: [], count: 0, page: 1, size: 200 });
    }
    if (method === 'GET' && path === '/api/companies/c1/buildings') {
      return json(200, { results: [], count: 0, page: 1, size: 200 });
    }
    return undefined;
  };
}

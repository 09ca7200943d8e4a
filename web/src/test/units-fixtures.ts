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

/**
 * Answers the units list as the server searches it — `q` matched in the names ignoring case, one
 * page of `size` (50 by default) with the full `count` — and one unit by id, for the room pickers
 * that search the server (`UnitSearchCombobox`).
 */
export function unitSearchApi(units: Unit[]): FetchHandler {
  return (method, url) => {
    if (method !== 'GET') return undefined;
    const [path, search] = url.split('?') as [string, string | undefined];
    if (path === '/api/companies/c1/units') {
      const params = new URLSearchParams(search);
      const q = params.get('q')?.toLowerCase();
      const found = q ? units.filter((u) => u.name.toLowerCase().includes(q)) : units;
      const size = Number(params.get('size') ?? 50);
      return json(200, { results: found.slice(0, size), count: found.length, page: 1, size });
    }
    const one = units.find((u) => path === `/api/companies/c1/units/${u.id}`);
    return one ? json(200, one) : undefined;
  };
}

/** The `q` of every units list call so far (the room pickers' searches). */
export const unitSearches = (fetchMock: { mock: { calls: unknown[][] } }) =>
  fetchMock.mock.calls
    .map(([u]) => String(u))
    .filter((u) => u.startsWith('/api/companies/c1/units?'))
    .map((u) => new URLSearchParams(u.split('?')[1]).get('q'))
    .filter((q): q is string => q !== null);

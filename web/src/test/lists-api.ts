/**
 * A stub of every list the units, devices, alerts, closures and booking calendars screens call —
 * each answering one page of what the test gives (empty by default) — plus the company's
 * buildings, for tests of their building filters and of the navigation's building switcher.
 */

import { DEFAULT_ALERT_SETTINGS } from '@heizplan/contracts/alerts';
import type { Building } from '@heizplan/contracts/buildings';
import { buildingsApi } from './buildings-fixtures.ts';
import { type FetchHandler, json } from './signed-in.ts';

const LISTS = ['units', 'devices', 'alerts', 'groups', 'gateways', 'closures', 'booking-feeds'];

export function listsApi(buildings: Building[], rows: Partial<Record<string, unknown[]>> = {}): FetchHandler {
  const withBuildings = buildingsApi(buildings);
  return (method, url, init) => {
    const answer = withBuildings(method, url, init);
    if (answer || method !== 'GET') return answer;
    const path = url.split('?')[0] ?? '';
    if (path === '/api/companies/c1/alerts/summary')
      return json(200, { attention: 0, open: 0, units: {}, devices: {} });
    if (path === '/api/companies/c1/alert-settings') return json(200, DEFAULT_ALERT_SETTINGS);
    const list = LISTS.find((name) => path === `/api/companies/c1/${name}`);
    if (!list) return undefined;
    const results = rows[list] ?? [];
    return json(200, { results, count: results.length, page: 1, size: 10 });
  };
}

/** The query strings `fetch` was called with for `/api/companies/c1/<list>`, in order. */
export const listCalls = (fetchMock: { mock: { calls: unknown[][] } }, list: string) =>
  fetchMock.mock.calls
    .map(([u]) => String(u))
    .filter((u) => u.startsWith(`/api/companies/c1/${list}?`))
    .map((u) => new URLSearchParams(u.split('?')[1]));

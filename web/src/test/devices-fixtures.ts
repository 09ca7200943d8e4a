/** Test data and fetch stubs for the device, gateway and assign screens' component tests. */
import type { Device, Gateway } from '@heizplan/contracts/devices';
import type { Unit } from '@heizplan/contracts/heating';
import { type FetchHandler, json } from './signed-in.ts';
import { heatingApi, unitSearchApi } from './units-fixtures.ts';

let seq = 0;

export const testDevice = (over: Partial<Device> = {}): Device => {
  seq += 1;
  const id = `70b3d52dd3${String(seq).padStart(6, '0')}`;
  return {
    id,
    protocol: 'lorawan',
    devEui: id,
    joinEui: null,
    model: 'mclimate-vicki',
    appKeySet: true,
    appKeyLast4: 'beef',
    unitId: null,
    unitName: null,
    buildingId: null,
    buildingName: null,
    floor: null,
    createdAt: '2026-11-01T10:00:00.000Z',
    createdBy: { id: 'u1', name: 'Ada Lovelace' },
    lastSeen: null,
    battery: null,
    lastRssi: null,
    lastSnr: null,
    firmware: null,
    antiFreeze: null,
    antiFreezeSupport: 'firmware_unknown',
    downlink: null,
    config: {
      status: 'none',
      profileName: null,
      differs: [],
      reason: null,
      recalibrating: false,
      canRecalibrate: true,
    },
    airtime: {
      spreadingFactor: null,
      uplinkPerDayS: 0,
      downlinkTodayS: 0,
      budgetS: 864,
      keepAliveOverBudget: null,
    },
    batteryTrend: null,
    ...over,
  };
};

export const testGateway = (over: Partial<Gateway> = {}): Gateway => {
  seq += 1;
  return {
    id: `00000000-0000-4000-9000-${String(seq).padStart(12, '0')}`,
    gatewayEui: `b827ebfffe${String(seq).padStart(6, '0')}`,
    name: `Gateway ${seq}`,
    createdAt: '2026-11-01T10:00:00.000Z',
    lastSeen: null,
    statsIntervalS: 30,
    online: false,
    ...over,
  };
};

const page = <T>(results: T[]) => json(200, { results, count: results.length, page: 1, size: 10 });

/**
 * Answers device and gateway lists, the by-EUI lookup (404 'Device not found.' for unknown
 * DevEUIs) and — through the units fixture — company and units, searched by `q` as the server
 * does; `more` answers first.
 */
export function registryApi(
  { devices = [], gateways = [], units = [] }: { devices?: Device[]; gateways?: Gateway[]; units?: Unit[] },
  more?: FetchHandler,
): FetchHandler {
  const unitSearch = unitSearchApi(units);
  return heatingApi(units, (method, url, init) => {
    const answer = more?.(method, url, init) ?? unitSearch(method, url, init);
    if (answer) return answer;
    const path = url.split('?')[0] ?? '';
    if (method === 'GET' && path === '/api/companies/c1/devices') return page(devices);
    if (method === 'GET' && path === '/api/companies/c1/gateways') return page(gateways);
    const byEui = path.match(/^\/api\/companies\/c1\/devices\/by-eui\/(\w+)$/);
    if (method === 'GET' && byEui) {
      const device = devices.find((d) => d.id === byEui[1]);
      return device
        ? json(200, device)
        : json(404, { type: 'about:blank', title: 'Not Found', status: 404, detail: 'Device not found.' });
    }
    return undefined;
  });
}

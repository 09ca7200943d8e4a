/** Test data of buildings (decision 0052) for the buildings and units screens' component tests. */
import type { Building } from '@heizplan/contracts/buildings';
import { type FetchHandler, json } from './signed-in.ts';

/** The main building in Augsburg with three floors, holidays kept at frost protection. */
export const testBuilding = (over: Partial<Building> = {}): Building => ({
  id: '00000000-0000-4000-a000-000000000001',
  name: 'Hauptgebäude',
  street: 'Maximilianstraße 1',
  postcode: '86150',
  city: 'Augsburg',
  state: 'BY',
  region: 'A',
  floors: ['KG', 'EG', '1. OG'],
  publicHolidays: 'closure',
  holidayMode: 'frost',
  schoolHolidays: false,
  latitude: 48.3705,
  longitude: 10.8978,
  outdoorSensorId: null,
  outdoor: { temperature: -2.5, at: '2026-11-26T09:00:00.000Z', kind: 'observed', provider: 'brightsky' },
  occupantMaxTemperature: null,
  occupantBand: null,
  unitCount: 12,
  heatingStartTomorrow: null,
  createdAt: '2026-11-20T10:00:00.000Z',
  createdBy: { id: 'u1', name: 'Ada Lovelace' },
  ...over,
});

/** Answers the buildings list with `buildings`. */
export const buildingsApi =
  (buildings: Building[]): FetchHandler =>
  (method, url) =>
    method === 'GET' && url.split('?')[0] === '/api/companies/c1/buildings'
      ? json(200, { results: buildings, count: buildings.length, page: 1, size: 200 })
      : undefined;

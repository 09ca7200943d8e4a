/**
 * Test data of the reports screen: reports checked against the contract's `ReportSchema` (so a
 * fixture that drifts from the API fails at once) and a fake API answering the report calls.
 */
import { type Report, ReportSchema } from '@heizplan/contracts/reports';
import { type FetchHandler, json } from '../../test/signed-in.ts';

export const BUILDING_ID = '00000000-0000-4000-a000-0000000000b1';
export const UNIT_ID = '00000000-0000-4000-a000-0000000000c1';
export const OTHER_UNIT_ID = '00000000-0000-4000-a000-0000000000c2';

const figures = (over: Partial<Report['weather']['current']> = {}): Report['weather']['current'] => ({
  label: '2026-11',
  degreeDays: 412,
  heatingHours: 1234.5,
  heatingHoursPerDegreeDay: 3,
  meterKwh: 12345.6,
  kwhPerDegreeDay: 29.97,
  ...over,
});

/** The company's November 2026: one building, targets missed, losses and worst rooms. */
export function testReport(over: Partial<Report> = {}): Report {
  const report: Report = {
    period: { kind: 'month', key: '2026-11', from: '2026-11-01', to: '2026-11-30' },
    scope: { kind: 'company', id: 'c1', name: 'Stadtwerke' },
    rooms: 3,
    comfort: {
      occupiedHours: 600,
      belowComfortHours: 72,
      belowComfortShare: 0.12,
      categoryHours: { i: 300, ii: 150, iii: 78, below: 72 },
      worstRooms: [{ unitId: UNIT_ID, name: 'Aula', belowComfortShare: 0.4 }],
      feedback: { tooWarm: 1, tooCold: 4 },
    },
    heating: {
      heatingHours: 1234.5,
      setbackHours: 980,
      windowHeatingHours: 6.5,
      overrides: { web: { count: 4, hours: 7.5 }, qr: { count: 1, hours: 2 } },
    },
    weather: {
      outdoorMean: 4.2,
      current: figures(),
      previous: figures({ label: '2026-10', degreeDays: 250 }),
      previousYear: figures({ label: '2025-11', degreeDays: 400 }),
      changeToPrevious: -0.1,
      changeToPreviousYear: 0.05,
    },
    energy: {
      carriers: [{ carrier: 'gas', kwh: 12345.6 }],
      kwh: 12345.6,
      kwhPerDegreeDay: 29.97,
      kwhPerM2: 8.2,
      heatedAreaM2: 1500,
    },
    saving: { share: 0.18, referenceComfortC: 21 },
    losses: [
      { kind: 'window_open_heating', unitId: UNIT_ID, name: 'Aula', value: 6.5 },
      { kind: 'sparse_reports', unitId: OTHER_UNIT_ID, name: 'Werkraum', value: 0.35 },
      { kind: 'complaints_despite_comfort', unitId: OTHER_UNIT_ID, name: 'Werkraum', value: 4 },
    ],
    targets: {
      maxHeatingHoursPerDegreeDay: 2.5,
      maxBelowComfortShare: 0.1,
      missed: ['heating_hours_per_degree_day', 'below_comfort_share'],
    },
    days: [
      {
        day: '2026-11-01',
        roomMean: 20.5,
        setpointMean: 21,
        outdoorMean: 3,
        heatingHours: 40,
        degreeDays: 17,
      },
      {
        day: '2026-11-02',
        roomMean: 21,
        setpointMean: 21,
        outdoorMean: 5,
        heatingHours: 35,
        degreeDays: 15,
      },
    ],
    rows: [
      {
        kind: 'building',
        id: BUILDING_ID,
        name: 'Hauptgebäude',
        rooms: 3,
        roomMean: 21.5,
        occupiedHours: 600,
        belowComfortShare: 0.12,
        heatingHours: 1234.5,
        setbackHours: 980,
        windowHeatingHours: 6.5,
        degreeDays: 412,
        tooWarm: 1,
        tooCold: 4,
      },
    ],
    coverage: 0.95,
    ...over,
  };
  return ReportSchema.parse(report);
}

/** The building's report: its rooms as rows. */
export const buildingReport = () =>
  testReport({
    scope: { kind: 'building', id: BUILDING_ID, name: 'Hauptgebäude' },
    rows: [
      {
        kind: 'unit',
        id: UNIT_ID,
        name: 'Aula',
        rooms: 1,
        roomMean: 19.8,
        occupiedHours: 200,
        belowComfortShare: 0.4,
        heatingHours: 500,
        setbackHours: 300,
        windowHeatingHours: 6.5,
        degreeDays: 412,
        tooWarm: 1,
        tooCold: 0,
      },
    ],
  });

export const unitReport = () =>
  testReport({ scope: { kind: 'unit', id: UNIT_ID, name: 'Aula' }, rooms: 1, rows: [] });

/**
 * Answers the report calls: the report by scope (`reports` overrides per scope id, 'company'
 * for none), the subscription, exports, and the building's meters and targets.
 */
export function reportsApi(reports: Record<string, Report> = {}): FetchHandler {
  const byScope: Record<string, Report> = {
    company: testReport(),
    [BUILDING_ID]: buildingReport(),
    [UNIT_ID]: unitReport(),
    ...reports,
  };
  return (method, url, init) => {
    const [path, search = ''] = url.split('?');
    const query = new URLSearchParams(search);
    if (method === 'GET' && path === '/api/companies/c1/reports') {
      const scope = query.get('unitId') ?? query.get('groupId') ?? query.get('buildingId') ?? 'company';
      const report = byScope[scope];
      return report ? json(200, report) : undefined;
    }
    if (method === 'GET' && path === '/api/companies/c1/reports/export')
      return new Response('%PDF-1.7', { status: 200, headers: { 'content-type': 'application/pdf' } });
    if (path === '/api/companies/c1/reports/subscription')
      return method === 'PUT' ? json(200, JSON.parse(String(init.body))) : json(200, { subscribed: false });
    if (method === 'GET' && path === `/api/companies/c1/buildings/${BUILDING_ID}/report-data`)
      return json(200, {
        settings: { heatedAreaM2: 1500, maxHeatingHoursPerDegreeDay: 2.5, maxBelowComfortShare: 0.1 },
        readings: [{ month: '2026-10', carrier: 'gas', kwh: 9800 }],
      });
    if (method === 'PUT' && path === `/api/companies/c1/buildings/${BUILDING_ID}/report-settings`)
      return json(200, JSON.parse(String(init.body)));
    return undefined;
  };
}

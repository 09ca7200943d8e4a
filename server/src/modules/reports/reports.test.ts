/**
 * The reports API (decision 0061) on rollups of a simulated November: comfort, heating and
 * degree-day figures per company, building and room; efficiency losses; targets; consumption;
 * the month as German-Excel CSV, machine CSV, XLSX and PDF; the export API; the monthly mail.
 */

import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock, testInstant } from '../../../test/clock.ts';
import { buildTestApp, type TestApp } from '../../../test/helpers.ts';
import { pdfText } from '../../../test/pdf-text.ts';
import {
  buildingOutdoorTemperatures,
  buildingReportSettings,
  heatingLog,
  occupantFeedback,
  telemetry,
  users,
} from '../../db/schema.ts';
import { checkEfficiencyTargets, mailMonthlyReports } from '../../jobs/report-jobs.ts';
import { evaluateAll } from '../alerts/alert-evaluation.repository.ts';
import { seedCompanies } from '../units/heating-test-fixtures.ts';
import { complaintsDespiteComfort } from './report-build.ts';
import { renderReportPdf } from './report-pdf.ts';
import { runRollups } from './rollups.repository.ts';

const HOUR = 3_600_000;
// 2 to 29 November 2026 (Berlin), hour by hour.
const START = Date.parse('2026-11-01T23:00:00Z');
const END = Date.parse('2026-11-29T23:00:00Z');

// Which month a new subscription counts as sent, and when the next mail is due, follow this clock.
const clock = testClock(testInstant('2026-12-02T12:00:00+01:00'));

describe('reports', () => {
  let t: TestApp;
  let c: string;
  let companyId: string;
  let otherCompanyId: string;
  let building: { id: string };
  let warm: { id: string };
  let cold: { id: string };

  beforeAll(async () => {
    t = await buildTestApp({}, { clock: clock.now });
    ({ companyId, otherCompanyId } = await seedCompanies(t.database.db));
    c = `/api/companies/${companyId}`;
    building = (await t.call('POST', `${c}/buildings`, { name: 'Grundschule', state: 'BY' })).json();
    warm = (await t.call('POST', `${c}/units`, { name: 'Klasse 1a', buildingId: building.id })).json();
    cold = (await t.call('POST', `${c}/units`, { name: 'Klasse 1b', buildingId: building.id })).json();
    const db = t.database.db;
    // Comfort 21 °C 07:00–16:00 (Berlin, 06:00–15:00 UTC), 17 °C otherwise; outdoor 5 °C.
    const log: (typeof heatingLog.$inferInsert)[] = [];
    const rows: (typeof telemetry.$inferInsert)[] = [];
    const outdoor: (typeof buildingOutdoorTemperatures.$inferInsert)[] = [];
    let fCnt = 0;
    for (let at = START; at < END; at += HOUR) {
      const utcHour = new Date(at).getUTCHours();
      const comfort = utcHour >= 6 && utcHour < 15;
      if (utcHour === 6 || utcHour === 15 || at === START)
        for (const unit of [warm, cold])
          log.push({
            companyId,
            unitId: unit.id,
            kind: 'regular_plan',
            newSetpoint: comfort ? 21 : 17,
            at: new Date(at),
          });
      outdoor.push({
        companyId,
        buildingId: building.id,
        at: new Date(at),
        temperature: 5,
        kind: 'observed',
        provider: 'test',
      });
      for (let q = 0; q < 4; q++) {
        const time = new Date(at + q * 15 * 60_000 + 60_000);
        // 1a reaches comfort and heats with a window open 07:00–08:00 each day; 1b never gets warm.
        rows.push({
          devEui: '70b3d52dd3000a1a',
          time,
          fCnt: fCnt++,
          companyId,
          unitId: warm.id,
          fPort: 1,
          roomTemperature: comfort ? 21.2 : 17.5,
          valveOpening: comfort ? 40 : 0,
        });
        rows.push({
          devEui: '70b3d52dd3000a1b',
          time,
          fCnt: fCnt++,
          companyId,
          unitId: cold.id,
          fPort: 1,
          roomTemperature: comfort ? 18.2 : 16.5,
          valveOpening: 100,
        });
      }
    }
    for (let i = 0; i < rows.length; i += 2000) await db.insert(telemetry).values(rows.slice(i, i + 2000));
    // Creating the units logged the setpoint they start with, at the real now: inside the test's
    // month it would cut into a comfort period when the test runs by day.
    await db.delete(heatingLog).where(eq(heatingLog.companyId, companyId));
    await db.insert(heatingLog).values(log);
    await db.insert(buildingOutdoorTemperatures).values(outdoor);
    await runRollups(db, new Date(END + HOUR));
  }, 120_000);
  afterAll(() => t.close());

  const report = async (query: string, user = 'alice') => {
    const res = await t.call('GET', `${c}/reports?${query}`, undefined, user);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  it('reports comfort, heating and degree days of the company with its buildings below', async () => {
    const r = await report('month=2026-11');
    expect(r.period).toEqual({ kind: 'month', key: '2026-11', from: '2026-11-01', to: '2026-11-30' });
    expect(r.rooms).toBe(2);
    // 28 days × 9 comfort hours × 2 rooms; 1b's are all more than 0.5 K below 21 °C.
    expect(r.comfort.occupiedHours).toBeCloseTo(504, 0);
    expect(r.comfort.belowComfortShare).toBeCloseTo(0.5, 2);
    expect(r.comfort.categoryHours.i).toBeCloseTo(252, 0);
    expect(r.comfort.worstRooms[0]).toMatchObject({ name: 'Klasse 1b', belowComfortShare: 1 });
    // 28 days of 15 K below 15 °C: G20/15 = 28 × 15.
    expect(r.weather.current.degreeDays).toBeCloseTo(420, 0);
    expect(r.rows).toEqual([
      expect.objectContaining({ kind: 'building', id: building.id, name: 'Grundschule', rooms: 2 }),
    ]);
    expect(r.losses).toContainEqual(
      expect.objectContaining({ kind: 'always_below_target', name: 'Klasse 1b' }),
    );
    expect(r.saving.referenceComfortC).toBeCloseTo(21, 1);
    // 28 days; the 30th has only begun (values carried over from the 29th) and is not summed yet.
    expect(r.days).toHaveLength(28);
  });

  it('drills down to a building and a room; another company’s building is unknown', async () => {
    const b = await report(`month=2026-11&buildingId=${building.id}`);
    expect(b.scope).toEqual({ kind: 'building', id: building.id, name: 'Grundschule' });
    expect(b.rows.map((row: { name: string }) => row.name).sort()).toEqual(['Klasse 1a', 'Klasse 1b']);
    const room = await report(`month=2026-11&unitId=${warm.id}`);
    expect(room).toMatchObject({ rooms: 1, rows: [], scope: { kind: 'unit', name: 'Klasse 1a' } });
    expect(room.comfort.belowComfortShare).toBe(0);

    const other = (
      await t.call(
        'POST',
        `/api/companies/${otherCompanyId}/buildings`,
        { name: 'X', state: 'BE' },
        'mallory',
      )
    ).json();
    const res = await t.call('GET', `${c}/reports?month=2026-11&buildingId=${other.id}`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'unknown_building' });
    const both = await t.call('GET', `${c}/reports?month=2026-11&season=2026`);
    expect(both.statusCode).toBe(400);
  });

  it('shows consumption per degree day and area, and the targets a month missed', async () => {
    const put = (path: string, body: object) => t.call('PUT', `${c}/buildings/${building.id}/${path}`, body);
    expect((await put('meter-readings', { month: '2026-11', carrier: 'gas', kwh: 8400 })).statusCode).toBe(
      200,
    );
    const tooHigh = await put('report-settings', {
      heatedAreaM2: 600,
      maxHeatingHoursPerDegreeDay: 0.1,
      maxBelowComfortShare: 1.5,
    });
    expect(tooHigh.statusCode).toBe(400);
    expect(tooHigh.json().errors[0]).toMatchObject({
      field: 'body.maxBelowComfortShare',
      message: 'must be at most 100 %',
    });
    expect(
      (
        await put('report-settings', {
          heatedAreaM2: 600,
          maxHeatingHoursPerDegreeDay: 0.1,
          maxBelowComfortShare: 0.2,
        })
      ).statusCode,
    ).toBe(200);
    const r = await report(`month=2026-11&buildingId=${building.id}`);
    expect(r.energy).toMatchObject({ kwh: 8400, heatedAreaM2: 600, kwhPerM2: 14 });
    expect(r.energy.kwhPerDegreeDay).toBeCloseTo(20, 0);
    expect(r.targets.missed.sort()).toEqual(['below_comfort_share', 'heating_hours_per_degree_day']);
    const data = (await t.call('GET', `${c}/buildings/${building.id}/report-data`)).json();
    expect(data.readings).toEqual([{ month: '2026-11', carrier: 'gas', kwh: 8400 }]);
    expect(
      (await t.call('DELETE', `${c}/buildings/${building.id}/meter-readings/2026-11/gas`)).statusCode,
    ).toBe(204);
    const gone = await t.call('DELETE', `${c}/buildings/${building.id}/meter-readings/2026-11/gas`);
    expect(gone.json()).toMatchObject({ status: 404, code: 'unknown_meter_reading' });
  });

  it('imports meter readings from a German or a machine CSV, all rows or none', async () => {
    const readings = async () =>
      (await t.call('GET', `${c}/buildings/${building.id}/report-data`)).json().readings;
    const importCsv = (csv: string) =>
      t.call('POST', `${c}/buildings/${building.id}/meter-readings/import`, { csv });
    const wrong = await importCsv(
      '\uFEFFMonat;Energieträger;Verbrauch (kWh)\n10.2026;Fernwärme;12.400,5\n13.2026;Kohle;x\n',
    );
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors.map((e: { field: string }) => e.field)).toEqual([
      'csv.row.3.month',
      'csv.row.3.carrier',
      'csv.row.3.kwh',
    ]);
    expect(await readings()).toEqual([]);
    const german = await importCsv('Monat;Energieträger;Verbrauch (kWh)\r\n10.2026;Fernwärme;12.400,5\r\n');
    expect(german.json()).toEqual({ imported: 1 });
    const machine = await importCsv('month,carrier,kwh\n2026-10,district_heating,12000\n2026-11,gas,9000\n');
    expect(machine.json()).toEqual({ imported: 2 });
    expect(await readings()).toEqual([
      { month: '2026-11', carrier: 'gas', kwh: 9000 },
      { month: '2026-10', carrier: 'district_heating', kwh: 12000 },
    ]);
    const noHeader = await importCsv('2026-10;gas;100\n');
    expect(noHeader.json().errors[0]).toMatchObject({ field: 'csv.header' });
    await t.call('DELETE', `${c}/buildings/${building.id}/meter-readings/2026-11/gas`);
    await t.call('DELETE', `${c}/buildings/${building.id}/meter-readings/2026-10/district_heating`);
  });

  it('checks last month against the targets once and raises an alert for the building', async () => {
    const put = (body: object) => t.call('PUT', `${c}/buildings/${building.id}/report-settings`, body);
    expect(
      (await put({ heatedAreaM2: 600, maxHeatingHoursPerDegreeDay: 0.1, maxBelowComfortShare: null }))
        .statusCode,
    ).toBe(200);
    const december = new Date('2026-12-01T08:00:00Z');
    expect(await checkEfficiencyTargets(t.database.db, december)).toBe(1);
    expect(await checkEfficiencyTargets(t.database.db, december)).toBe(0);
    await evaluateAll(t.database.db, december);
    const listed = await t.call('GET', `${c}/alerts?kind=efficiency_target_missed&state=open`);
    expect(listed.statusCode, listed.body).toBe(200);
    const open = listed.json();
    expect(open.results).toEqual([
      expect.objectContaining({
        subject: 'building',
        subjectId: building.id,
        subjectName: 'Grundschule',
        buildingName: 'Grundschule',
        details: expect.objectContaining({ month: '2026-11', missed: 'heating_hours_per_degree_day' }),
      }),
    ]);
    // Targets the month meets: checked again at once, the condition is gone.
    expect(
      (await put({ heatedAreaM2: 600, maxHeatingHoursPerDegreeDay: 5, maxBelowComfortShare: null }))
        .statusCode,
    ).toBe(200);
    expect(await checkEfficiencyTargets(t.database.db, december)).toBe(1);
    const [settings] = await t.database.db.select().from(buildingReportSettings);
    expect(settings).toMatchObject({ checkedMonth: '2026-11', missedTargets: [] });
  });

  it('exports the month for German Excel, for machines, as XLSX and as PDF', async () => {
    const excel = await t.call('GET', `${c}/reports/export?month=2026-11&format=excel`);
    expect(excel.headers['content-type']).toContain('text/csv');
    expect(excel.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const [header, first] = excel.body.slice(1).split('\n');
    expect(header?.split(';').slice(0, 4)).toEqual(['Tag', 'Gebäude', 'Raum', 'Raum Ø (°C)']);
    expect(first).toMatch(/^2026-11-02;Grundschule;Klasse 1a;18,89;/);

    const csv = await t.call('GET', `${c}/reports/export?month=2026-11&format=csv&lang=en&unitId=${cold.id}`);
    const lines = csv.body.trim().split('\n');
    expect(lines[0]?.startsWith('day,building,unit,room_mean_c')).toBe(true);
    expect(lines).toHaveLength(1 + 28);

    const xlsx = await t.call('GET', `${c}/reports/export?month=2026-11&format=xlsx`);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    expect(sheet?.getRow(2).getCell(3).value).toBe('Klasse 1a');
    expect(typeof sheet?.getRow(2).getCell(4).value).toBe('number');

    const pdf = await t.call('GET', `${c}/reports/export?month=2026-11&format=pdf`);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toContain('heizplan-report-2026-11.pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('names a negative saving as extra use in the PDF, as the screen does', async () => {
    const company = await report('month=2026-11');
    const pdf = await renderReportPdf({ ...company, saving: { ...company.saving, share: -0.06 } }, 'de', {
      compress: false,
    });
    const text = pdfText(pdf).replace(/\s+/g, ' ');
    expect(text).toContain('Geschätzter Mehrverbrauch: 6 %');
    expect(text).not.toContain('Geschätzte Einsparung');
  });

  it('streams rollups and raw uplinks through the export API, scoped to the company', async () => {
    const range = `from=${encodeURIComponent('2026-11-10T00:00:00Z')}&to=${encodeURIComponent('2026-11-11T00:00:00Z')}`;
    const json = await t.call('GET', `${c}/reports/rollups?${range}&unitId=${warm.id}`);
    const quarters = json.json();
    expect(quarters).toHaveLength(96);
    expect(quarters[0]).toMatchObject({
      unit_id: warm.id,
      bucket: '2026-11-10T00:00:00.000Z',
      room_mean: 17.5,
      setpoint: 17,
    });
    const daily = await t.call('GET', `${c}/reports/rollups?${range}&resolution=daily&format=csv`);
    expect(daily.body.split('\n')[0]).toBe(
      'unit_id,building_id,day,room_min,room_mean,room_max,valve_mean,setpoint_mean,heating_minutes,window_minutes,outdoor_mean,occupied_minutes,below_comfort_minutes,setback_minutes',
    );
    const raw = (await t.call('GET', `${c}/reports/telemetry?${range}&buildingId=${building.id}`)).json();
    expect(raw).toHaveLength(2 * 96);
    const stranger = await t.call('GET', `${c}/reports/telemetry?${range}`, undefined, 'mallory');
    expect(stranger.statusCode).toBe(404);
    const backwards = await t.call(
      'GET',
      `${c}/reports/rollups?from=2026-11-11T00:00:00Z&to=2026-11-10T00:00:00Z`,
    );
    expect(backwards.json().errors[0]).toMatchObject({
      field: 'querystring.to',
      message: 'must be after from',
    });
  });

  it('mails last month’s PDF once to a subscriber, from the next 1st on', async () => {
    await t.database.db.update(users).set({ email: 'alice@example.test', lang: 'de' });
    expect((await t.call('PUT', `${c}/reports/subscription`, { subscribed: true })).json()).toEqual({
      subscribed: true,
    });
    const sent: { to: string; subject: string; attachments?: { filename: string; content: Buffer }[] }[] = [];
    const mailer = {
      send: async (
        to: string,
        subject: string,
        _text: string,
        attachments?: { filename: string; content: Buffer }[],
      ) => {
        sent.push({ to, subject, attachments });
      },
    };
    // Subscribing counts last month as sent: nothing goes out this month.
    const now = clock.now();
    expect(await mailMonthlyReports(t.database.db, mailer, now)).toBe(0);
    // The next 1st in the company's zone (Berlin), not UTC's: they differ on the last evening.
    const nextFirst = DateTime.fromJSDate(now, { zone: 'Europe/Berlin' })
      .startOf('month')
      .plus({ months: 1, hours: 7 })
      .toJSDate();
    expect(await mailMonthlyReports(t.database.db, mailer, nextFirst)).toBe(1);
    expect(await mailMonthlyReports(t.database.db, mailer, nextFirst)).toBe(0);
    expect(sent[0]).toMatchObject({
      to: 'alice@example.test',
      subject: expect.stringContaining('Monatsbericht'),
    });
    expect(sent[0]?.attachments?.[0]?.content.subarray(0, 5).toString()).toBe('%PDF-');
    await t.call('PUT', `${c}/reports/subscription`, { subscribed: false });
    expect((await t.call('GET', `${c}/reports/subscription`)).json()).toEqual({ subscribed: false });
  });

  it('counts the occupants’ feedback per room and finds complaints despite comfortable figures', async () => {
    const press = (unitId: string, at: string, feeling: 'too_warm' | 'too_cold') => ({
      companyId,
      unitId,
      at: new Date(at),
      feeling,
      roomTemperature: 21.2,
      setpoint: 21,
      trend: 0,
    });
    await t.database.db.insert(occupantFeedback).values([
      // 1a is comfortable by its figures, yet four say "zu kalt": the finding.
      ...['03', '10', '17', '24'].map((d) => press(warm.id, `2026-11-${d}T08:00:00+01:00`, 'too_cold')),
      press(warm.id, '2026-11-05T10:00:00+01:00', 'too_warm'),
      // 1b really is cold: its complaints agree with its figures, no finding.
      ...['04', '11', '18'].map((d) => press(cold.id, `2026-11-${d}T09:00:00+01:00`, 'too_cold')),
      // Outside the month (Berlin): not counted.
      press(warm.id, '2026-10-31T23:30:00+01:00', 'too_cold'),
      press(warm.id, '2026-12-01T00:30:00+01:00', 'too_cold'),
    ]);
    const b = await report(`month=2026-11&buildingId=${building.id}`);
    const row = (name: string) => b.rows.find((r: { name: string }) => r.name === name);
    expect(row('Klasse 1a')).toMatchObject({ tooWarm: 1, tooCold: 4, belowComfortShare: 0 });
    expect(row('Klasse 1b')).toMatchObject({ tooWarm: 0, tooCold: 3 });
    expect(b.comfort.feedback).toEqual({ tooWarm: 1, tooCold: 7 });
    expect(b.losses.filter((l: { kind: string }) => l.kind === 'complaints_despite_comfort')).toEqual([
      { kind: 'complaints_despite_comfort', unitId: warm.id, name: 'Klasse 1a', value: 4 },
    ]);
    // The company's rows are buildings: their rooms' presses summed.
    const company = await report('month=2026-11');
    expect(company.rows[0]).toMatchObject({ tooWarm: 1, tooCold: 7 });

    // "Zu warm" in a room whose quarter hours were never more than 0.5 K above its setpoint: found too.
    await t.database.db
      .insert(occupantFeedback)
      .values(['06', '13'].map((d) => press(warm.id, `2026-11-${d}T11:00:00+01:00`, 'too_warm')));
    const again = await report(`month=2026-11&buildingId=${building.id}`);
    expect(again.losses).toContainEqual(
      expect.objectContaining({ kind: 'complaints_despite_comfort', value: 7 }),
    );

    const pdf = pdfText(await renderReportPdf(again, 'de', { compress: false })).replace(/\s+/g, ' ');
    expect(pdf).toContain(
      'Klasse 1a: Beschwerden trotz Komfortwerten: Fühler falsch platziert, Zugluft oder ein Plan, der die Nutzung verfehlt? (7 Beschwerden)',
    );
    expect(pdf).toContain('Rückmeldungen der Raumnutzer: zu warm / zu kalt: 3 / 7');
  });
});

describe('complaints despite comfort', () => {
  const room = { unitId: 'u', name: 'Raum', occupiedHours: 100, belowComfortHours: 5 };
  const counts = (tooWarm: number, tooCold: number) => new Map([['u', { tooWarm, tooCold }]]);

  it('needs three complaints of one feeling and figures that say comfortable', () => {
    expect(complaintsDespiteComfort([room], counts(0, 3), new Map())).toEqual([
      { kind: 'complaints_despite_comfort', unitId: 'u', name: 'Raum', value: 3 },
    ]);
    expect(complaintsDespiteComfort([room], counts(0, 2), new Map())).toEqual([]);
    // 10 % below comfort is no longer comfortable; under 10 occupied hours say too little.
    expect(complaintsDespiteComfort([{ ...room, belowComfortHours: 10 }], counts(0, 5), new Map())).toEqual(
      [],
    );
    expect(
      complaintsDespiteComfort(
        [{ ...room, occupiedHours: 9, belowComfortHours: 0 }],
        counts(0, 5),
        new Map(),
      ),
    ).toEqual([]);
    // "Zu warm": only with the room's share above its setpoint known and under 10 %.
    expect(complaintsDespiteComfort([room], counts(3, 0), new Map())).toEqual([]);
    expect(complaintsDespiteComfort([room], counts(3, 0), new Map([['u', 0.1]]))).toEqual([]);
    expect(complaintsDespiteComfort([room], counts(4, 0), new Map([['u', 0.05]]))).toMatchObject([
      { value: 4 },
    ]);
  });
});

/**
 * Reports (decision 0061): the report of a company, building, group or unit for a month or a
 * heating season; the month as CSV (German Excel or machine format), XLSX or PDF; the export API
 * over rollups and raw telemetry; a building's heated area, target values and meter readings; a
 * member's subscription to the monthly PDF. Every member reads (`read`); area, targets and
 * meter readings are written with `operate`. A building, group or unit of another company is
 * unknown (404).
 */
import type { Readable } from 'node:stream';
import type {
  BuildingReportData,
  BuildingReportSettings,
  DataExportQuerySchema,
  MeterReading,
  Report,
  ReportExportQuerySchema,
  ReportQuery,
} from '@heizplan/contracts/reports';
import { DateTime } from 'luxon';
import type { z } from 'zod';
import { requireMember } from '../../auth/membership.ts';
import { type Clock, systemClock } from '../../clock.ts';
import type { Db } from '../../db/client.ts';
import { findCompanyHeating } from '../../heating/inputs.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import { type TableExport, tableExport } from '../../http/table-export.ts';
import { type ExportSource, exportStream } from './data-export.ts';
import { parseMeterReadings } from './meter-import.ts';
import { buildReport } from './report-build.ts';
import { renderReportPdf } from './report-pdf.ts';
import { monthPeriod, seasonPeriod } from './report-period.ts';
import * as repo from './reports.repository.ts';

const UNKNOWN = {
  building: ['Unknown building', 'unknown_building'],
  group: ['Unknown group', 'unknown_group'],
  unit: ['Unknown unit', 'unknown_unit'],
} as const;

const DAY_HEADERS = {
  de: [
    'Tag',
    'Gebäude',
    'Raum',
    'Raum Ø (°C)',
    'Raum min (°C)',
    'Raum max (°C)',
    'Sollwert Ø (°C)',
    'Außen Ø (°C)',
    'Heizstunden',
    'Belegte Stunden',
    'Unter Komfort (h)',
    'Absenkstunden',
    'Fenster offen beim Heizen (h)',
    'Gradtage G20/15',
  ],
  en: [
    'day',
    'building',
    'unit',
    'room_mean_c',
    'room_min_c',
    'room_max_c',
    'setpoint_mean_c',
    'outdoor_mean_c',
    'heating_hours',
    'occupied_hours',
    'below_comfort_hours',
    'setback_hours',
    'window_heating_hours',
    'degree_days_g20_15',
  ],
};

const round = (v: unknown, digits: number) =>
  v === null || v === undefined ? null : Math.round(Number(v) * 10 ** digits) / 10 ** digits;

export type ReportFile = TableExport | { stream: Buffer; contentType: string; extension: 'pdf' };

export class ReportsService {
  /** `now`: which month a new subscription counts as already sent; default the machine's clock. */
  constructor(private readonly deps: { db: Db; now?: Clock }) {}

  private async scopeOf(companyId: string, q: { buildingId?: string; groupId?: string; unitId?: string }) {
    const scope: repo.ReportScope = q.buildingId
      ? { kind: 'building', id: q.buildingId }
      : q.groupId
        ? { kind: 'group', id: q.groupId }
        : q.unitId
          ? { kind: 'unit', id: q.unitId }
          : { kind: 'company' };
    const name = await repo.scopeName(this.deps.db, companyId, scope);
    if (name === null) {
      const [detail, code] =
        scope.kind === 'company' ? (['Company not found.', undefined] as const) : UNKNOWN[scope.kind];
      throw notFound(detail, code ? { code } : undefined);
    }
    return { scope, name };
  }

  private async timeZone(companyId: string) {
    return (await findCompanyHeating(this.deps.db, companyId))?.timeZone ?? 'Europe/Berlin';
  }

  /** The report of the query's scope and period. @throws 404 for a scope of another company. */
  async report(userId: string, companyId: string, q: ReportQuery): Promise<Report> {
    await requireMember(this.deps.db, userId, companyId, 'read');
    const { scope, name } = await this.scopeOf(companyId, q);
    const period = q.month ? monthPeriod(q.month) : seasonPeriod(q.season as number);
    return buildReport(
      this.deps.db,
      { companyId, timeZone: await this.timeZone(companyId) },
      scope,
      name,
      period,
    );
  }

  /**
   * The month as a file: `pdf` the report; `csv`, `excel` and `xlsx` one row per room and day
   * (building, room, room mean/min/max, setpoint and outdoor means, heating, occupied,
   * below-comfort, setback and window-heating hours, degree days), headers in `lang`.
   */
  async exportMonth(
    userId: string,
    companyId: string,
    q: z.output<typeof ReportExportQuerySchema>,
  ): Promise<ReportFile> {
    if (q.format === 'pdf') {
      const report = await this.report(userId, companyId, { ...q, season: undefined });
      return {
        stream: await renderReportPdf(report, q.lang),
        contentType: 'application/pdf',
        extension: 'pdf',
      };
    }
    await requireMember(this.deps.db, userId, companyId, 'read');
    const { scope } = await this.scopeOf(companyId, q);
    const period = monthPeriod(q.month);
    const db = this.deps.db;
    async function* rows() {
      for (const r of await repo.exportDays(db, companyId, scope, { from: period.from, to: period.to }))
        yield [
          r.day,
          r.building,
          r.unit,
          round(r.room_mean, 2),
          round(r.room_min, 2),
          round(r.room_max, 2),
          round(r.setpoint_mean, 2),
          round(r.outdoor_mean, 2),
          round(Number(r.heating_minutes) / 60, 2),
          round(Number(r.occupied_minutes) / 60, 2),
          round(Number(r.below_comfort_minutes) / 60, 2),
          round(Number(r.setback_minutes) / 60, 2),
          round(Number(r.window_heating_minutes) / 60, 2),
          round(r.degree_days, 2),
        ];
    }
    return tableExport(rows(), DAY_HEADERS[q.lang], {
      format: q.format,
      timeZone: await this.timeZone(companyId),
    });
  }

  /** The export API: rollups or raw telemetry streamed as JSON or CSV. @throws 404 for another company's building or unit. */
  async exportData(
    userId: string,
    companyId: string,
    source: ExportSource,
    q: z.output<typeof DataExportQuerySchema>,
  ): Promise<Readable> {
    await requireMember(this.deps.db, userId, companyId, 'read');
    if (q.buildingId) await this.scopeOf(companyId, { buildingId: q.buildingId });
    if (q.unitId) await this.scopeOf(companyId, { unitId: q.unitId });
    return exportStream(
      this.deps.db,
      source,
      { companyId, from: new Date(q.from), to: new Date(q.to), buildingId: q.buildingId, unitId: q.unitId },
      q.format,
    );
  }

  /** A building's heated area, target values and meter readings (newest month first). */
  async buildingData(userId: string, companyId: string, buildingId: string): Promise<BuildingReportData> {
    await requireMember(this.deps.db, userId, companyId, 'read');
    await this.scopeOf(companyId, { buildingId });
    const settings = await repo.findBuildingReportSettings(this.deps.db, buildingId);
    const readings = await repo.meterReadings(this.deps.db, buildingId);
    return {
      settings: {
        heatedAreaM2: settings?.heatedAreaM2 ?? null,
        maxHeatingHoursPerDegreeDay: settings?.maxHeatingHoursPerDegreeDay ?? null,
        maxBelowComfortShare: settings?.maxBelowComfortShare ?? null,
      },
      readings,
    };
  }

  /** Sets a building's heated area and target values (all three; null clears one). */
  async putSettings(
    userId: string,
    companyId: string,
    buildingId: string,
    body: BuildingReportSettings,
  ): Promise<BuildingReportSettings> {
    await requireMember(this.deps.db, userId, companyId, 'operate');
    await this.scopeOf(companyId, { buildingId });
    await repo.upsertBuildingReportSettings(this.deps.db, companyId, buildingId, body);
    return body;
  }

  /** Enters or corrects a month's reading of one carrier. */
  async putReading(
    userId: string,
    companyId: string,
    buildingId: string,
    body: MeterReading,
  ): Promise<MeterReading> {
    await requireMember(this.deps.db, userId, companyId, 'operate');
    await this.scopeOf(companyId, { buildingId });
    await repo.upsertMeterReading(this.deps.db, companyId, buildingId, body);
    return body;
  }

  /**
   * Stores the CSV's readings (each replacing the month and carrier's), all or none.
   * @throws 400 listing every row's problem (`meter-import.ts`).
   */
  async importReadings(userId: string, companyId: string, buildingId: string, csv: string) {
    await requireMember(this.deps.db, userId, companyId, 'operate');
    await this.scopeOf(companyId, { buildingId });
    const { readings, problems } = parseMeterReadings(csv);
    if (problems.length > 0) throw badRequest('The meter readings were not imported.', problems);
    await this.deps.db.transaction(async (tx) => {
      for (const reading of readings) await repo.upsertMeterReading(tx, companyId, buildingId, reading);
    });
    return { imported: readings.length };
  }

  /** Deletes a month's reading of one carrier. @throws 404 when there is none. */
  async deleteReading(userId: string, companyId: string, buildingId: string, month: string, carrier: string) {
    await requireMember(this.deps.db, userId, companyId, 'operate');
    await this.scopeOf(companyId, { buildingId });
    const deleted = await repo.deleteMeterReading(this.deps.db, buildingId, month, carrier);
    if (deleted.length === 0) throw notFound('Unknown meter reading', { code: 'unknown_meter_reading' });
  }

  /** Whether the member gets the monthly PDF by mail. */
  async subscription(userId: string, companyId: string): Promise<{ subscribed: boolean }> {
    await requireMember(this.deps.db, userId, companyId, 'read');
    return { subscribed: await repo.isSubscribed(this.deps.db, companyId, userId) };
  }

  async setSubscription(
    userId: string,
    companyId: string,
    subscribed: boolean,
  ): Promise<{ subscribed: boolean }> {
    await requireMember(this.deps.db, userId, companyId, 'read');
    // The first mail comes on the next 1st: last month counts as sent.
    const lastMonth = DateTime.fromJSDate((this.deps.now ?? systemClock)())
      .setZone(await this.timeZone(companyId))
      .minus({ months: 1 })
      .toFormat('yyyy-MM');
    if (subscribed) await repo.subscribe(this.deps.db, companyId, userId, lastMonth);
    else await repo.unsubscribe(this.deps.db, companyId, userId);
    return { subscribed };
  }
}

/**
 * The company's heating plans as CSV or XLSX (decision 0060): unit and group plans, one row per
 * switch point — owner (unit or group) and its name, plan name, kind, active, valid from/to
 * (seasonal, every year) or the dates (specific days), weekday, time, temperature (°C), whether
 * the switch point ignores the wall thermostat limits, last changed. A plan without switch
 * points is one row with those columns empty. Plans are read 100 at a time
 * (`pagePlansWithOwners`: group plans first, then unit plans, by owner name).
 */
import type { PlanExportQuerySchema } from '@heizplan/contracts/exports';
import type { z } from 'zod';
import { requireMember } from '../../auth/membership.ts';
import type { Db } from '../../db/client.ts';
import type { SwitchPoint } from '../../heating/engine/types.ts';
import { findCompanyHeating } from '../../heating/inputs.ts';
import { type ExportCell, type TableExport, tableExport } from '../../http/table-export.ts';
import { type PlanRow, pagePlansWithOwners } from './plans.repository.ts';

const PAGE = 100;

const TEXTS = {
  de: {
    header: [
      'Zuordnung',
      'Raum/Gruppe',
      'Plan',
      'Planart',
      'Aktiv',
      'Gültig von',
      'Gültig bis',
      'Tage',
      'Wochentag',
      'Uhrzeit',
      'Temperatur (°C)',
      'Wandthermostat ignoriert',
      'Geändert',
    ],
    owner: { unit: 'Raum', group: 'Gruppe' },
    kind: { seasonal: 'Saisonplan', specific_days: 'Bestimmte Tage' },
    yes: 'ja',
    no: 'nein',
    weekdays: ['Montag', 'Dienstag', 'Mittwoch', 'Donnerstag', 'Freitag', 'Samstag', 'Sonntag'],
  },
  en: {
    header: [
      'owner_kind',
      'owner',
      'plan',
      'kind',
      'active',
      'valid_from',
      'valid_to',
      'dates',
      'weekday',
      'time',
      'temperature_c',
      'ignore_wall_control',
      'updated_at',
    ],
    owner: { unit: 'unit', group: 'group' },
    kind: { seasonal: 'seasonal', specific_days: 'specific_days' },
    yes: 'yes',
    no: 'no',
    weekdays: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'],
  },
};

/** 'MM-DD' as "01.10." and 'YYYY-MM-DD' as "24.12.2026" for people; machines keep ISO. */
function dateFormats(machine: boolean) {
  return {
    monthDay: (value: string | null) => {
      if (!value || machine) return value;
      const [month, day] = value.split('-');
      return `${day}.${month}.`;
    },
    day: (value: string) => (machine ? value : value.split('-').reverse().join('.')),
  };
}

const pad = (n: number) => String(n).padStart(2, '0');
const inOrder = (a: SwitchPoint, b: SwitchPoint) => a.day - b.day || a.hour - b.hour || a.minute - b.minute;

/**
 * Every plan of the company in `query.format`, headers in `query.lang`.
 * @throws HttpError 404 for a stranger.
 */
export async function exportPlans(
  db: Db,
  userId: string,
  companyId: string,
  query: z.output<typeof PlanExportQuerySchema>,
): Promise<TableExport> {
  await requireMember(db, userId, companyId, 'read');
  const timeZone = (await findCompanyHeating(db, companyId))?.timeZone ?? 'Europe/Berlin';
  const text = TEXTS[query.lang];
  const dates = dateFormats(query.format === 'csv');
  const planCells = (plan: PlanRow, ownerName: string | null): ExportCell[] => [
    plan.unitId ? text.owner.unit : text.owner.group,
    ownerName,
    plan.name,
    text.kind[plan.kind],
    plan.active ? text.yes : text.no,
    dates.monthDay(plan.validFrom),
    dates.monthDay(plan.validTo),
    (plan.dates ?? []).map(dates.day).join(', '),
  ];
  const pointCells = (plan: PlanRow, point: SwitchPoint): ExportCell[] => [
    // A specific-days plan's switch points hold on its dates, whatever their weekday field says.
    plan.kind === 'seasonal' ? text.weekdays[point.day - 1] : null,
    `${pad(point.hour)}:${pad(point.minute)}`,
    point.temperature,
    point.ignoreWallControl ? text.yes : text.no,
  ];
  async function* rows() {
    for (let offset = 0; ; offset += PAGE) {
      const page = await pagePlansWithOwners(db, companyId, { limit: PAGE, offset });
      for (const { plan, unitName, groupName } of page) {
        const head = planCells(plan, unitName ?? groupName);
        const points = [...plan.switchPoints].sort(inOrder);
        if (points.length === 0) yield [...head, null, null, null, null, plan.updatedAt];
        for (const point of points) yield [...head, ...pointCells(plan, point), plan.updatedAt];
      }
      if (page.length < PAGE) return;
    }
  }
  return tableExport(rows(), text.header, { format: query.format, timeZone });
}

/**
 * The company's units as CSV or XLSX (decision 0060), in the list's order and filters, 200 a page: name,
 * group, building, floor, setpoint (°C) and what set it (the heating log's kind), room temperature
 * (°C), valve opening (%), paused, wall thermostat limits (°C), optimum start, created.
 */
import type { UnitExportQuerySchema } from '@heizplan/contracts/heating';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { findCompanyHeating } from '../../heating/inputs.ts';
import { type TableExport, tableExport } from '../../http/table-export.ts';
import type { UnitsService } from './units.service.ts';

const PAGE = 200;
const HEADERS = {
  de: [
    'Name',
    'Gruppe',
    'Gebäude',
    'Geschoss',
    'Solltemperatur (°C)',
    'Quelle',
    'Raumtemperatur (°C)',
    'Ventilöffnung (%)',
    'Pausiert',
    'Wandthermostat min. (°C)',
    'Wandthermostat max. (°C)',
    'Optimierter Start',
    'Angelegt',
  ],
  en: [
    'name',
    'group',
    'building',
    'floor',
    'setpoint_c',
    'source',
    'room_temperature_c',
    'valve_opening_pct',
    'paused',
    'wall_min_c',
    'wall_max_c',
    'optimum_start',
    'created_at',
  ],
};

/**
 * @throws HttpError 404 for a stranger (the list's own checks).
 */
export async function exportUnits(
  db: Db,
  units: UnitsService,
  userId: string,
  companyId: string,
  query: z.output<typeof UnitExportQuerySchema>,
): Promise<TableExport> {
  const { format, lang, ...filters } = query;
  // The first page checks the caller before anything is streamed.
  const first = await units.list(userId, companyId, { ...filters, page: 1, size: PAGE });
  const timeZone = (await findCompanyHeating(db, companyId))?.timeZone ?? 'Europe/Berlin';
  const yes = lang === 'de' ? 'ja' : 'yes';
  const no = lang === 'de' ? 'nein' : 'no';
  async function* rows() {
    for (let page = 1, current = first; ; page++) {
      for (const u of current.results)
        yield [
          u.name,
          u.groupName,
          u.buildingName,
          u.floor,
          u.setpoint,
          u.setpointSource,
          u.roomTemperature,
          u.valveOpening,
          u.paused ? yes : no,
          u.wallControlMin,
          u.wallControlMax,
          u.optimumStart ? yes : no,
          new Date(u.createdAt),
        ];
      if (page * PAGE >= current.count) return;
      current = await units.list(userId, companyId, { ...filters, page: page + 1, size: PAGE });
    }
  }
  return tableExport(rows(), HEADERS[lang], { format, timeZone });
}

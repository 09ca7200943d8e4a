/**
 * Parses a building's monthly meter readings from CSV (decision 0061), as a facility manager
 * exports them from a spreadsheet or a utility's portal: a header row naming the columns month,
 * carrier and kWh (German or English: `Monat`, `Energieträger`, `Verbrauch`/`kWh`), separated by
 * `;` (German Excel) or `,`, UTF-8 with or without BOM. Months as `2026-11`, `11.2026` or
 * `11/2026`; kWh with a decimal comma (`1.234,5`) or point; carriers by their id or German name
 * (Gas/Erdgas, Fernwärme, Heizöl/Öl, Wärmepumpe/Wärmepumpenstrom).
 *
 * @returns the readings, or the problems of every row (`row` counts from 1 for the header).
 */
import { type MeterReading, MeterReadingSchema } from '@heizplan/contracts/reports';
import { parse } from 'csv-parse/sync';

export const MAX_IMPORT_ROWS = 1000;

const COLUMNS: Record<'month' | 'carrier' | 'kwh', string[]> = {
  month: ['month', 'monat'],
  carrier: ['carrier', 'energieträger', 'energietraeger', 'träger', 'energy carrier'],
  kwh: ['kwh', 'verbrauch', 'verbrauch (kwh)', 'consumption', 'consumption (kwh)'],
};

const CARRIERS: Record<string, MeterReading['carrier']> = {
  gas: 'gas',
  erdgas: 'gas',
  district_heating: 'district_heating',
  fernwärme: 'district_heating',
  fernwaerme: 'district_heating',
  'district heating': 'district_heating',
  oil: 'oil',
  öl: 'oil',
  heizöl: 'oil',
  heizoel: 'oil',
  heat_pump_electricity: 'heat_pump_electricity',
  wärmepumpe: 'heat_pump_electricity',
  wärmepumpenstrom: 'heat_pump_electricity',
  'heat pump': 'heat_pump_electricity',
};

function month(value: string): string {
  const v = value.trim();
  const german = /^(\d{1,2})[./](\d{4})$/.exec(v);
  return german ? `${german[2]}-${(german[1] as string).padStart(2, '0')}` : v;
}

function kwh(value: string): number {
  const v = value.trim().replace(/\s/g, '');
  if (v === '') return Number.NaN;
  return Number(v.includes(',') ? v.replaceAll('.', '').replace(',', '.') : v);
}

export interface ImportProblem {
  field: string;
  message: string;
}

export function parseMeterReadings(csv: string): { readings: MeterReading[]; problems: ImportProblem[] } {
  const text = csv.replace(/^\uFEFF/, '');
  const firstLine = text.split(/\r?\n/, 1)[0] ?? '';
  const delimiter = firstLine.includes(';') ? ';' : ',';
  let rows: string[][];
  try {
    rows = parse(text, { delimiter, skip_empty_lines: true, relax_column_count: true, trim: true });
  } catch (err) {
    return {
      readings: [],
      problems: [{ field: 'csv', message: `is not valid CSV: ${(err as Error).message}` }],
    };
  }
  const header = (rows[0] ?? []).map((h) => h.toLowerCase());
  const index = Object.fromEntries(
    Object.entries(COLUMNS).map(([key, names]) => [key, header.findIndex((h) => names.includes(h))]),
  ) as Record<keyof typeof COLUMNS, number>;
  const missing = Object.entries(index).filter(([, i]) => i < 0);
  if (missing.length > 0)
    return {
      readings: [],
      problems: missing.map(([key]) => ({
        field: 'csv.header',
        message: `needs a column ${COLUMNS[key as keyof typeof COLUMNS].join(' or ')}`,
      })),
    };
  const body = rows.slice(1);
  if (body.length === 0)
    return { readings: [], problems: [{ field: 'csv', message: 'has no rows below the header' }] };
  if (body.length > MAX_IMPORT_ROWS)
    return {
      readings: [],
      problems: [{ field: 'csv', message: `must have at most ${MAX_IMPORT_ROWS} rows` }],
    };
  const readings: MeterReading[] = [];
  const problems: ImportProblem[] = [];
  body.forEach((cells, i) => {
    const row = i + 2;
    const carrierText = (cells[index.carrier] ?? '').trim().toLowerCase();
    const candidate = {
      month: month(cells[index.month] ?? ''),
      carrier: CARRIERS[carrierText] ?? carrierText,
      kwh: kwh(cells[index.kwh] ?? ''),
    };
    const parsed = MeterReadingSchema.safeParse(candidate);
    if (parsed.success) readings.push(parsed.data);
    else
      for (const issue of parsed.error.issues)
        problems.push({
          field: `csv.row.${row}.${String(issue.path[0])}`,
          message:
            issue.path[0] === 'kwh' && Number.isNaN(candidate.kwh)
              ? 'must be a number of kWh'
              : issue.message,
        });
  });
  return { readings, problems };
}

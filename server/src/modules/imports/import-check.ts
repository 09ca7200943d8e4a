/**
 * Checks every row of an import (decision 0063) and turns the good ones into what is inserted.
 * `readRows` applies the mapping and defaults and the cell rules of the contracts
 * (`readImportCell`); `checkUnits` and `checkDevices` then apply what only the company's data can
 * say — names that must exist or must not, DevEUIs registered already — and duplicates inside the
 * file. Every problem names the row as in the file, the field, the column and a problem code.
 */
import { temperatureRangeIssue } from '@heizplan/contracts/heating';
import {
  IMPORT_MAX_PROBLEMS,
  type ImportDefaults,
  type ImportField,
  type ImportKind,
  type ImportMapping,
  type ImportProblem,
  REQUIRED_IMPORT_FIELDS,
  readImportCell,
} from '@heizplan/contracts/imports';
import type { ProblemCode } from '@heizplan/contracts/problem-codes';
import type { ImportTable } from './import-file.ts';
import { cellOf, fieldSources } from './import-mapping.ts';

/** Names compare as unit names do (decision 0044): case and surrounding spaces ignored. */
export const nameKey = (name: string) => name.trim().toLowerCase();

type Params = Record<string, string | number>;

/** The problems found so far: all counted, the first IMPORT_MAX_PROBLEMS kept. */
export class ImportProblems {
  readonly list: ImportProblem[] = [];
  count = 0;

  add(
    row: number | null,
    field: ImportField | null,
    column: string | null,
    code: ProblemCode,
    params?: Params,
  ) {
    this.count++;
    if (this.list.length < IMPORT_MAX_PROBLEMS)
      this.list.push({ row, field, column, code, ...(params ? { params } : {}) });
  }

  /** The kept problems by row (the file's own first), a row's in the order they were found. */
  sorted(): ImportProblem[] {
    return this.list.toSorted((a, b) => (a.row ?? 0) - (b.row ?? 0));
  }
}

/** A row's fields as read; a field that had a problem (or no value) is absent. */
export interface Draft {
  row: number;
  values: Partial<Record<ImportField, string | number>>;
  columns: Partial<Record<ImportField, string | null>>;
  /** False once a problem was found in the row. */
  ok: boolean;
}

/**
 * The rows of `table` read through `mapping` and `defaults`. A mapped column the file lacks, and
 * a required field with neither column nor default, are problems of the header (row 1) and not
 * repeated on every row.
 */
export function readRows(
  kind: ImportKind,
  table: ImportTable,
  mapping: ImportMapping,
  defaults: ImportDefaults,
  problems: ImportProblems,
): Draft[] {
  const { headerRow } = table;
  const sources = fieldSources(kind, table.columns, mapping, defaults);
  const unfed = new Set<ImportField>();
  for (const source of sources) {
    if (source.index !== undefined || source.fallback !== undefined) continue;
    if (source.column !== undefined)
      problems.add(headerRow, source.field, source.column, 'import_column_missing', {
        column: source.column,
      });
    else if (REQUIRED_IMPORT_FIELDS[kind].includes(source.field))
      problems.add(headerRow, source.field, null, 'import_field_unmapped');
    unfed.add(source.field);
  }
  return table.rows.map((row) => {
    const draft: Draft = { row: row.row, values: {}, columns: {}, ok: true };
    for (const source of sources) {
      if (unfed.has(source.field)) {
        if (REQUIRED_IMPORT_FIELDS[kind].includes(source.field)) draft.ok = false;
        continue;
      }
      const { text, column } = cellOf(row, source);
      draft.columns[source.field] = column;
      const reading = readImportCell(source.field, text);
      if (!reading.ok) {
        fail(draft, problems, source.field, reading.code, reading.params);
      } else if (reading.value !== null) {
        draft.values[source.field] = reading.value;
      } else if (REQUIRED_IMPORT_FIELDS[kind].includes(source.field)) {
        fail(draft, problems, source.field, 'import_value_required');
      }
    }
    return draft;
  });
}

function fail(
  draft: Draft,
  problems: ImportProblems,
  field: ImportField,
  code: ProblemCode,
  params?: Params,
) {
  draft.ok = false;
  problems.add(draft.row, field, draft.columns[field] ?? null, code, params);
}

/** Flags a repeated `key` of `field` (a DevEUI, a unit name) on the rows after its first. */
function duplicates(
  drafts: Draft[],
  field: ImportField,
  key: (value: string) => string,
  problems: ImportProblems,
) {
  const first = new Map<string, number>();
  for (const draft of drafts) {
    const value = draft.values[field];
    if (typeof value !== 'string') continue;
    const seen = first.get(key(value));
    if (seen === undefined) first.set(key(value), draft.row);
    else fail(draft, problems, field, 'import_duplicate', { value, row: seen });
  }
}

export interface UnitLookups {
  /** By `nameKey`: the company's buildings with their floors. */
  buildings: Map<string, { id: string; name: string; floors: string[] }>;
  /** By `nameKey`: the company's groups. */
  groups: Map<string, string>;
  /** `nameKey`s of the file's names the company's units already have. */
  takenNames: Set<string>;
  /** The company's temperature range, °C. */
  range: { min: number; max: number };
}

export interface UnitInsert {
  name: string;
  buildingId: string | null;
  floor: string | null;
  groupId: string | null;
  wallControlMin: number | null;
  wallControlMax: number | null;
}

const text = (draft: Draft, field: ImportField) => draft.values[field] as string | undefined;
const number = (draft: Draft, field: ImportField) => draft.values[field] as number | undefined;

/** The units to insert, if every row passed; problems of the rows otherwise. */
export function checkUnits(drafts: Draft[], lookups: UnitLookups, problems: ImportProblems): UnitInsert[] {
  duplicates(drafts, 'name', nameKey, problems);
  const inserts: UnitInsert[] = [];
  for (const draft of drafts) {
    const name = text(draft, 'name');
    if (name !== undefined && lookups.takenNames.has(nameKey(name)))
      fail(draft, problems, 'name', 'unit_name_taken', { name });
    const buildingName = text(draft, 'building');
    const building = buildingName === undefined ? undefined : lookups.buildings.get(nameKey(buildingName));
    if (buildingName !== undefined && !building)
      fail(draft, problems, 'building', 'import_building_unknown', { name: buildingName });
    let floor = text(draft, 'floor') ?? null;
    if (floor !== null && building) {
      const listed = building.floors.find((f) => nameKey(f) === nameKey(floor as string));
      if (listed === undefined)
        fail(draft, problems, 'floor', 'import_floor_unknown', { floor, building: building.name });
      floor = listed ?? null;
    } else if (floor !== null && buildingName === undefined) {
      fail(draft, problems, 'floor', 'import_floor_without_building', { floor });
    }
    const groupName = text(draft, 'group');
    const groupId = groupName === undefined ? undefined : lookups.groups.get(nameKey(groupName));
    if (groupName !== undefined && !groupId)
      fail(draft, problems, 'group', 'import_group_unknown', { name: groupName });
    const min = number(draft, 'wallControlMin');
    const max = number(draft, 'wallControlMax');
    for (const [field, value] of [
      ['wallControlMin', min],
      ['wallControlMax', max],
    ] as const) {
      const outside = value === undefined ? null : temperatureRangeIssue(value, lookups.range);
      if (outside) fail(draft, problems, field, outside.code, outside.params);
    }
    if (min !== undefined && max !== undefined && min > max)
      fail(draft, problems, 'wallControlMax', 'wall_control_order');
    if (!draft.ok || name === undefined) continue;
    inserts.push({
      name: name.trim(),
      buildingId: building?.id ?? null,
      floor,
      groupId: groupId ?? null,
      wallControlMin: min ?? null,
      wallControlMax: max ?? null,
    });
  }
  return inserts;
}

export interface DeviceLookups {
  /** By `nameKey`: the company's units. */
  units: Map<string, string>;
  /** The file's DevEUIs registered already: in this company (`own`) or another. */
  registered: Map<string, 'own' | 'other'>;
}

export interface DeviceInsert {
  devEui: string;
  joinEui: string | null;
  appKey: string | null;
  model: string;
  unitId: string | null;
}

/** The devices to insert, if every row passed; problems of the rows otherwise. */
export function checkDevices(
  drafts: Draft[],
  lookups: DeviceLookups,
  problems: ImportProblems,
): DeviceInsert[] {
  duplicates(drafts, 'devEui', (eui) => eui, problems);
  const inserts: DeviceInsert[] = [];
  for (const draft of drafts) {
    const devEui = text(draft, 'devEui');
    const registered = devEui === undefined ? undefined : lookups.registered.get(devEui);
    if (registered === 'own')
      fail(draft, problems, 'devEui', 'import_device_exists', { id: devEui as string });
    if (registered === 'other')
      fail(draft, problems, 'devEui', 'import_device_taken', { id: devEui as string });
    const unitName = text(draft, 'unit');
    const unitId = unitName === undefined ? undefined : lookups.units.get(nameKey(unitName));
    if (unitName !== undefined && !unitId)
      fail(draft, problems, 'unit', 'import_unit_unknown', { name: unitName });
    const model = text(draft, 'model');
    if (!draft.ok || devEui === undefined || model === undefined) continue;
    inserts.push({
      devEui,
      joinEui: text(draft, 'joinEui') ?? null,
      appKey: text(draft, 'appKey') ?? null,
      model,
      unitId: unitId ?? null,
    });
  }
  return inserts;
}

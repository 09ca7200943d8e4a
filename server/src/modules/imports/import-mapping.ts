/**
 * Column mapping of an import (decision 0063): which column feeds which field, suggested from a
 * file's headers by the spellings vendors and spreadsheets use (The Things Stack's `dev_eui`,
 * `DevEUI`, `Dev EUI`, German `Raum`, `Gebäude`, `Etage` …), and the cells a row gives each field
 * once the mapping and the defaults are applied.
 */
import {
  DEFAULTABLE_IMPORT_FIELDS,
  IMPORT_FIELDS,
  type ImportDefaults,
  type ImportField,
  type ImportKind,
  type ImportMapping,
} from '@heizplan/contracts/imports';
import type { ImportRow } from './import-file.ts';

/** A header as compared: lowercase letters and digits only, umlauts spelled out. */
export function headerKey(header: string): string {
  return header
    .toLowerCase()
    .replaceAll('ä', 'ae')
    .replaceAll('ö', 'oe')
    .replaceAll('ü', 'ue')
    .replaceAll('ß', 'ss')
    .replace(/[^a-z0-9]/g, '');
}

/** Header spellings per field, as `headerKey` writes them; the first column matching wins. */
const SPELLINGS: Record<ImportKind, Partial<Record<ImportField, string[]>>> = {
  units: {
    name: ['name', 'unit', 'unitname', 'room', 'roomname', 'raum', 'raumname', 'bezeichnung', 'zone'],
    building: [
      'building',
      'buildingname',
      'gebaeude',
      'haus',
      'liegenschaft',
      'objekt',
      'standort',
      'schule',
    ],
    floor: ['floor', 'etage', 'stockwerk', 'geschoss', 'ebene', 'level'],
    group: ['group', 'groupname', 'gruppe'],
    wallControlMin: [
      'wallcontrolmin',
      'wallmin',
      'wandreglermin',
      'minimum',
      'min',
      'minc',
      'mintemperature',
    ],
    wallControlMax: [
      'wallcontrolmax',
      'wallmax',
      'wandreglermax',
      'maximum',
      'max',
      'maxc',
      'maxtemperature',
    ],
  },
  devices: {
    devEui: ['deveui', 'deviceeui', 'eui', 'lorawandeviceidsdeveui', 'idsdeveui'],
    joinEui: ['joineui', 'appeui', 'applicationeui', 'idsjoineui'],
    appKey: ['appkey', 'applicationkey', 'rootkeysappkeykey'],
    model: [
      'model',
      'modell',
      'modelid',
      'devicemodel',
      'geraetemodell',
      'type',
      'typ',
      'devicetype',
      'geraetetyp',
    ],
    unit: ['unit', 'unitname', 'room', 'roomname', 'raum', 'raumname', 'zone'],
  },
};

/**
 * The mapping `columns` suggest for `kind`: each field the first column (in file order) spelled
 * like it; a column feeds one field at most.
 */
export function suggestMapping(kind: ImportKind, columns: readonly string[]): ImportMapping {
  const mapping: ImportMapping = {};
  const used = new Set<string>();
  for (const field of IMPORT_FIELDS[kind]) {
    const spellings = SPELLINGS[kind][field] ?? [];
    const column = columns.find((c) => !used.has(c) && spellings.includes(headerKey(c)));
    if (column === undefined) continue;
    mapping[field] = column;
    used.add(column);
  }
  return mapping;
}

/** `mapping` without empty columns and fields of the other kind. */
export function mappingOf(kind: ImportKind, mapping: ImportMapping): ImportMapping {
  const kept: ImportMapping = {};
  for (const field of IMPORT_FIELDS[kind]) {
    const column = mapping[field]?.trim();
    if (column) kept[field] = column;
  }
  return kept;
}

/** `defaults` without empty values and fields of the other kind. */
export function defaultsOf(kind: ImportKind, defaults: ImportDefaults): ImportDefaults {
  const kept: Record<string, string> = {};
  const given = defaults as Record<string, string | undefined>;
  for (const field of DEFAULTABLE_IMPORT_FIELDS[kind]) {
    const value = given[field]?.trim();
    if (value) kept[field] = value;
  }
  return kept as ImportDefaults;
}

/**
 * A remembered mapping fitted to a file: fields whose column the file has keep it, the others
 * take what the file's headers suggest.
 */
export function fitMapping(kind: ImportKind, remembered: ImportMapping, columns: readonly string[]) {
  const suggested = suggestMapping(kind, columns);
  const fitted: ImportMapping = {};
  for (const field of IMPORT_FIELDS[kind]) {
    const column = remembered[field];
    const value = column !== undefined && columns.includes(column) ? column : suggested[field];
    if (value !== undefined) fitted[field] = value;
  }
  return fitted;
}

/** Where a field's value comes from in every row: a column's index, or the default. */
export interface FieldSource {
  field: ImportField;
  /** The column's index in the header; undefined when the file has no such column. */
  index?: number;
  column?: string;
  fallback?: string;
}

/** The source of each field of `kind` in a file with `columns` (the first column of a header). */
export function fieldSources(
  kind: ImportKind,
  columns: readonly string[],
  mapping: ImportMapping,
  defaults: ImportDefaults,
): FieldSource[] {
  const given = defaults as Record<string, string | undefined>;
  return IMPORT_FIELDS[kind].map((field) => {
    const column = mapping[field];
    const index = column === undefined ? -1 : columns.indexOf(column);
    return {
      field,
      ...(column !== undefined ? { column } : {}),
      ...(index >= 0 ? { index } : {}),
      ...(given[field] ? { fallback: given[field] } : {}),
    };
  });
}

/** A row's text for `source`: its cell, or the default where the cell is missing or empty. */
export function cellOf(row: ImportRow, source: FieldSource): { text: string; column: string | null } {
  const cell = source.index === undefined ? '' : (row.cells[source.index] ?? '');
  if (cell.trim() !== '' || source.fallback === undefined)
    return { text: cell, column: source.column ?? null };
  return { text: source.fallback, column: null };
}

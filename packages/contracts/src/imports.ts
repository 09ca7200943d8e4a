/**
 * Bulk import of units and devices from CSV or XLSX (decision 0063), shared by server and web.
 * A file's columns are mapped to fields (field → column header); defaults fill fields the file
 * lacks or leaves empty. A dry run checks every row and writes nothing; a commit writes all rows
 * or none. Problems name the row as in the file (the header is row 1), the field and a problem
 * code with params (`problem-codes.ts`), which the web words in German or English.
 */
import { z } from 'zod';
import { DEVICE_MODELS, type DeviceModel } from './devices.ts';
import { ProblemSchema } from './problem.ts';
import type { ProblemCode } from './problem-codes.ts';

export const IMPORT_KINDS = ['units', 'devices'] as const;
export const ImportKindSchema = z.enum(IMPORT_KINDS);
export type ImportKind = z.infer<typeof ImportKindSchema>;

/** The fields of each kind, in the order the mapping step lists them. */
export const IMPORT_FIELDS = {
  units: ['name', 'building', 'floor', 'group', 'wallControlMin', 'wallControlMax'],
  devices: ['devEui', 'joinEui', 'appKey', 'model', 'unit'],
} as const;
export type ImportField = (typeof IMPORT_FIELDS)[ImportKind][number];
export const ALL_IMPORT_FIELDS = [...IMPORT_FIELDS.units, ...IMPORT_FIELDS.devices] as const;
export const ImportFieldSchema = z.enum(ALL_IMPORT_FIELDS);

/**
 * The import page's templates: per kind and language a header the column suggestion recognises
 * for every field (server: import-mapping.ts, checked by its test) and one example row. The
 * AppKey stays empty: an example secret would be copied.
 */
export const IMPORT_TEMPLATES: Record<
  ImportKind,
  Record<'de' | 'en', { headers: Record<string, string>; example: Record<string, string> }>
> = {
  units: {
    de: {
      headers: {
        name: 'Raum',
        building: 'Gebäude',
        floor: 'Etage',
        group: 'Gruppe',
        wallControlMin: 'Wandregler min',
        wallControlMax: 'Wandregler max',
      },
      example: {
        name: 'Raum 101',
        building: 'Hauptgebäude',
        floor: 'EG',
        group: 'Klassenzimmer',
        wallControlMin: '18',
        wallControlMax: '23',
      },
    },
    en: {
      headers: {
        name: 'Room',
        building: 'Building',
        floor: 'Floor',
        group: 'Group',
        wallControlMin: 'Wall control min',
        wallControlMax: 'Wall control max',
      },
      example: {
        name: 'Room 101',
        building: 'Main building',
        floor: 'Ground floor',
        group: 'Classrooms',
        wallControlMin: '18',
        wallControlMax: '23',
      },
    },
  },
  devices: {
    de: {
      headers: { devEui: 'DevEUI', joinEui: 'JoinEUI', appKey: 'AppKey', model: 'Modell', unit: 'Raum' },
      example: {
        devEui: '70B3D52DD3000001',
        joinEui: '70B3D57ED0000000',
        appKey: '',
        model: 'mclimate-vicki',
        unit: 'Raum 101',
      },
    },
    en: {
      headers: { devEui: 'DevEUI', joinEui: 'JoinEUI', appKey: 'AppKey', model: 'Model', unit: 'Room' },
      example: {
        devEui: '70B3D52DD3000001',
        joinEui: '70B3D57ED0000000',
        appKey: '',
        model: 'mclimate-vicki',
        unit: 'Room 101',
      },
    },
  },
};

/** Fields every row needs, from its column or a default. */
export const REQUIRED_IMPORT_FIELDS: Record<ImportKind, readonly ImportField[]> = {
  units: ['name'],
  devices: ['devEui', 'model'],
};

/** Fields a default may fill: not those that name a row (name, DevEUI) or are a secret (AppKey). */
export const DEFAULTABLE_IMPORT_FIELDS = {
  units: ['building', 'floor', 'group', 'wallControlMin', 'wallControlMax'],
  devices: ['joinEui', 'model', 'unit'],
} as const satisfies Record<ImportKind, readonly ImportField[]>;

/** Largest file accepted (bytes); a larger upload is answered 413 `import_file_too_large`. */
export const IMPORT_MAX_BYTES = 10 * 1024 * 1024;
/** Most rows below the header one file may have. */
export const IMPORT_MAX_ROWS = 20_000;
/** Most problems one answer lists; `problemCount` tells how many there are in all. */
export const IMPORT_MAX_PROBLEMS = 10_000;
/** Rows of a preview (`POST …/imports/preview`). */
export const IMPORT_PREVIEW_ROWS = 10;
/** Longest unit name, as units are created (contracts' `heating.ts`), and floor label. */
const NAME_MAX = 120;
const FLOOR_MAX = 40;

// ---- reading a cell ----

/** A cell read as its field's value (null: empty), or the problem it has. */
export type CellReading =
  | { ok: true; value: string | number | null }
  | { ok: false; code: ProblemCode; params?: Record<string, string | number> };

/** NUL or half a surrogate pair: text PostgreSQL cannot store (decision 0030). */
const UNSTORABLE = /[\0\p{Cs}]/u;
/** Separators vendors write into EUIs and keys: `70-B3-D5…`, `70:b3:…`, `0x70b3…`, spaces. */
const hexOf = (text: string) =>
  text
    .replace(/^0x/i, '')
    .replace(/[\s:-]/g, '')
    .toLowerCase();

/**
 * A number as people write it: `21,5` and `21.5`, `1.234,5` (German thousands), an optional `°C`.
 * @returns NaN when the text is no number.
 */
export function parseDecimal(text: string): number {
  const v = text
    .trim()
    .replace(/°\s*C?$/i, '')
    .replace(/\s/g, '');
  if (/^[+-]?\d+(,\d+)?$/.test(v)) return Number(v.replace(',', '.'));
  if (/^[+-]?\d*\.\d+$/.test(v)) return Number(v);
  if (/^[+-]?\d{1,3}(\.\d{3})+(,\d+)?$/.test(v)) return Number(v.replaceAll('.', '').replace(',', '.'));
  return Number.NaN;
}

const modelKey = (text: string) => text.toLowerCase().replace(/[\s_]+/g, '-');

/**
 * The codec model a cell names: its id in any case with spaces or underscores (`MClimate Vicki`),
 * or the part after the vendor (`vicki`, `WT101`: The Things Stack's `model_id`); undefined if none.
 */
export function matchModel(text: string): DeviceModel | undefined {
  const key = modelKey(text.trim());
  return DEVICE_MODELS.find((model) => model === key || model.slice(model.indexOf('-') + 1) === key);
}

/**
 * `text` read as the value of `field`: trimmed; EUIs and AppKeys as lowercase hex without
 * separators; limits as °C numbers; the model as its id. Checks form only — whether a name
 * exists is the server's to say.
 */
export function readImportCell(field: ImportField, text: string): CellReading {
  const value = text.trim();
  if (value === '') return { ok: true, value: null };
  if (UNSTORABLE.test(value)) return { ok: false, code: 'import_text_invalid' };
  switch (field) {
    case 'devEui':
    case 'joinEui': {
      const hex = hexOf(value);
      return /^[0-9a-f]{16}$/.test(hex)
        ? { ok: true, value: hex }
        : { ok: false, code: 'import_eui_invalid', params: { value } };
    }
    case 'appKey': {
      const hex = hexOf(value);
      // The key itself is not echoed: problems end up on screens and in logs.
      return /^[0-9a-f]{32}$/.test(hex)
        ? { ok: true, value: hex }
        : { ok: false, code: 'import_app_key_invalid' };
    }
    case 'model': {
      const model = matchModel(value);
      return model
        ? { ok: true, value: model }
        : { ok: false, code: 'import_model_unknown', params: { value } };
    }
    case 'wallControlMin':
    case 'wallControlMax': {
      const number = parseDecimal(value);
      return Number.isFinite(number)
        ? { ok: true, value: number }
        : { ok: false, code: 'import_number_invalid', params: { value } };
    }
    case 'floor':
      return value.length > FLOOR_MAX
        ? { ok: false, code: 'import_text_too_long', params: { max: FLOOR_MAX } }
        : { ok: true, value };
    default:
      return value.length > NAME_MAX
        ? { ok: false, code: 'import_text_too_long', params: { max: NAME_MAX } }
        : { ok: true, value };
  }
}

// ---- mapping and defaults ----

/** `{ field: schema }` for each of `fields`, keeping the field names in the type. */
function fieldShape<const F extends readonly string[], S extends z.ZodType>(fields: F, schema: S) {
  return Object.fromEntries(fields.map((field) => [field, schema])) as { [K in F[number]]: S };
}

/** A column header; empty means "no column". */
const column = z.string().trim().max(200).optional();
/** A default as a cell would hold it; empty means "none". */
const defaultValue = z.string().trim().max(200).optional();

/** Field → column header of the file, for the fields of either kind. */
export const ImportMappingSchema = z.strictObject(fieldShape(ALL_IMPORT_FIELDS, column));
export type ImportMapping = z.infer<typeof ImportMappingSchema>;
/** Field → value for rows whose column is missing or empty. */
export const ImportDefaultsSchema = z.strictObject(
  fieldShape([...DEFAULTABLE_IMPORT_FIELDS.units, ...DEFAULTABLE_IMPORT_FIELDS.devices], defaultValue),
);
export type ImportDefaults = z.infer<typeof ImportDefaultsSchema>;

/** `PUT …/imports/{kind}/mapping`: the mapping and defaults to remember for the kind. */
export const ImportSettingsSchema = z.object({
  mapping: ImportMappingSchema,
  defaults: ImportDefaultsSchema.default({}),
});
export type ImportSettings = z.infer<typeof ImportSettingsSchema>;

const filled = (text: string | undefined) => text !== undefined && text.trim() !== '';

/**
 * The settings of one kind: only its fields; each required field mapped to a column or given a
 * default (`import_field_unmapped`); each default a value its field takes (the cell rules).
 */
export function importSettingsSchema(kind: ImportKind) {
  return z
    .object({
      mapping: z.strictObject(fieldShape(IMPORT_FIELDS[kind], column)),
      defaults: z.strictObject(fieldShape(DEFAULTABLE_IMPORT_FIELDS[kind], defaultValue)).default({}),
    })
    .superRefine(({ mapping, defaults }, ctx) => {
      const given = defaults as Partial<Record<ImportField, string>>;
      const mapped = mapping as Partial<Record<ImportField, string>>;
      for (const field of REQUIRED_IMPORT_FIELDS[kind]) {
        if (filled(mapped[field]) || filled(given[field])) continue;
        ctx.addIssue({
          code: 'custom',
          path: ['mapping', field],
          message: 'Map this field to a column or give it a default.',
          params: { code: 'import_field_unmapped' },
        });
      }
      for (const [field, value] of Object.entries(given)) {
        const reading = readImportCell(field as ImportField, value ?? '');
        if (!reading.ok)
          ctx.addIssue({
            code: 'custom',
            path: ['defaults', field],
            message: 'This default is not a value the field takes.',
            params: { code: reading.code, params: reading.params },
          });
      }
    });
}

export const ImportKindParamsSchema = z.object({ companyId: z.string(), kind: ImportKindSchema });

/** A query parameter holding JSON text, parsed and checked by `schema`. */
const jsonParam = <S extends z.ZodType>(schema: S) =>
  z
    .string()
    .max(8000)
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'must be JSON' });
        return z.NEVER;
      }
    })
    .pipe(schema);

/** `GET …/mapping?columns=["dev_eui","app_key"]`: the file's headers, to suggest a mapping from. */
export const ImportMappingQuerySchema = z.object({
  columns: jsonParam(z.array(z.string().max(200)).max(500))
    .describe('The file\'s column headers as a JSON array, e.g. ["dev_eui","app_key"]')
    .optional(),
});

/**
 * `POST …/dry-run` and `…/commit`: the mapping and defaults as JSON text; without them the
 * company's remembered ones, else a mapping suggested from the file's headers.
 */
export const ImportRunQuerySchema = z.object({
  mapping: jsonParam(ImportMappingSchema)
    .describe('Field → column header as JSON, e.g. {"devEui":"dev_eui","appKey":"app_key"}')
    .optional(),
  defaults: jsonParam(ImportDefaultsSchema)
    .describe('Field → value for empty or missing cells as JSON, e.g. {"model":"mclimate-vicki"}')
    .optional(),
});

/** The remembered (or, `remembered: false`, suggested) mapping and defaults of a kind. */
export const ImportMappingAnswerSchema = z.object({
  kind: ImportKindSchema,
  mapping: ImportMappingSchema,
  defaults: ImportDefaultsSchema,
  remembered: z.boolean(),
  updatedAt: z.iso.datetime().nullable(),
});
export type ImportMappingAnswer = z.infer<typeof ImportMappingAnswerSchema>;

// ---- answers ----

/** The first rows of an uploaded file, to map its columns (the web previews CSV itself). */
export const ImportPreviewSchema = z.object({
  format: z.enum(['csv', 'xlsx']),
  columns: z.array(z.string()),
  rows: z.array(z.array(z.string())),
  /** Rows below the header (empty ones not counted). */
  rowCount: z.number().int(),
});
export type ImportPreview = z.infer<typeof ImportPreviewSchema>;

export const ImportProblemSchema = z.object({
  /** The row as in the file (the header is row 1); null for the file as a whole (licences). */
  row: z.number().int().nullable(),
  field: ImportFieldSchema.nullable(),
  /** The column the value came from; null when it came from a default or concerns no column. */
  column: z.string().nullable(),
  /** A problem code (`problem-codes.ts`), translated by the web with `params`. */
  code: z.string(),
  params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
});
export type ImportProblem = z.infer<typeof ImportProblemSchema>;

/** What a dry run found; `problems` lists at most IMPORT_MAX_PROBLEMS of `problemCount`. */
export const ImportCheckSchema = z.object({
  kind: ImportKindSchema,
  rowCount: z.number().int(),
  problemCount: z.number().int(),
  problems: z.array(ImportProblemSchema),
  /** Devices: free licences and the ones the file needs; null for units or unlimited licences. */
  licences: z.object({ free: z.number().int(), needed: z.number().int() }).nullable(),
  /** The mapping and defaults the check applied (given, remembered or suggested). */
  mapping: ImportMappingSchema,
  defaults: ImportDefaultsSchema,
});
export type ImportCheck = z.infer<typeof ImportCheckSchema>;

export const ImportResultSchema = z.object({
  kind: ImportKindSchema,
  /** Units or devices created. */
  created: z.number().int(),
  /** Devices created with a unit (their setpoint is queued at once). */
  assigned: z.number().int(),
});
export type ImportResult = z.infer<typeof ImportResultSchema>;

/**
 * A line of the commit's NDJSON answer (`Accept: application/x-ndjson`): progress while the rows
 * are written, then the result, or — if the import failed after the answer began — the problem.
 */
export const ImportStreamLineSchema = z.union([
  z.object({ done: z.number().int(), total: z.number().int() }),
  z.object({ result: ImportResultSchema }),
  z.object({ error: ProblemSchema }),
]);
export type ImportStreamLine = z.infer<typeof ImportStreamLineSchema>;

/** Content types an upload may have; the server tells CSV from XLSX by the bytes themselves. */
export const IMPORT_CONTENT_TYPES = {
  csv: 'text/csv',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
} as const;

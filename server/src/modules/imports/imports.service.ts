/**
 * Bulk import of units and devices (decision 0063). Members who may create units and devices
 * (`operate`) preview a file, map its columns (the company's last mapping is remembered), check
 * it in a dry run that writes nothing, and commit it: the same checks again under the company's
 * row lock, then every row in one transaction — all or nothing — in multi-row inserts of
 * IMPORT_CHUNK rows, reporting progress after each. Devices need free licences as the devices
 * service requires (modules/billing/licences.ts); AppKeys are encrypted as it does.
 */
import {
  IMPORT_PREVIEW_ROWS,
  type ImportCheck,
  type ImportDefaults,
  type ImportKind,
  type ImportMapping,
  type ImportMappingAnswer,
  type ImportPreview,
  type ImportResult,
  importSettingsSchema,
} from '@heizplan/contracts/imports';
import { API_TOKEN_PRINCIPAL } from '../../auth/api-token-auth.ts';
import { requireMember } from '../../auth/membership.ts';
import type { Db } from '../../db/client.ts';
import { findCompanyHeating } from '../../heating/inputs.ts';
import { badRequest, type FieldError, notFound } from '../../http/errors.ts';
import { insertAuditEntry } from '../audit/audit.service.ts';
import type { LicencePolicy } from '../billing/licences.ts';
import type { AppKeyCipher } from '../devices/app-key-cipher.ts';
import { countDevices } from '../devices/devices.service.ts';
import { lockUnitNames, takenUnitNames } from '../units/units.service.ts';
import {
  checkDevices,
  checkUnits,
  type DeviceInsert,
  ImportProblems,
  nameKey,
  readRows,
  type UnitInsert,
} from './import-check.ts';
import { type ImportTable, readImportFile } from './import-file.ts';
import { defaultsOf, fitMapping, mappingOf, suggestMapping } from './import-mapping.ts';
import { commitError, refuseProblems } from './import-refusal.ts';
import * as repo from './imports.repository.ts';

/** Rows per insert statement: progress steps, and a bound on one statement's arrays. */
export const IMPORT_CHUNK = 1000;

export interface ImportsServiceDeps {
  db: Db;
  now: () => Date;
  /** Resolves the AppKey cipher, as the devices service does. */
  cipher: () => Promise<AppKeyCipher>;
  licences: LicencePolicy;
  /** Wakes the heating scheduler: imported units are due at once. */
  wake: () => void;
  /** Told of imported devices with a unit, so their setpoint is queued now (the devices service's port). */
  assigned?: ((deviceIds: string[]) => void) | undefined;
}

/** What the run endpoints may give; missing parts come from the remembered or suggested mapping. */
export interface RunSettings {
  mapping?: ImportMapping | undefined;
  defaults?: ImportDefaults | undefined;
}

/** A commit whose rows passed the check, to be written by `run`. */
export interface PreparedImport {
  /** Rows to write. */
  total: number;
  /**
   * Writes every row in one transaction. `started` is called once the rows passed the check
   * again under the company's lock (before, a refusal throws and nothing has begun);
   * `progress` after each chunk with the rows written so far.
   * @throws HttpError 409 `import_conflict` when the data changed since the check.
   */
  run(started: () => void, progress: (done: number) => void): Promise<ImportResult>;
}

interface Checked {
  problems: ImportProblems;
  units: UnitInsert[];
  devices: DeviceInsert[];
  licences: ImportCheck['licences'];
}

const noFile = () =>
  badRequest('Send the file (CSV or XLSX) as the request body.', undefined, { code: 'import_file_empty' });

export class ImportsService {
  constructor(private readonly deps: ImportsServiceDeps) {}

  /** The header and first rows of `file`, to map its columns. @throws HttpError 400/404/403 */
  async preview(userId: string, companyId: string, file: Buffer | null | undefined): Promise<ImportPreview> {
    await requireMember(this.deps.db, userId, companyId, 'operate');
    const table = await this.read(file);
    return {
      format: table.format,
      columns: table.columns,
      rows: table.rows
        .slice(0, IMPORT_PREVIEW_ROWS)
        .map((r) => table.columns.map((_, i) => r.cells[i] ?? '')),
      rowCount: table.rows.length,
    };
  }

  /**
   * The mapping and defaults the company used last for `kind`, fitted to `columns` when given
   * (fields whose column the file lacks take a suggestion); none remembered: a mapping suggested
   * from `columns`.
   */
  async mapping(
    userId: string,
    companyId: string,
    kind: ImportKind,
    columns?: string[],
  ): Promise<ImportMappingAnswer> {
    await requireMember(this.deps.db, userId, companyId, 'operate');
    const stored = await repo.findMapping(this.deps.db, companyId, kind);
    if (!stored)
      return {
        kind,
        mapping: columns ? suggestMapping(kind, columns) : {},
        defaults: {},
        remembered: false,
        updatedAt: null,
      };
    return {
      kind,
      mapping: columns ? fitMapping(kind, stored.mapping, columns) : mappingOf(kind, stored.mapping),
      defaults: defaultsOf(kind, stored.defaults),
      remembered: true,
      updatedAt: stored.updatedAt.toISOString(),
    };
  }

  /**
   * Remembers the mapping and defaults of `kind`.
   * @throws HttpError 400 for a field of the other kind, a required field without column or
   *   default (`import_field_unmapped`), or a default its field does not take.
   */
  async saveMapping(
    userId: string,
    companyId: string,
    kind: ImportKind,
    settings: { mapping: ImportMapping; defaults: ImportDefaults },
  ): Promise<ImportMappingAnswer> {
    await requireMember(this.deps.db, userId, companyId, 'operate');
    const parsed = importSettingsSchema(kind).safeParse(settings);
    if (!parsed.success) {
      const errors: FieldError[] = parsed.error.issues.map((issue) => {
        const rule = (issue as { params?: { code?: FieldError['code']; params?: FieldError['params'] } })
          .params;
        return {
          field: ['body', ...issue.path.map(String)].join('.'),
          message: issue.message,
          ...(rule?.code ? { code: rule.code, ...(rule.params ? { params: rule.params } : {}) } : {}),
        };
      });
      throw badRequest(errors[0]?.message ?? 'Invalid mapping.', errors);
    }
    const row = await repo.saveMapping(
      this.deps.db,
      companyId,
      kind,
      mappingOf(kind, parsed.data.mapping),
      defaultsOf(kind, parsed.data.defaults),
    );
    if (!row) throw notFound('Company not found.');
    return {
      kind,
      mapping: row.mapping,
      defaults: row.defaults,
      remembered: true,
      updatedAt: row.updatedAt.toISOString(),
    };
  }

  /** Checks every row of `file` as a commit would, and writes nothing. @throws HttpError 400/403/404 */
  async dryRun(
    userId: string,
    companyId: string,
    kind: ImportKind,
    file: Buffer | null | undefined,
    given: RunSettings,
  ): Promise<ImportCheck> {
    await requireMember(this.deps.db, userId, companyId, 'operate');
    const table = await this.read(file);
    const { mapping, defaults } = await this.settings(companyId, kind, table.columns, given);
    const checked = await this.check(this.deps.db, companyId, kind, table, mapping, defaults);
    return {
      kind,
      rowCount: table.rows.length,
      problemCount: checked.problems.count,
      problems: checked.problems.sorted(),
      licences: checked.licences,
      mapping,
      defaults,
    };
  }

  /**
   * Checks `file` and, when every row passed, returns the write to run.
   * @throws HttpError 400 `import_has_problems` (every problem in `errors`), 409
   *   `import_licences_short` when only licences are missing; 403/404 as every company route.
   */
  async prepareCommit(
    userId: string,
    companyId: string,
    kind: ImportKind,
    file: Buffer | null | undefined,
    given: RunSettings,
  ): Promise<PreparedImport> {
    await requireMember(this.deps.db, userId, companyId, 'operate');
    const table = await this.read(file);
    const { mapping, defaults } = await this.settings(companyId, kind, table.columns, given);
    refuseProblems((await this.check(this.deps.db, companyId, kind, table, mapping, defaults)).problems);
    const cipher = kind === 'devices' ? await this.deps.cipher() : undefined;
    return {
      total: table.rows.length,
      run: (started, progress) =>
        this.write({ userId, companyId, kind, table, mapping, defaults, cipher }, started, progress),
    };
  }

  private async read(file: Buffer | null | undefined): Promise<ImportTable> {
    if (!file || file.length === 0) throw noFile();
    return readImportFile(file);
  }

  /** Given settings, else the remembered ones fitted to the file, else a suggestion. */
  private async settings(companyId: string, kind: ImportKind, columns: string[], given: RunSettings) {
    const stored =
      given.mapping && given.defaults ? undefined : await repo.findMapping(this.deps.db, companyId, kind);
    const mapping = given.mapping
      ? mappingOf(kind, given.mapping)
      : stored
        ? fitMapping(kind, stored.mapping, columns)
        : suggestMapping(kind, columns);
    const defaults = defaultsOf(kind, given.defaults ?? stored?.defaults ?? {});
    return { mapping, defaults };
  }

  /** Every row read and checked against the company's data on `db` (a transaction when writing). */
  private async check(
    db: Db,
    companyId: string,
    kind: ImportKind,
    table: ImportTable,
    mapping: ImportMapping,
    defaults: ImportDefaults,
  ): Promise<Checked> {
    const problems = new ImportProblems();
    const drafts = readRows(kind, table, mapping, defaults, problems);
    const names = (field: 'name' | 'unit') => [
      ...new Set(
        drafts.flatMap((d) => (typeof d.values[field] === 'string' ? [nameKey(d.values[field])] : [])),
      ),
    ];
    if (kind === 'units') {
      const company = await findCompanyHeating(db, companyId);
      if (!company) throw notFound('Company not found.');
      // One after another: `db` may be a transaction, whose one connection runs one query at a time.
      const buildings = await repo.companyBuildings(db, companyId);
      const groups = await repo.companyGroups(db, companyId);
      const taken = await takenUnitNames(db, companyId, names('name'));
      const units = checkUnits(
        drafts,
        {
          buildings: new Map(buildings.map((b) => [nameKey(b.name), b])),
          groups: new Map(groups.map((g) => [nameKey(g.name), g.id])),
          takenNames: new Set(taken.map(nameKey)),
          range: { min: company.minTemperature, max: company.maxTemperature },
        },
        problems,
      );
      return { problems, units, devices: [], licences: null };
    }
    const euis = drafts.flatMap((d) => (typeof d.values.devEui === 'string' ? [d.values.devEui] : []));
    const units = await repo.unitsNamed(db, companyId, names('unit'));
    const registered = await repo.registeredDevices(db, euis);
    const usable = await this.deps.licences.usable(db, companyId);
    const count = await countDevices(db, companyId);
    const devices = checkDevices(
      drafts,
      {
        units: new Map(units.map((u) => [nameKey(u.name), u.id])),
        registered: new Map(registered.map((r) => [r.id, r.companyId === companyId ? 'own' : 'other'])),
      },
      problems,
    );
    const licences = usable === null ? null : { free: Math.max(0, usable - count), needed: drafts.length };
    if (licences && licences.needed > licences.free)
      problems.add(null, null, null, 'import_licences_short', { ...licences });
    return { problems, units: [], devices, licences };
  }

  private async write(
    job: {
      userId: string;
      companyId: string;
      kind: ImportKind;
      table: ImportTable;
      mapping: ImportMapping;
      defaults: ImportDefaults;
      cipher: AppKeyCipher | undefined;
    },
    started: () => void,
    progress: (done: number) => void,
  ): Promise<ImportResult> {
    const { userId, companyId, kind, table, mapping, defaults, cipher } = job;
    const now = this.deps.now();
    const result = await this.deps.db
      .transaction(async (tx) => {
        // Serialises with device registrations (licences) and unit naming, as those services do.
        await lockUnitNames(tx, companyId);
        const checked = await this.check(tx, companyId, kind, table, mapping, defaults);
        refuseProblems(checked.problems, true);
        started();
        const rows = kind === 'units' ? checked.units : checked.devices;
        for (let done = 0; done < rows.length; done += IMPORT_CHUNK) {
          if (kind === 'units') {
            await repo.insertUnitRows(
              tx,
              companyId,
              userId,
              checked.units.slice(done, done + IMPORT_CHUNK),
              now,
            );
          } else {
            const chunk = checked.devices.slice(done, done + IMPORT_CHUNK).map(({ appKey, ...device }) => ({
              ...device,
              appKeyEncrypted: appKey && cipher ? cipher.encrypt(appKey, device.devEui) : null,
              appKeyLast4: appKey ? appKey.slice(-4) : null,
            }));
            await repo.insertDeviceRows(tx, companyId, userId, chunk);
          }
          progress(Math.min(rows.length, done + IMPORT_CHUNK));
        }
        await repo.saveMapping(tx, companyId, kind, mapping, defaults);
        const assigned = checked.devices.filter((d) => d.unitId !== null).map((d) => d.devEui);
        const outcome: ImportResult = { kind, created: rows.length, assigned: assigned.length };
        // The audit hook skips this route (it answers before the rows are written): the entry is
        // written here, in the import's transaction, so it exists exactly when the rows do.
        await insertAuditEntry(tx, {
          companyId,
          actorId: userId,
          fallbackName: userId,
          actorKind: userId.startsWith(API_TOKEN_PRINCIPAL) ? 'token' : 'member',
          method: 'POST',
          route: '/api/companies/{companyId}/imports/{kind}/commit',
          resource: 'imports',
          resourceId: kind,
          fields: { ...outcome, format: table.format, rows: table.rows.length, mapping, defaults },
          status: 200,
        });
        return { outcome, assigned };
      })
      .catch((error: unknown) => {
        throw commitError(error);
      });
    if (kind === 'units') this.deps.wake();
    else this.deps.assigned?.(result.assigned);
    return result.outcome;
  }
}

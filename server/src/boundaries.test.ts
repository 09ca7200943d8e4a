/**
 * The server's layers run one way: routes → services → repositories, and only repositories talk
 * SQL. So a query can be found, reviewed for its company filter and changed in one place, and a
 * service can be read as rules. Three rules hold for every server source file but tests and test
 * kits (which build the world they test) and the two places SQL belongs: `*.repository.ts` files
 * and `server/src/db/`.
 * - No SQL elsewhere: no `sql` template or helper, no drizzle operator or table of the schema as a
 *   value, no query builder call (`select`, `insert`, `update`, `delete`, `execute`) on a database
 *   or transaction. Type-only imports (`import type { Db }`) are fine.
 * - The engine, the LoRaWAN side, the weather, authentication and the heat generators' outputs
 *   sit below the feature modules: nothing under `heating/`, `lorawan/`, `weather/`, `auth/` or
 *   `generators/` imports from `modules/`.
 * - A module reaches another module through its service, never its repository: the service
 *   re-exports what other modules may use of its queries.
 * The heating core is one slice (decision 0073): the engine, its inputs, their one repository,
 * the application step and the scheduler all live under `heating/`, so the second rule covers
 * them; and the heating log's kinds — the setpoint sources — are defined in
 * packages/contracts/src/heating.ts alone.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = import.meta.dirname;
const REPO = path.resolve(SRC, '../..');

/** Tests and what only tests import: fixtures, test kits and helpers. */
const isTestFile = (file: string) =>
  /\.test(?:-(?:kit|helper))?\.ts$|[.-]fixtures?\.ts$|(?:^|\/)test-(?:fixtures?)\.ts$/.test(file);

const mayQuery = (file: string) => file.startsWith('db/') || file.endsWith('.repository.ts');

/** Every non-test .ts file below server/src, as a posix path relative to it. */
function serverSources(): string[] {
  return readdirSync(SRC, { recursive: true, encoding: 'utf8' })
    .map((file) => file.split(path.sep).join('/'))
    .filter((file) => file.endsWith('.ts') && !isTestFile(file))
    .sort();
}

/** Comments blanked out, line breaks kept, so offsets still give the right line. */
const stripComments = (source: string) =>
  source
    .replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, ' '))
    .replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

const lineAt = (source: string, index: number) => source.slice(0, index).split('\n').length;

interface ImportClause {
  index: number;
  typeOnly: boolean;
  /** The value bindings (inline `type X` left out); a default or namespace import counts as one. */
  values: string[];
  specifier: string;
}

/** Static imports and re-exports, with their bindings. */
function importClauses(code: string): ImportClause[] {
  const pattern =
    /\b(import|export)\s+(type\s+)?(\{[^}]*\}|\*\s+as\s+\w+|\*|[\w$]+(?:\s*,\s*\{[^}]*\})?)\s+from\s+(['"])([^'"]+)\4/g;
  return [...code.matchAll(pattern)].map((match) => {
    const bindings = match[3] as string;
    const named = bindings.match(/\{([^}]*)\}/)?.[1];
    const defaultOrNamespace = bindings.replace(/,?\s*\{[^}]*\}/, '').trim();
    const values = [
      ...(defaultOrNamespace ? [defaultOrNamespace] : []),
      ...(named ?? '')
        .split(',')
        .map((name) => name.trim())
        .filter((name) => name !== '' && !name.startsWith('type ')),
    ];
    return { index: match.index, typeOnly: Boolean(match[2]), values, specifier: match[5] as string };
  });
}

/** Module specifiers of `import()` calls and of side-effect imports. */
function otherSpecifiers(code: string): Array<{ index: number; specifier: string }> {
  const pattern = /\bimport\s*\(\s*(['"])([^'"]+)\1|\bimport\s+(['"])([^'"]+)\3/g;
  return [...code.matchAll(pattern)].map((match) => ({
    index: match.index,
    specifier: (match[2] ?? match[4]) as string,
  }));
}

const isDrizzle = (specifier: string) => /^drizzle-orm(\/|$)/.test(specifier);
const isSchema = (file: string, specifier: string) =>
  specifier.startsWith('.') &&
  /^db\/schema(\.ts$|\/)/.test(path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier)));

/** Query builder calls on something named like a database or transaction, across line breaks. */
const QUERY_CALL =
  /\b(?:db|tx|trx|database)\s*\)?\s*\.\s*(select|selectDistinct|selectDistinctOn|insert|update|delete|execute)\s*[(<]/g;
const SQL_TAG = /\bsql\s*(?:`|\.(?:raw|join|identifier|placeholder|empty)\b)/g;

/** `file: line what` for each place where `file` (relative to server/src) runs SQL. */
function sqlOffences(file: string, source: string): string[] {
  if (mayQuery(file) || isTestFile(file)) return [];
  const code = stripComments(source);
  const found: Array<[number, string]> = [];
  for (const clause of importClauses(code)) {
    if (clause.typeOnly || clause.values.length === 0) continue;
    if (isDrizzle(clause.specifier))
      found.push([clause.index, `imports ${clause.values.join(', ')} from drizzle-orm`]);
    else if (isSchema(file, clause.specifier))
      found.push([clause.index, `imports tables ${clause.values.join(', ')}`]);
  }
  for (const match of code.matchAll(SQL_TAG)) found.push([match.index, 'sql template']);
  for (const match of code.matchAll(QUERY_CALL)) found.push([match.index, `.${match[1]}( on a database`]);
  return found.sort((a, b) => a[0] - b[0]).map(([index, what]) => `${file}:${lineAt(code, index)} ${what}`);
}

/** Relative specifiers of a file with where they lead (relative to server/src) and their line. */
function targets(file: string, source: string): Array<{ line: number; target: string }> {
  const code = stripComments(source);
  return [...importClauses(code), ...otherSpecifiers(code)]
    .filter(({ specifier }) => specifier.startsWith('.'))
    .map(({ index, specifier }) => ({
      line: lineAt(code, index),
      target: path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier)),
    }));
}

const BELOW_MODULES = ['heating/', 'lorawan/', 'weather/', 'auth/', 'generators/'];

/** `file:line → target` for each import from a lower layer into `modules/`. */
function upwardImports(file: string, source: string): string[] {
  if (isTestFile(file) || !BELOW_MODULES.some((folder) => file.startsWith(folder))) return [];
  return targets(file, source)
    .filter(({ target }) => target.startsWith('modules/'))
    .map(({ line, target }) => `${file}:${line} → ${target}`);
}

const moduleOf = (file: string) => /^modules\/([^/]+)\//.exec(file)?.[1] ?? null;

/** `file:line → target` for each import of another module's repository. */
function foreignRepositoryImports(file: string, source: string): string[] {
  const own = moduleOf(file);
  if (isTestFile(file) || own === null) return [];
  return targets(file, source)
    .filter(({ target }) => {
      const other = moduleOf(target);
      return other !== null && other !== own && target.endsWith('.repository.ts');
    })
    .map(({ line, target }) => `${file}:${line} → ${target}`);
}

const sources = () =>
  serverSources().map((file) => ({ file, source: readFileSync(path.join(SRC, file), 'utf8') }));

describe('server boundaries', () => {
  it('reads the server: every source file but tests', () => {
    const files = serverSources();
    expect(files.length).toBeGreaterThan(100);
    expect(files).toContain('app.ts');
    expect(files).not.toContain('boundaries.test.ts');
  });

  it('runs SQL only in repositories and server/src/db', () => {
    expect(sources().flatMap(({ file, source }) => sqlOffences(file, source))).toEqual([]);
  });

  it('catches SQL outside a repository', () => {
    const source = [
      '/** A service that queries: sql`select 1` in a comment does not count. */',
      "import { and, type SQL } from 'drizzle-orm';",
      "import type { Db } from '../../db/client.ts';",
      "import { units } from '../../db/schema.ts';",
      "import type { devices } from '../../db/schema/devices.ts';",
      'export async function list(db: Db) {',
      '  await db.execute(sql`select 1`);',
      '  return db',
      '    .select()',
      '    .from(units);',
      '}',
    ].join('\n');
    expect(sqlOffences('modules/units/units.service.ts', source)).toEqual([
      'modules/units/units.service.ts:2 imports and from drizzle-orm',
      'modules/units/units.service.ts:4 imports tables units',
      'modules/units/units.service.ts:7 .execute( on a database',
      'modules/units/units.service.ts:7 sql template',
      'modules/units/units.service.ts:8 .select( on a database',
    ]);
    expect(sqlOffences('modules/units/units.repository.ts', source)).toEqual([]);
    expect(sqlOffences('db/client.ts', source)).toEqual([]);
    expect(sqlOffences('modules/units/units.test.ts', source)).toEqual([]);
    expect(
      sqlOffences('http/bearer-token.ts', "createHash('sha256').update(value); Buffer.from(x);"),
    ).toEqual([]);
  });

  it('keeps heating, lorawan, weather, auth and the generator outputs below the modules', () => {
    expect(sources().flatMap(({ file, source }) => upwardImports(file, source))).toEqual([]);
  });

  it('catches an import from a lower layer into modules/', () => {
    const source = [
      "import type { Mailer } from '../modules/me/me.ports.ts';",
      "export { evaluateAll } from '../modules/alerts/alert-evaluation.repository.ts';",
      "const lazy = () => import('../modules/units/units.service.ts');",
      "import { isUuid } from './membership.ts';",
    ].join('\n');
    expect(upwardImports('auth/account-ports.ts', source)).toEqual([
      'auth/account-ports.ts:1 → modules/me/me.ports.ts',
      'auth/account-ports.ts:2 → modules/alerts/alert-evaluation.repository.ts',
      'auth/account-ports.ts:3 → modules/units/units.service.ts',
    ]);
    expect(upwardImports('jobs/alert-jobs.ts', source)).toEqual([]);
  });

  it('reaches another module through its service, not its repository', () => {
    expect(sources().flatMap(({ file, source }) => foreignRepositoryImports(file, source))).toEqual([]);
  });

  it("catches a module importing another module's repository", () => {
    const source = [
      "import { findUnit } from '../units/units.repository.ts';",
      "import type { UnitRecord } from '../units/units.repository.ts';",
      "import { UnitsService } from '../units/units.service.ts';",
      "import { listPlans } from './plans.repository.ts';",
    ].join('\n');
    expect(foreignRepositoryImports('modules/plans/plans.service.ts', source)).toEqual([
      'modules/plans/plans.service.ts:1 → modules/units/units.repository.ts',
      'modules/plans/plans.service.ts:2 → modules/units/units.repository.ts',
    ]);
  });
});

/** The heating log's kinds, which are also the setpoint sources, as the contracts list them. */
const LOG_KINDS_FILE = 'packages/contracts/src/heating.ts';
/** Where a kind could be named: the server, the web app, the contracts and the tools. */
const KIND_ROOTS = ['server/src', 'web/src', 'packages/contracts/src', 'tools'];

/** Every non-test .ts/.tsx file below the `KIND_ROOTS`, as posix paths relative to the repository. */
function kindSources(): string[] {
  return KIND_ROOTS.flatMap((root) =>
    readdirSync(path.join(REPO, root), { recursive: true, encoding: 'utf8' })
      .map((file) => `${root}/${file.split(path.sep).join('/')}`)
      .filter(
        (file) => /\.tsx?$/.test(file) && !file.includes('node_modules') && !/\.test\.tsx?$/.test(file),
      ),
  ).sort();
}

/** The kinds as `LOG_KINDS` in the contracts lists them (read from the source: no import needed). */
function contractKinds(): string[] {
  const source = readFileSync(path.join(REPO, LOG_KINDS_FILE), 'utf8');
  const list = /export const LOG_KINDS = \[([\s\S]*?)\] as const;/.exec(stripComments(source))?.[1] ?? '';
  return [...list.matchAll(/'([a-z_]+)'/g)].map((match) => match[1] as string);
}

/** A declaration of the kinds' names: a type, schema or list called like the contracts' ones. */
const KIND_DECLARATION =
  /\b(?:type|interface|enum|const|let|var)\s+(LogKind|LogKindSchema|LOG_KINDS|SetpointSource|SetpointSourceSchema|SETPOINT_SOURCES)\b/g;
/** A literal list: an array of strings, or a union of string types, of five entries or more. */
const LITERAL_LIST =
  /\[\s*(?:(['"])[\w-]+\1\s*,\s*){4,}(['"])[\w-]+\2\s*,?\s*\]|(?:\|\s*(['"])[\w-]+\3\s*){5,}/g;

/**
 * `file:line what` for each place in `file` (relative to the repository) that defines the kinds
 * again: a declaration named like the contracts' ones, or a literal list of five kinds or more.
 */
function kindDefinitions(file: string, source: string, kinds: readonly string[]): string[] {
  if (file === LOG_KINDS_FILE) return [];
  const code = stripComments(source);
  const found: Array<[number, string]> = [];
  for (const match of code.matchAll(KIND_DECLARATION)) found.push([match.index, `declares ${match[1]}`]);
  for (const match of code.matchAll(LITERAL_LIST)) {
    const named = [...match[0].matchAll(/['"]([\w-]+)['"]/g)].filter((m) => kinds.includes(m[1] as string));
    if (named.length >= 5) found.push([match.index, `lists ${named.length} kinds`]);
  }
  return found.sort((a, b) => a[0] - b[0]).map(([index, what]) => `${file}:${lineAt(code, index)} ${what}`);
}

describe('one heating slice', () => {
  it('keeps the heating core under heating/, where the rule against importing modules/ reads it', () => {
    const files = serverSources();
    expect(files.filter((file) => file.startsWith('scheduling/'))).toEqual([]);
    expect(files).not.toContain('jobs/heating-scheduler.ts');
    for (const file of [
      'heating/engine/engine.ts',
      'heating/inputs.ts',
      'heating/inputs.repository.ts',
      'heating/inputs-changed.ts',
      'heating/apply.ts',
      'heating/scheduler.ts',
      'heating/calendar-closures.ts',
      'heating/holidays.ts',
      'heating/closure-coverage.ts',
    ])
      expect(files).toContain(file);
    const heating = sources().filter(({ file }) => file.startsWith('heating/'));
    expect(heating.flatMap(({ file, source }) => upwardImports(file, source))).toEqual([]);
  });

  it('defines the heating log kinds and setpoint sources in the contracts alone', () => {
    const kinds = contractKinds();
    expect(kinds).toContain('regular_plan');
    expect(kinds.length).toBeGreaterThan(10);
    const found = kindSources().flatMap((file) =>
      kindDefinitions(file, readFileSync(path.join(REPO, file), 'utf8'), kinds),
    );
    expect(found).toEqual([]);
    // The engine's and the schema's kinds are the contracts' (no copy to keep in step).
    const engineTypes = readFileSync(path.join(SRC, 'heating/engine/types.ts'), 'utf8');
    expect(engineTypes).toMatch(/import type \{ LogKind \} from '@heizplan\/contracts\/heating';/);
    const schema = readFileSync(path.join(SRC, 'db/schema/heating.ts'), 'utf8');
    expect(schema).toMatch(/import \{ LOG_KINDS \} from '@heizplan\/contracts\/heating';/);
  });

  it('catches a second definition of the kinds', () => {
    const kinds = ['regular_plan', 'group_plan', 'one_time_start', 'one_time_end', 'paused', 'resumed'];
    const source = [
      "export type LogKind = 'regular_plan' | 'group_plan';",
      "export const LOG_KINDS = ['regular_plan', 'group_plan', 'one_time_start', 'one_time_end', 'paused'] as const;",
      "type Source =\n  | 'regular_plan'\n  | 'group_plan'\n  | 'one_time_start'\n  | 'one_time_end'\n  | 'paused';",
      "const modes = ['frost', 'economy', 'standby', 'off', 'on'];",
      "const sources = ['regular_plan', 'paused'];",
    ].join('\n');
    expect(kindDefinitions('server/src/heating/engine/types.ts', source, kinds)).toEqual([
      'server/src/heating/engine/types.ts:1 declares LogKind',
      'server/src/heating/engine/types.ts:2 declares LOG_KINDS',
      'server/src/heating/engine/types.ts:2 lists 5 kinds',
      'server/src/heating/engine/types.ts:4 lists 5 kinds',
    ]);
    expect(kindDefinitions(LOG_KINDS_FILE, source, kinds)).toEqual([]);
  });
});

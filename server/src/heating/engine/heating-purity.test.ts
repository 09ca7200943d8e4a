/**
 * The heating engine stays pure: its answers depend on its arguments only, which is what lets
 * the scheduler, the preview and the property tests trust one implementation. So nothing in
 * server/src/heating/engine imports the database, the network, the file system or the server
 * (db/, drizzle-orm, pg, mqtt, fastify, node:* …) — nor the rest of server/src/heating, which reads
 * the engine's inputs and applies its answers — and its code reads no clock, environment or timer.
 * A bare package is allowed only when it is listed below as pure.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ENGINE = import.meta.dirname;
const SELF = path.basename(import.meta.filename);

/** Packages without I/O the engine may use; test files may use the test tools as well. */
const PURE_PACKAGES = ['luxon', '@heizplan/contracts', 'simple-statistics'];
const TEST_PACKAGES = ['vitest', 'fast-check'];

/** Named so a failure says why, although anything not listed as pure fails anyway. */
const IO_MODULES = [
  'drizzle-orm',
  'pg',
  '@electric-sql/pglite',
  'mqtt',
  'aedes',
  'fastify',
  'nodemailer',
  'stripe',
  'oidc-provider',
  'pdfkit',
  'prom-client',
  '@sentry/node',
];

/** Globals through which code reads the clock, the environment or the network, or schedules work. */
const IMPURE_GLOBALS: Array<[RegExp, string]> = [
  [/\bDate\.now\s*\(/, 'Date.now()'],
  [/\bnew Date\s*\(\s*\)/, 'new Date()'],
  [/\bDateTime\.(?:now|local)\s*\(\s*\)/, 'DateTime.now()'],
  [/\bprocess\./, 'process'],
  [/\bfetch\s*\(/, 'fetch()'],
  [/\bset(?:Timeout|Interval|Immediate)\s*\(/, 'timers'],
];

const stripComments = (source: string) =>
  source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|\s)\/\/.*$/gm, '$1');

/** Module specifiers of a source: imports and re-exports (type-only too), `import()` and `require()`. */
function specifiers(source: string): string[] {
  const pattern = /(?:\bfrom|\bimport|\bimport\s*\(|\brequire\s*\()\s*(['"])([^'"]+)\1/g;
  return [...stripComments(source).matchAll(pattern)].map((match) => match[2] as string);
}

const packageOf = (specifier: string) =>
  specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : (specifier.split('/')[0] ?? '');

/** Why `specifier`, imported by `file` in server/src/heating/engine, breaks the rule; null when it does not. */
function impurity(file: string, specifier: string): string | null {
  if (specifier.startsWith('.')) {
    const target = path.resolve(ENGINE, path.dirname(file), specifier);
    const inside = !path.relative(ENGINE, target).startsWith('..');
    return inside ? null : 'leaves server/src/heating/engine';
  }
  if (specifier.startsWith('node:')) return 'a Node built-in';
  const name = packageOf(specifier);
  if (IO_MODULES.includes(name)) return 'does I/O';
  const isTest = /\.test\.ts$|^test-support\.ts$/.test(path.basename(file));
  if (PURE_PACKAGES.includes(name) || (isTest && TEST_PACKAGES.includes(name))) return null;
  return 'not a known pure package (a Node built-in, or a package to add to PURE_PACKAGES once checked)';
}

function engineFiles(): string[] {
  return readdirSync(ENGINE, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && file !== SELF)
    .sort();
}

describe('heating engine purity', () => {
  it('imports nothing that does I/O, from no file outside server/src/heating/engine', () => {
    const files = engineFiles();
    expect(files).toContain('engine.ts');
    const found = files.flatMap((file) =>
      specifiers(readFileSync(path.join(ENGINE, file), 'utf8')).flatMap((specifier) => {
        const why = impurity(file, specifier);
        return why ? [`${file} → ${specifier}: ${why}`] : [];
      }),
    );
    expect(found).toEqual([]);
  });

  it('reads no clock, environment or network through globals', () => {
    const found = engineFiles()
      .filter((file) => !/\.test\.ts$/.test(file))
      .flatMap((file) => {
        const code = stripComments(readFileSync(path.join(ENGINE, file), 'utf8'));
        return IMPURE_GLOBALS.filter(([pattern]) => pattern.test(code)).map(([, what]) => `${file}: ${what}`);
      });
    expect(found).toEqual([]);
  });

  it('refuses what the engine must not use', () => {
    const refused = [
      '../db/client.ts',
      '../inputs.ts',
      '../../db/client.ts',
      '../lorawan/mqtt-sessions.ts',
      'drizzle-orm',
      'drizzle-orm/pg-core',
      'pg',
      'mqtt',
      'fastify',
      '@fastify/static',
      'node:fs',
      'node:net',
      'fs',
      'vitest',
    ];
    expect(refused.filter((specifier) => impurity('engine.ts', specifier) === null)).toEqual([]);
    expect(impurity('plans.test.ts', 'vitest')).toBeNull();
    expect(impurity('engine.ts', 'luxon')).toBeNull();
    expect(impurity('engine.ts', './types.ts')).toBeNull();
    expect(specifiers("import type {\n  A,\n} from 'pg';\nconst m = await import('node:fs');")).toEqual([
      'pg',
      'node:fs',
    ]);
  });
});

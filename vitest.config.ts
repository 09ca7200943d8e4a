/**
 * One runner for every tier (docs/architecture.md): server unit and integration tests on PGlite,
 * or, when TEST_DATABASE_URL is set, the integration tests on PostgreSQL and those where the drivers
 * can differ on both (DRIVER_SENSITIVE), web component tests in jsdom, and browser journeys (playwright-core + Debian Chromium) in web/e2e. A test
 * about one database only says so in its name — `*.pg.test.ts` (PostgreSQL: pg_dump, a cut
 * connection, two instances) or `*.pglite.test.ts` (the embedded database) — and runs in that
 * project only, instead of being skipped in the other.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { parseEnv } from './web/src/config/env-schema.ts';

const onPg = Boolean(process.env.TEST_DATABASE_URL);

/**
 * What makes a server test an integration test: it opens a database, an app, a broker, a Modbus
 * TCP server (`ServerTCP`, the heat generators' outputs) or an identity provider itself or
 * through a shared fixture. Every other server test is a unit test (the engine, codecs, parsers,
 * contracts) and runs in the `unit` project: no database, no broker, no browser, seconds for all
 * of them (`npm run test:unit`), and once, not again on PostgreSQL.
 */
const NEEDS_A_WORLD =
  /createTestDatabase|buildTestApp|startInstance|useFaultRig|openDatabase|startEmbeddedBroker|identity\.test-kit|test-fixture|TEST_MQTT_URL|\.fixtures\.ts|test-fixtures|test-kit|createServer|ServerTCP|spawn\(/;

/** The test files below `dir` whose names match `name` (default `*.test.ts`), as posix paths. */
function testFiles(dir: string, name = /\.test\.ts$/): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => name.test(file) && !file.includes('node_modules'))
    .map((file) => path.join(dir, file).split(path.sep).join('/'));
}

const unitTests = ['server/src', 'packages/contracts/src', 'tools']
  .flatMap((dir) => testFiles(dir))
  .filter((file) => !file.endsWith('.pg.test.ts') && !NEEDS_A_WORLD.test(readFileSync(file, 'utf8')));
/**
 * Where the two drivers can differ, so these run on PGlite too when PostgreSQL is there: the
 * database layer itself (opening, the migrated template, backups), readiness (it pings the
 * driver), the retention's partitions, and the app as the quick start wires it. Every other
 * integration file runs once, on PostgreSQL where it is there, and on PGlite elsewhere: the drivers
 * hand the app the same values (server/src/db/driver-parity.pg.test.ts), and on PostgreSQL a query
 * that would wait forever on PGlite's one connection fails (`waitLikePglite`,
 * server/test/helpers.ts). PGlite runs PostgreSQL in WebAssembly inside the test process: the same
 * files cost it about three times the CPU (decision 0065).
 */
const DRIVER_SENSITIVE = [
  'server/src/db/**/*.test.ts',
  'server/src/**/*.pglite.test.ts',
  'server/src/modules/health/health.test.ts',
  'server/src/modules/reports/rollups.test.ts',
  'server/src/app.test.ts',
];
/** Every server test that needs a world: the `server` project's files without the unit tests. */
const SERVER_TESTS = ['server/src/**/*.test.ts', 'packages/contracts/src/**/*.test.ts', 'tools/**/*.test.ts'];

/**
 * The nightly-style check, in every run: the files that once failed by the time of day run again
 * at the instants that broke them — just after midnight (the units page's deviation tip), before
 * and at the 06:00–07:00 switch points (optimum start, a closure's switch), and the minute before
 * the spring DST change — through `HEIZPLAN_TEST_NOW`, which their fixed clocks start from
 * (`testInstant` in server/test/clock.ts, `testNow` in web/src/test/clock.ts).
 */
const INSTANTS: Record<string, string> = {
  '0015': '2026-12-02T00:15:00+01:00',
  '0530': '2026-12-02T05:30:00+01:00',
  '0659': '2026-12-02T06:59:00+01:00',
  dst: '2027-03-28T01:59:00+01:00',
};
const TIME_SENSITIVE_SERVER = [
  'server/src/modules/closures/closures.scheduler.test.ts',
  'server/src/modules/plans/optimum-start.test.ts',
];
const TIME_SENSITIVE_WEB = ['web/src/app/routes/units-page.test.tsx'];
/**
 * Web component tests that replace a module with `vi.mock`: they run in a project of their own with
 * a fresh module graph per file, since a mock would otherwise stay in the module graph that the
 * `web` project's files share in one worker.
 */
const mockingWebTests = testFiles('web/src', /\.test\.tsx?$/).filter((file) =>
  readFileSync(file, 'utf8').includes('vi.mock('),
);

/**
 * A web component project in jsdom: `include`d files, `env` on top of the machine's. By default
 * the files of one worker share one module graph (`isolate: false`): importing React, the router
 * and the screens again for each file and setting up its jsdom cost 500 s of CPU for 71 files,
 * 190 s without the imports (decision 0065). The setup (web/src/test/setup.ts) starts each file
 * with empty storage, German and an empty query cache, whatever the file before left behind.
 */
function webProject(
  name: string,
  include: string[],
  env: Record<string, string> = {},
  { isolate = false, exclude = [] as string[] } = {},
) {
  return {
    plugins: [react()],
    // The web app's settings as web/vite.config.ts defines them, with every default; a fresh
    // object per project, since Vite takes a project's `define` over.
    define: { __HEIZPLAN_ENV__: JSON.stringify(parseEnv({})) },
    test: {
      name,
      environment: 'jsdom',
      // Worker threads start and share memory cheaper than forked processes: `npm run test:unit`
      // 88 → 82 s on the two-core machine (decision 0065). Nothing here needs a process of its own.
      pool: 'threads' as const,
      isolate,
      // Screens render behind the guards' stubbed calls; a loaded CI machine needs the room.
      testTimeout: 20_000,
      include,
      exclude: ['**/node_modules/**', ...exclude],
      env,
      setupFiles: ['./scripts/vitest-setup.ts', './web/src/test/setup.ts'],
    },
  };
}

export default defineConfig({
  test: {
    // Vitest's default on two cores is one file at a time, yet most files wait on PostgreSQL,
    // Mosquitto, a timer or Chromium rather than compute: three at a time keep both cores busy
    // (the whole suite 26 → under 20 min on the CI machine).
    maxWorkers: 3,
    setupFiles: ['./scripts/vitest-setup.ts'],
    projects: [
      {
        test: {
          name: 'unit',
          environment: 'node',
          // Pure tests: threads, as the web components (decision 0065).
          pool: 'threads',
          isolate: false,
          include: unitTests,
          setupFiles: ['./scripts/vitest-setup.ts'],
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'server',
          environment: 'node',
          // Each file builds its own app, database and broker and mocks no module, so files share
          // one module graph per worker instead of importing the server again: 343 → 224 s here.
          isolate: false,
          // On PGlite: all of them, or where PostgreSQL is there, those where the drivers can differ.
          include: onPg ? DRIVER_SENSITIVE : SERVER_TESTS,
          exclude: ['**/node_modules/**', 'server/src/**/*.pg.test.ts', ...unitTests],
          setupFiles: ['./scripts/vitest-setup.ts'],
          // One migrated PGlite for the run, not one per worker inside a 60 s hook.
          globalSetup: ['./server/test/pglite-template.global.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      ...(onPg
        ? [
            {
              test: {
                name: 'server-postgres',
                environment: 'node',
                isolate: false,
                include: SERVER_TESTS,
                exclude: ['**/node_modules/**', 'server/src/**/*.pglite.test.ts', ...unitTests],
                env: { HEIZPLAN_TEST_DB: 'postgres' },
                setupFiles: ['./scripts/vitest-setup.ts'],
                testTimeout: 30_000,
                hookTimeout: 60_000,
              },
            },
          ]
        : []),
      webProject('web', ['web/src/**/*.test.{ts,tsx}'], {}, { exclude: mockingWebTests }),
      webProject('web-isolated', mockingWebTests, {}, { isolate: true }),
      // The server files run every instant from one import (`testInstants`): a project per instant
      // cost an import of the server each (about 16 s under load). On PostgreSQL where it is there:
      // the hour is what varies here, not the driver, and PGlite took 51 s of CPU for what
      // PostgreSQL does in 21 s.
      {
        test: {
          name: 'server@instants',
          environment: 'node',
          isolate: false,
          include: TIME_SENSITIVE_SERVER,
          env: {
            HEIZPLAN_TEST_INSTANTS: Object.values(INSTANTS).join(','),
            ...(onPg ? { HEIZPLAN_TEST_DB: 'postgres' } : {}),
          },
          setupFiles: ['./scripts/vitest-setup.ts'],
          ...(onPg ? {} : { globalSetup: ['./server/test/pglite-template.global.ts'] }),
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      ...Object.entries(INSTANTS).map(([name, at]) =>
        webProject(`web@${name}`, TIME_SENSITIVE_WEB, { HEIZPLAN_TEST_NOW: at }),
      ),
      {
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['web/e2e/**/*.test.ts'],
          setupFiles: ['./scripts/vitest-setup.ts'],
          globalSetup: ['./web/e2e/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
          // One after another in one worker, the journeys share playwright-core and the server's
          // modules instead of importing them again per file (66 s of a loaded run); each still
          // launches its own browser and builds its own company.
          isolate: false,
        },
      },
    ],
  },
});

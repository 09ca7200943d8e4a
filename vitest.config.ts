/**
 * One runner for every tier (docs/architecture.md): server unit+integration tests on PGlite,
 * the same integration tests again on PostgreSQL when TEST_DATABASE_URL is set, web component
 * tests in jsdom, and browser journeys (playwright-core + Debian Chromium) in web/e2e. A test
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
 * What makes a server test an integration test: it opens a database, an app, a broker or an
 * identity provider itself or through a shared fixture. Every other server test is a unit test
 * (the engine, codecs, parsers, contracts) and runs in the `unit` project: no database, no broker,
 * no browser, seconds for all of them (`npm run test:unit`), and once, not again on PostgreSQL.
 */
const NEEDS_A_WORLD =
  /createTestDatabase|buildTestApp|startInstance|useFaultRig|openDatabase|startEmbeddedBroker|identity\.test-kit|test-fixture|TEST_MQTT_URL|\.fixtures\.ts|test-fixtures|test-kit|createServer|spawn\(/;

function testFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts') && !file.includes('node_modules'))
    .map((file) => path.join(dir, file).split(path.sep).join('/'));
}

const unitTests = ['server/src', 'packages/contracts/src', 'tools']
  .flatMap(testFiles)
  .filter((file) => !file.endsWith('.pg.test.ts') && !NEEDS_A_WORLD.test(readFileSync(file, 'utf8')));
const integration = [
  'server/src/modules/**/*.test.ts',
  'server/src/db/**/*.test.ts',
  'server/src/jobs/**/*.test.ts',
  'server/src/auth/**/*.test.ts',
  'server/src/http/**/*.test.ts',
  'server/src/lorawan/**/*.int.test.ts',
  'server/src/**/*.pg.test.ts',
];

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
          include: ['server/src/**/*.test.ts', 'packages/contracts/src/**/*.test.ts', 'tools/**/*.test.ts'],
          exclude: ['**/node_modules/**', 'server/src/**/*.pg.test.ts', ...unitTests],
          setupFiles: ['./scripts/vitest-setup.ts'],
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
                include: integration,
                exclude: ['**/node_modules/**', 'server/src/**/*.pglite.test.ts', ...unitTests],
                env: { HEIZPLAN_TEST_DB: 'postgres' },
                setupFiles: ['./scripts/vitest-setup.ts'],
                testTimeout: 30_000,
                hookTimeout: 60_000,
              },
            },
          ]
        : []),
      {
        plugins: [react()],
        // The web app's settings as web/vite.config.ts defines them, with every default.
        define: { __HEIZPLAN_ENV__: JSON.stringify(parseEnv({})) },
        test: {
          name: 'web',
          environment: 'jsdom',
          // Screens render behind the guards' stubbed calls; a loaded CI machine needs the room.
          testTimeout: 20_000,
          include: ['web/src/**/*.test.{ts,tsx}'],
          setupFiles: ['./scripts/vitest-setup.ts', './web/src/test/setup.ts'],
        },
      },
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
        },
      },
    ],
  },
});

/**
 * One runner for every tier (ARCHITECTURE.md §8): server unit+integration tests on PGlite,
 * the same integration tests again on PostgreSQL when TEST_DATABASE_URL is set, web component
 * tests in jsdom, and browser journeys (playwright-core + Debian Chromium) in web/e2e.
 */
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const onPg = Boolean(process.env.TEST_DATABASE_URL);
const integration = [
  'server/src/modules/**/*.test.ts',
  'server/src/db/**/*.test.ts',
  'server/src/jobs/**/*.test.ts',
  'server/src/auth/**/*.test.ts',
  'server/src/lorawan/**/*.int.test.ts',
];

export default defineConfig({
  test: {
    setupFiles: ['./scripts/vitest-setup.ts'],
    projects: [
      {
        test: {
          name: 'server',
          environment: 'node',
          include: ['server/src/**/*.test.ts', 'packages/contracts/src/**/*.test.ts', 'tools/**/*.test.ts'],
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
                include: integration,
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
        test: {
          name: 'web',
          environment: 'jsdom',
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

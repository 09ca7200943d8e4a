/**
 * Makes the migrated embedded database every journey server starts from a copy of (unless they
 * keep their data on PostgreSQL, see server.ts), starts the real server (a temporary DATA_DIR,
 * built web app) on a free loopback port for the browser journeys, and stops it afterwards,
 * dropping the run's PostgreSQL databases. Journeys read the URL
 * with `inject('baseURL')`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { beginJourneyRun, dropJourneyDatabases, preparePgliteTemplate, startServer } from './server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
    dataDir: string;
  }
}

export default async function setup(project: TestProject) {
  beginJourneyRun();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'heizplan-e2e-'));
  const templateDir = mkdtempSync(path.join(tmpdir(), 'heizplan-e2e-template-'));
  // With PostgreSQL the servers copy its migrated template instead (server.ts).
  if (!process.env.TEST_DATABASE_URL) await preparePgliteTemplate(path.join(templateDir, 'pglite'));
  const server = await startServer({ dataDir });
  project.provide('baseURL', server.baseURL);
  project.provide('dataDir', dataDir);
  return async () => {
    await server.stop();
    await dropJourneyDatabases();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(templateDir, { recursive: true, force: true });
  };
}

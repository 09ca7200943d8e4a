/**
 * Shared steps of the backup and restore tests: a company to back up and the app
 * started on the restored copy.
 */
import { execFileSync } from 'node:child_process';
import { composeApp, createTestIssuer } from '../../test/helpers.ts';
import { loadConfig } from '../config.ts';
import type { Database } from './client.ts';
import { companies, memberships, units, users } from './schema.ts';

/** Whether a client program answers `--version` here (a fresh machine may lack them). */
export function installed(program: string): boolean {
  try {
    execFileSync(program, ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** A company with three units and its admin `backup-admin`. @returns the company id. */
export async function seed(database: Database): Promise<string> {
  await database.db.insert(users).values({ id: 'backup-admin', name: 'Admin', email: 'admin@example.test' });
  const [company] = await database.db.insert(companies).values({ name: 'Stadtwerke' }).returning();
  const companyId = (company as { id: string }).id;
  await database.db.insert(memberships).values({ companyId, userId: 'backup-admin', role: 'admin' });
  await database.db.insert(units).values(['Raum 1', 'Raum 2', 'Raum 3'].map((name) => ({ companyId, name })));
  return companyId;
}

/** Starts the app on `database` (migrating it, as main.ts does) and reads the company's units. */
export async function unitsServedFrom(database: Database, companyId: string) {
  await database.migrate();
  const issuer = await createTestIssuer();
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', WEB_DIST: '/nonexistent' });
  const { app } = await composeApp(config, database, issuer.verify);
  try {
    const health = await app.inject({ method: 'GET', url: '/api/health' });
    const page = await app.inject({
      method: 'GET',
      url: `/api/companies/${companyId}/units`,
      headers: { authorization: `Bearer ${await issuer.sign('backup-admin')}` },
    });
    return {
      health: health.statusCode,
      status: page.statusCode,
      names: page.json().results?.map((u: { name: string }) => u.name),
    };
  } finally {
    await app.close();
  }
}

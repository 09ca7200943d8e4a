/**
 * A migrated PostgreSQL template database for tests, made once for every worker and process
 * (under an advisory lock) and copied by `create database … template`, which is several times
 * faster than migrating each test database. Kept apart from the test helpers so the browser
 * journeys can use it without importing the whole server.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { migrationsFolder, openDatabase } from '../src/db/client.ts';

/** The migrations' fingerprint: a template made from other migrations is never reused. */
function migrationsHash(): string {
  const hash = createHash('sha256');
  for (const file of readdirSync(migrationsFolder, { recursive: true }).map(String).sort()) {
    const full = path.join(migrationsFolder, file);
    if (statSync(full).isFile()) hash.update(file).update(readFileSync(full));
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * The name of a migrated PostgreSQL template database, made once for every worker and process
 * (under an advisory lock) and copied by `create database … template`, which is several times
 * faster than migrating each test database.
 */
async function migratedPostgresTemplate(admin: pg.Client, url: string): Promise<string> {
  const name = `heizplan_template_${migrationsHash()}`;
  const exists = await admin.query('select 1 from pg_database where datname = $1', [name]);
  if (exists.rowCount) return name;
  await admin.query(`create database ${name}`);
  const target = new URL(url);
  target.pathname = `/${name}`;
  const template = await openDatabase({ kind: 'postgres', url: target.toString() });
  try {
    await template.migrate();
  } catch (err) {
    await template.close();
    await admin.query(`drop database if exists ${name} with (force)`);
    throw err;
  }
  await template.close();
  // Templates of earlier migrations are of no more use.
  const stale = await admin.query(
    "select datname from pg_database where datname like 'heizplan_template_%' and datname <> $1",
    [name],
  );
  for (const { datname } of stale.rows) await admin.query(`drop database if exists ${datname} with (force)`);
  return name;
}

/**
 * Creates the database `name` (letters, digits and `_` only) on the server of `url` as a copy of
 * the migrated template. @throws when PostgreSQL refuses.
 */
export async function createFromMigratedTemplate(url: string, name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  // One lock for every worker and process: the template is made once, and never copied while
  // another session is connected to it (which `create database … template` refuses).
  await admin.query("select pg_advisory_lock(hashtext('heizplan:test-template'))");
  try {
    const template = await migratedPostgresTemplate(admin, url);
    await admin.query(`create database ${name} template ${template}`);
  } finally {
    await admin.query("select pg_advisory_unlock(hashtext('heizplan:test-template'))");
    await admin.end();
  }
}

/**
 * The README's PostgreSQL backup and restore, followed step by step: a database with a
 * company and its units is dumped with `pg_dump --format=custom`, restored with `pg_restore` into
 * a new database, and the app is started on the copy and serves the data (when the client tools
 * are installed).
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { installed, seed, unitsServedFrom } from './backup.test-kit.ts';
import { openDatabase } from './client.ts';

const pgTools = ['pg_dump', 'pg_restore'].every(installed);

describe.runIf(pgTools)('backup and restore on PostgreSQL', () => {
  const base = process.env.TEST_DATABASE_URL as string;
  const names = [
    `heizplan_backup_${randomUUID().slice(0, 8)}`,
    `heizplan_restored_${randomUUID().slice(0, 8)}`,
  ];
  const urlOf = (name: string) => Object.assign(new URL(base), { pathname: `/${name}` }).toString();
  const admin = async (query: string) => {
    const client = new pg.Client({ connectionString: base });
    await client.connect();
    await client.query(query);
    await client.end();
  };
  let dir: string;

  afterAll(async () => {
    for (const name of names) await admin(`drop database if exists ${name} with (force)`);
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('restores a pg_dump into an empty database that the app then serves', async () => {
    const [source, target] = names as [string, string];
    await admin(`create database ${source}`);
    const original = await openDatabase({ kind: 'postgres', url: urlOf(source) });
    await original.migrate();
    const companyId = await seed(original);
    await original.close();

    dir = await mkdtemp(path.join(tmpdir(), 'heizplan-backup-'));
    const dump = path.join(dir, 'heizplan.dump');
    execFileSync('pg_dump', ['--format=custom', `--file=${dump}`, urlOf(source)]);
    await admin(`create database ${target}`);
    execFileSync('pg_restore', ['--no-owner', `--dbname=${urlOf(target)}`, dump]);

    const restored = await openDatabase({ kind: 'postgres', url: urlOf(target) });
    try {
      expect(await unitsServedFrom(restored, companyId)).toEqual({
        health: 200,
        status: 200,
        names: ['Raum 1', 'Raum 2', 'Raum 3'],
      });
      // The migrations table came along: starting on the copy applied nothing again.
      const applied = await restored.db.execute(
        sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
      );
      expect((applied as unknown as { rows: { n: number }[] }).rows[0]?.n).toBeGreaterThan(10);
    } finally {
      await restored.close();
    }
  });
});

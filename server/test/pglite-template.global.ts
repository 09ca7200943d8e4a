/**
 * Vitest global setup of the server projects on PGlite: migrates one PGlite database once per
 * run, before any worker starts, and hands its data directory to the workers as a file
 * (`inject('pgliteTemplate')`). Each worker then only loads it (about 0.8 s of CPU) instead of
 * running initdb and every migration itself in the first file's `beforeAll`: on a loaded machine
 * that took over the 60 s hook limit in three files at once (decision 0065, eighth round).
 */
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { TestProject } from 'vitest/node';
import { dumpPglite, openDatabase } from '../src/db/client.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Path of a migrated PGlite data directory (tar), made by this global setup. */
    pgliteTemplate: string;
  }
}

export default async function setup(project: TestProject) {
  const database = await openDatabase({ kind: 'pglite' });
  let dump: Blob;
  try {
    await database.migrate();
    // A checkpoint first, so no copy replays the migrations' WAL when it opens.
    await database.db.execute(sql`checkpoint`);
    dump = await dumpPglite(database);
  } finally {
    await database.close();
  }
  const file = path.join(tmpdir(), `heizplan-pglite-${process.pid}-${project.name.replace(/\W/g, '')}.tar`);
  await writeFile(file, Buffer.from(await dump.arrayBuffer()));
  project.provide('pgliteTemplate', file);
  return async () => {
    await rm(file, { force: true });
  };
}

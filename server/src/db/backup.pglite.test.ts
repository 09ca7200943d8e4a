/**
 * The README's backup and restore of the embedded database: the stopped `$DATA_DIR`
 * is copied as it is, and the app started on the copy serves the company and its units.
 */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { seed, unitsServedFrom } from './backup.test-kit.ts';
import { openDatabase } from './client.ts';

describe('backup and restore of the embedded database', () => {
  let dir: string;
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('serves the data from a copy of the stopped DATA_DIR', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'heizplan-backup-'));
    const dataDir = path.join(dir, 'data');
    const original = await openDatabase({ kind: 'pglite', dir: path.join(dataDir, 'pglite') });
    await original.migrate();
    const companyId = await seed(original);
    await original.close();

    const copy = path.join(dir, 'restored');
    await cp(dataDir, copy, { recursive: true });
    const restored = await openDatabase({ kind: 'pglite', dir: path.join(copy, 'pglite') });
    try {
      expect(await unitsServedFrom(restored, companyId)).toEqual({
        health: 200,
        status: 200,
        names: ['Raum 1', 'Raum 2', 'Raum 3'],
      });
    } finally {
      await restored.close();
    }
    // Two PGlite data directories on disk (initdb each): 15–25 s beside the suite on two cores.
  }, 90_000);
});

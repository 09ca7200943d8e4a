import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from './client.ts';
import { companies } from './schema.ts';

describe('PGlite data directory', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'heizplan-db-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps data across a restart, creating the missing parent folder on first start', async () => {
    const dataDir = path.join(dir, 'nested', 'pglite');
    const first = await openDatabase({ kind: 'pglite', dir: dataDir });
    await first.migrate();
    const [created] = await first.db.insert(companies).values({ name: 'Stadtwerke' }).returning();
    await first.close();

    const second = await openDatabase({ kind: 'pglite', dir: dataDir });
    await second.migrate();
    const rows = await second.db.select().from(companies).where(eq(companies.id, created!.id));
    expect(rows.map((r) => r.name)).toEqual(['Stadtwerke']);
    await second.close();
    // Two PGlite data directories on disk (initdb each): 15–25 s beside the suite on two cores.
  }, 90_000);
});

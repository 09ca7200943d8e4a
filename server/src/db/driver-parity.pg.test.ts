/**
 * The two database drivers hand the app the same values. PGlite (the embedded default) and
 * PostgreSQL through `pg` parse result columns with parsers of their own; a repository that runs
 * raw SQL (`db.execute(sql…)`) sees what the driver made of each type. Where they agree, a test
 * of a service proves the same on either driver, which is what lets the suite run most
 * integration files once, on PostgreSQL where it is there (vitest.config.ts, decision 0065).
 * Where they would differ, `openDatabase` aligns them (bigint: a string, as `pg` gives it).
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, waitLikePglite } from '../../test/helpers.ts';
import { type Database, openDatabase, rowsOf } from './client.ts';

/**
 * One row with a value of every column type the schema uses (schema/*.ts), plus what aggregates
 * and arrays return: `count(*)` is a bigint, `sum` over integers a bigint, over reals a double.
 */
const EVERY_TYPE = sql`
  select
    1::smallint as smallint, 2147483647::integer as integer, 42::bigint as bigint,
    9007199254740993::bigint as huge_bigint, count(*) as count, sum(x) as sum_integer,
    sum(x::real) as sum_real, 21.5::real as real, 0.1::double precision as double,
    38450.5::numeric(12, 1) as numeric, true as boolean, 'Hörsaal'::text as text,
    '3f1c2b7e-8d4a-4c6e-9b2f-1a2b3c4d5e6f'::uuid as uuid, '2026-12-24'::date as date,
    '2026-12-24 06:00:00'::timestamp as timestamp,
    '2026-12-24 06:00:00+01'::timestamptz as timestamptz, '90 minutes'::interval as interval,
    '{"setpoint": 21.5, "days": [1, 2]}'::jsonb as jsonb, '{"a": null}'::json as json,
    array['Mo', 'Di']::text[] as text_array, array[1, 2]::integer[] as integer_array,
    array['2026-12-24 06:00:00+01']::timestamptz[] as timestamptz_array,
    null::integer as null_integer
  from (values (1), (2), (3)) as t(x)
`;

describe('the drivers agree on every column type the schema uses', () => {
  let pglite: Database;
  let postgres: Database;
  beforeAll(async () => {
    pglite = await openDatabase({ kind: 'pglite' });
    postgres = await createTestDatabase();
  });
  afterAll(async () => {
    await pglite?.close();
    await postgres?.close();
  });

  it('returns equal values from raw SQL on PGlite and PostgreSQL', async () => {
    const [fromPglite] = rowsOf<Record<string, unknown>>(await pglite.db.execute(EVERY_TYPE));
    const [fromPostgres] = rowsOf<Record<string, unknown>>(await postgres.db.execute(EVERY_TYPE));
    expect(postgres.kind).toBe('postgres');
    expect(fromPglite).toEqual(fromPostgres);
    // What the app relies on, spelled out: bigints and numerics as strings (exact), timestamps as
    // PostgreSQL prints them (Drizzle's choice on both drivers), JSON parsed.
    expect(fromPostgres).toMatchObject({
      bigint: '42',
      huge_bigint: '9007199254740993',
      count: '3',
      numeric: '38450.5',
      real: 21.5,
      jsonb: { setpoint: 21.5, days: [1, 2] },
      text_array: ['Mo', 'Di'],
      null_integer: null,
    });
    expect(typeof fromPostgres?.timestamptz).toBe('string');
  });

  it('fails a test on PostgreSQL where PGlite would hang: a transaction awaiting a query on the database', async () => {
    const strict = waitLikePglite(postgres, 200);
    const failure = await strict.db
      .transaction(async () => {
        await strict.db.execute(sql`select 1`);
      })
      .then(
        () => undefined,
        (err: Error) => err,
      );
    expect(String(failure?.cause ?? failure)).toMatch(/on PGlite \(one connection\) it would wait forever/);
    // Outside a transaction the database answers at once.
    expect(rowsOf(await strict.db.execute(sql`select 1 as one`))).toEqual([{ one: 1 }]);
  });
});

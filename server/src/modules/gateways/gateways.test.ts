import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock, testInstant } from '../../../test/clock.ts';
import { buildTestApp, type TestApp } from '../../../test/helpers.ts';
import { gateways } from '../../db/schema.ts';
import { type RegistryFixture, seedRegistry } from '../devices/registry-test-fixtures.ts';
import { isGatewayOnline } from './gateways.service.ts';

// Online or offline is judged against this clock, not the machine's.
const clock = testClock(testInstant('2026-12-02T12:00:00+01:00'));

describe('gateway online state', () => {
  const now = new Date('2026-01-15T12:00:00Z');
  const ago = (s: number) => new Date(now.getTime() - s * 1000);

  it('is online up to 2 × the stats interval after the last stats, offline after', () => {
    expect(isGatewayOnline(ago(60), 30, now)).toBe(true);
    expect(isGatewayOnline(ago(61), 30, now)).toBe(false);
    expect(isGatewayOnline(ago(200), 120, now)).toBe(true);
  });

  it('is offline when the gateway never sent stats', () => {
    expect(isGatewayOnline(null, 30, now)).toBe(false);
  });
});

describe('gateways API', () => {
  let t: TestApp;
  let f: RegistryFixture;
  let base: string;
  const call: TestApp['call'] = (...args) => t.call(...args);

  beforeAll(async () => {
    t = await buildTestApp({}, { clock: clock.now });
    f = await seedRegistry(t.database.db);
    base = `/api/companies/${f.companyId}/gateways`;
  });
  afterAll(() => t.close());

  it('registers a gateway under its lowercase EUI, offline until it sends stats', async () => {
    const res = await call('POST', base, { gatewayEui: 'B827EBFFFE123456', name: 'Keller' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      gatewayEui: 'b827ebfffe123456',
      name: 'Keller',
      lastSeen: null,
      statsIntervalS: 30,
      online: false,
    });
  });

  it('is online while its last stats are recent and offline once they are older than 2 intervals', async () => {
    const seenAt = async (at: Date) => {
      await t.database.db
        .update(gateways)
        .set({ lastSeen: at })
        .where(eq(gateways.gatewayEui, 'b827ebfffe123456'));
      return (await call('GET', base)).json().results[0];
    };
    const now = clock.now();
    expect(await seenAt(now)).toMatchObject({ lastSeen: now.toISOString(), online: true });
    expect(await seenAt(new Date(now.getTime() - 5 * 60_000))).toMatchObject({ online: false });
  });

  it('rejects a malformed EUI and a second company registering the same EUI', async () => {
    const bad = await call('POST', base, { gatewayEui: 'B827EB', name: 'x' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0]).toEqual({
      field: 'body.gatewayEui',
      message: 'A gateway EUI has exactly 16 hex digits.',
    });
    const taken = await call(
      'POST',
      `/api/companies/${f.otherCompanyId}/gateways`,
      { gatewayEui: 'b827ebfffe123456', name: 'Mine' },
      'mallory',
    );
    expect(taken.statusCode).toBe(409);
  });

  it('lists with paging, sorting and search, and renames', async () => {
    await call('POST', base, { gatewayEui: 'b827ebfffe000002', name: 'Dach', statsIntervalS: 60 });
    const sorted = (await call('GET', `${base}?sort=name&order=asc`)).json();
    expect(sorted.results.map((g: { name: string }) => g.name)).toEqual(['Dach', 'Keller']);
    const second = (await call('GET', `${base}?size=1&page=2`)).json();
    expect(second).toMatchObject({ count: 2, page: 2, size: 1 });
    expect(second.results[0].name).toBe('Keller');
    const search = (await call('GET', `${base}?q=000002`)).json();
    expect(search.results.map((g: { name: string }) => g.name)).toEqual(['Dach']);
    const id = search.results[0].id;
    const renamed = await call('PATCH', `${base}/${id}`, { name: 'Dachboden', statsIntervalS: 120 });
    expect(renamed.json()).toMatchObject({ name: 'Dachboden', statsIntervalS: 120 });
  });

  it('answers 404 to a member of another company on every gateway endpoint', async () => {
    const [gateway] = (await call('GET', base)).json().results;
    const one = `${base}/${gateway.id}`;
    const attempts = [
      ['GET', base, undefined],
      ['POST', base, { gatewayEui: 'b827ebfffe0000ff', name: 'x' }],
      ['GET', one, undefined],
      ['PATCH', one, { name: 'taken over' }],
      ['DELETE', one, undefined],
    ] as const;
    for (const [method, url, payload] of attempts) {
      expect((await call(method, url, payload, 'mallory')).statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await call('GET', one)).json().name).toBe(gateway.name);
  });

  it('deletes a gateway', async () => {
    const [gateway] = (await call('GET', base)).json().results;
    expect((await call('DELETE', `${base}/${gateway.id}`)).statusCode).toBe(204);
    expect((await call('GET', `${base}/${gateway.id}`)).statusCode).toBe(404);
    expect((await call('DELETE', `${base}/${gateway.id}`)).statusCode).toBe(404);
  });
});

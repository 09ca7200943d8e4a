/**
 * The audit log (decision 0059): every successful change of a company's data is written with its
 * actor (member or API token), route, object and fields — secrets masked, reads and refused
 * requests left out; admins read it newest first with filters and export it as CSV; other roles
 * 403, strangers 404; entries past the retention go.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers.ts';
import { grantLicences } from '../billing/billing.fixtures.ts';
import { addMember } from '../me/account.fixtures.ts';
import { seedCompanies } from '../units/heating-test-fixtures.ts';
import { purgeAuditLog } from './audit.repository.ts';
import { auditFields } from './audit-recorder.ts';

describe('audit log', () => {
  let t: TestApp;
  let c: string;
  let unitId: string;
  const call: TestApp['call'] = (...args) => t.call(...args);
  const entries = async (query = '') => {
    const res = await call('GET', `${c}/audit-log?size=200${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  // Entries are stamped by the database (an audit stamp, not the app's clock): the time filter
  // and the purge are tested against the stamps themselves, so no clock is needed here.
  const stamps = async () => ((await entries()).results as { at: string }[]).map((e) => Date.parse(e.at));
  const newestAt = async () => Math.max(...(await stamps()));
  const oldestAt = async () => Math.min(...(await stamps()));

  beforeAll(async () => {
    t = await buildTestApp();
    const { companyId } = await seedCompanies(t.database.db);
    c = `/api/companies/${companyId}`;
    await addMember(t, companyId, 'hannah', 'heating');
    await addMember(t, companyId, 'erin', 'ems');
    await grantLicences(t.database.db, companyId, 2);
    unitId = (await call('POST', `${c}/units`, { name: 'Klasse 5a' })).json().id;
  });
  afterAll(() => t.close());

  it('records who changed what with the fields set, newest first; reads and refusals are not changes', async () => {
    await call('PATCH', `${c}/units/${unitId}`, { name: 'Klasse 5b' }, 'hannah');
    await call('GET', `${c}/units/${unitId}`, undefined, 'hannah');
    // An empty PATCH changes nothing.
    expect((await call('PATCH', `${c}/units/${unitId}`, {}, 'hannah')).statusCode).toBe(200);
    // Refused: ems may not change units; nothing happened, nothing is logged.
    expect((await call('PATCH', `${c}/units/${unitId}`, { name: 'X' }, 'erin')).statusCode).toBe(403);
    // Asked, not changed: a draft plan's preview and a price quote are POSTs that save nothing.
    const switchPoints = [1, 2, 3, 4, 5, 6, 7].map((day) => ({ day, hour: 6, minute: 0, temperature: 21 }));
    const draft = { plan: { kind: 'seasonal', validFrom: '10-01', validTo: '04-30', switchPoints } };
    const preview = await call('POST', `${c}/units/${unitId}/preview`, draft, 'hannah');
    expect(preview.statusCode, preview.body).toBe(200);
    const quote = await call('POST', `${c}/billing/quote`, { licences: 3 });
    expect(quote.statusCode, quote.body).toBe(200);
    const page = await entries();
    expect(page.count).toBe(2);
    expect(page.results[0]).toMatchObject({
      actor: { id: 'hannah', kind: 'member' },
      method: 'PATCH',
      route: '/api/companies/{companyId}/units/{unitId}',
      resource: 'units',
      resourceId: unitId,
      fields: { name: 'Klasse 5b' },
      // What the field held before, read as the caller reads the room.
      previous: { name: 'Klasse 5a' },
      status: 200,
    });
    expect(page.results[1]).toMatchObject({
      actor: { id: 'alice', name: 'Alice', kind: 'member' },
      method: 'POST',
      resource: 'units',
      resourceId: null,
      fields: { name: 'Klasse 5a' },
      previous: null,
      status: 201,
    });
  });

  it("names an API token as the actor and masks secrets such as a device's AppKey", async () => {
    const { token, id } = (
      await call('POST', `${c}/api-tokens`, { name: 'Leitsystem', role: 'heating' })
    ).json();
    const res = await t.app.inject({
      method: 'POST',
      url: `${c}/devices`,
      headers: { authorization: `Bearer ${token}` },
      payload: {
        id: '70b3d52dd3000042',
        model: 'mclimate-vicki',
        appKey: '00112233445566778899aabbccddeeff',
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const [latest, created] = (await entries()).results;
    expect(latest).toMatchObject({
      actor: { id: `apitoken:${id}`, name: 'Leitsystem', kind: 'token' },
      resource: 'devices',
      fields: { id: '70b3d52dd3000042', model: 'mclimate-vicki', appKey: '•••' },
    });
    // The token's own creation: by the admin, its name kept.
    expect(created).toMatchObject({
      resource: 'api-tokens',
      actor: { id: 'alice' },
      fields: { name: 'Leitsystem' },
    });
    expect(JSON.stringify(await entries())).not.toContain('00112233445566778899aabbccddeeff');
  });

  it("records what an API token's change replaced, and the read before it is not a request of the token's", async () => {
    const limited = await buildTestApp({ API_TOKEN_RATE_LIMIT: '2' });
    try {
      const { companyId } = await seedCompanies(limited.database.db);
      const base = `/api/companies/${companyId}`;
      const room = (await limited.call('POST', `${base}/units`, { name: 'Aula' })).json().id;
      const { token } = (
        await limited.call('POST', `${base}/api-tokens`, { name: 'Leitsystem', role: 'heating' })
      ).json();
      const patch = (name: string) =>
        limited.app.inject({
          method: 'PATCH',
          url: `${base}/units/${room}`,
          headers: { authorization: `Bearer ${token}` },
          payload: { name, wallControlMax: 23 },
        });
      // Two changes within the token's two requests a minute, though each reads the room first.
      expect((await patch('Aula Nord')).statusCode).toBe(200);
      expect((await patch('Aula Süd')).statusCode).toBe(200);
      expect((await patch('Aula West')).statusCode).toBe(429);
      const log = (await limited.call('GET', `${base}/audit-log?resource=units`)).json().results;
      expect(
        log.slice(0, 2).map((e: { fields: object; previous: object }) => [e.fields, e.previous]),
      ).toEqual([
        [
          { name: 'Aula Süd', wallControlMax: 23 },
          { name: 'Aula Nord', wallControlMax: 23 },
        ],
        [
          { name: 'Aula Nord', wallControlMax: 23 },
          { name: 'Aula', wallControlMax: null },
        ],
      ]);
    } finally {
      await limited.close();
    }
  });

  it('filters by what was changed and by actor, and records the company settings as "company"', async () => {
    await call('PATCH', `${c}/`, { name: 'Stadtwerke Nord' });
    const company = await entries('&resource=company');
    expect(company.results.map((e: { fields: object }) => e.fields)).toEqual([{ name: 'Stadtwerke Nord' }]);
    expect(company.results[0].previous).toEqual({ name: 'Stadtwerke' });
    const hannah = await entries('&actor=hannah');
    expect(hannah.results.map((e: { method: string }) => e.method)).toEqual(['PATCH']);
    const future = await entries(
      `&from=${encodeURIComponent(new Date((await newestAt()) + 60_000).toISOString())}`,
    );
    expect(future.count).toBe(0);
  });

  it('exports the entries as CSV with a header row, newest first', async () => {
    const res = await call('GET', `${c}/audit-log/export?resource=units`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const lines = res.body.trim().split('\n');
    expect(lines[0]).toBe('at,actor,actor_id,actor_kind,method,route,resource,object,fields,previous,status');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(',hannah,member,PATCH,/api/companies/{companyId}/units/{unitId},units,');
    expect(lines[1]).toContain('"{""name"":""Klasse 5b""}","{""name"":""Klasse 5a""}",200');
  });

  it('is for admins only: 403 for heating and ems, 404 for a stranger', async () => {
    for (const user of ['hannah', 'erin']) {
      expect((await call('GET', `${c}/audit-log`, undefined, user)).statusCode).toBe(403);
      expect((await call('GET', `${c}/audit-log/export`, undefined, user)).statusCode).toBe(403);
    }
    expect((await call('GET', `${c}/audit-log`, undefined, 'mallory')).statusCode).toBe(404);
  });

  it('forgets entries past the retention', async () => {
    const before = (await entries()).count;
    const [oldest, newest] = [await oldestAt(), await newestAt()];
    expect(await purgeAuditLog(t.database.db, new Date(oldest - 60_000))).toBe(0);
    expect(await purgeAuditLog(t.database.db, new Date(newest + 60_000))).toBe(before);
    expect((await entries()).count).toBe(0);
  });

  it('keeps only the field names of a large body and masks passwords whatever their case', () => {
    expect(auditFields({ Password: 'geheim', name: 'x' })).toEqual({ Password: '•••', name: 'x' });
    expect(auditFields({ ics: 'x'.repeat(5000), name: 'Import' })).toEqual({ ics: '…', name: '…' });
    expect(auditFields('text')).toEqual({});
  });
});

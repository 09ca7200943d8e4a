import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, composeApp, type TestApp } from '../../../test/helpers.ts';
import { ConfigError, loadConfig } from '../../config.ts';
import { companies } from '../../db/schema.ts';
import { addMember, createCompany, expectProblem, forgedAuthorization } from '../me/account.fixtures.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

describe('GET /api/licenses/current', () => {
  it('answers version 1 of each agreement by default', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/licenses/current',
      headers: await t.as('lic-alice'),
    });
    expect(res.json()).toEqual({ avv_version: 1, license_version: 1, privacy_version: 1 });
  });

  it('answers 401 without a token and with a forged one', async () => {
    expectProblem(await t.app.inject({ method: 'GET', url: '/api/licenses/current' }), 401);
    const headers = await forgedAuthorization('lic-eve');
    expectProblem(await t.app.inject({ method: 'GET', url: '/api/licenses/current', headers }), 401);
  });

  it('refuses to start with a version that is not a positive integer', () => {
    for (const value of ['0', '-1', '1.5', 'two']) {
      expect(() => loadConfig({ AGREEMENT_VERSION_AVV: value })).toThrow(ConfigError);
    }
  });
});

describe('GET and POST /api/licenses/{id}/', () => {
  it('reports null until accepted; only an admin accepts the current versions for the company', async () => {
    const company = await createCompany(t, 'lic-bob');
    await addMember(t, company.id, 'lic-heater', 'heating');
    const heater = await t.as('lic-heater');
    const before = await t.app.inject({
      method: 'GET',
      url: `/api/licenses/${company.id}/`,
      headers: heater,
    });
    expect(before.json()).toEqual({
      avv_accepted_version: null,
      license_accepted_version: null,
      privacy_accepted_version: null,
    });
    expectProblem(
      await t.app.inject({ method: 'POST', url: `/api/licenses/${company.id}/`, headers: heater }),
      403,
    );
    const headers = await t.as('lic-bob');
    const accepted = await t.app.inject({ method: 'POST', url: `/api/licenses/${company.id}/`, headers });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toEqual({
      avv_accepted_version: 1,
      license_accepted_version: 1,
      privacy_accepted_version: 1,
    });
    const view = await t.app.inject({ method: 'GET', url: `/api/companies/${company.id}/`, headers });
    expect(view.json().conf).toEqual({ avv_accepted: true, license_accepted: true, privacy_accepted: true });
  });

  it('answers 404 to a member of another company and for a malformed id, writing nothing', async () => {
    const company = await createCompany(t, 'lic-carol');
    await createCompany(t, 'lic-mallory');
    const mallory = await t.as('lic-mallory');
    for (const method of ['GET', 'POST'] as const) {
      expectProblem(
        await t.app.inject({ method, url: `/api/licenses/${company.id}/`, headers: mallory }),
        404,
      );
      expectProblem(await t.app.inject({ method, url: '/api/licenses/123/', headers: mallory }), 404);
    }
    const [row] = await t.database.db.select().from(companies).where(eq(companies.id, company.id));
    expect(row?.licenseAcceptedVersion).toBeNull();
  });
});

describe('bumping an agreement version', () => {
  it('turns the company’s conf flag false until the new version is accepted', async () => {
    const company = await createCompany(t, 'lic-dave');
    const headers = await t.as('lic-dave');
    await t.app.inject({ method: 'POST', url: `/api/licenses/${company.id}/`, headers });

    // The same database served by a restarted server whose licence terms are at version 2.
    const { app: bumped } = await composeApp(
      loadConfig({ ...envOf(t), AGREEMENT_VERSION_LICENSE: '2' }),
      t.database,
      t.issuer.verify,
    );
    try {
      const current = await bumped.inject({ method: 'GET', url: '/api/licenses/current', headers });
      expect(current.json()).toEqual({ avv_version: 1, license_version: 2, privacy_version: 1 });
      const view = await bumped.inject({ method: 'GET', url: `/api/companies/${company.id}/`, headers });
      expect(view.json().conf).toEqual({
        avv_accepted: true,
        license_accepted: false,
        privacy_accepted: true,
      });

      await bumped.inject({ method: 'POST', url: `/api/licenses/${company.id}/`, headers });
      const again = await bumped.inject({ method: 'GET', url: `/api/companies/${company.id}/`, headers });
      expect(again.json().conf).toEqual({
        avv_accepted: true,
        license_accepted: true,
        privacy_accepted: true,
      });
    } finally {
      await bumped.close();
    }
  });
});

/** The environment `buildTestApp` used, so a second app differs only in what a test sets. */
function envOf(app: TestApp): Record<string, string> {
  return {
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: app.config.dataDir,
    WEB_DIST: app.config.webDist,
  };
}

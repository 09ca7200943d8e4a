import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { testClock, testInstant } from '../../../test/clock.ts';
import { buildTestApp, type TestApp } from '../../../test/helpers.ts';
import { companies, memberships, units } from '../../db/schema.ts';
import { addMember, createCompany, expectProblem, forgedAuthorization } from '../me/account.fixtures.ts';

// A Wednesday noon: a change of range or zone makes units due at this instant.
const clock = testClock(testInstant('2026-12-02T12:00:00+01:00'));
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({}, { clock: clock.now });
});
afterAll(() => t.close());

const companyCount = async () => (await t.database.db.select({ n: count() }).from(companies))[0]?.n;

describe('POST /api/companies/setup', () => {
  it('creates the company with the trimmed name and makes the caller its admin', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/companies/setup?company_name=%20%20Stadtwerke%20Nord%20%20',
      headers: await t.as('setup-alice'),
    });
    expect(res.statusCode).toBe(201);
    const company = res.json();
    expect(company).toMatchObject({
      name: 'Stadtwerke Nord',
      role: 'admin',
      conf: { avv_accepted: false, license_accepted: false, privacy_accepted: false },
      min_temperature: 5,
      max_temperature: 28,
      time_zone: 'Europe/Berlin',
      frost_protection: 8,
      economy_temperature: 16,
      standby_temperature: 18,
      optimum_start: 'shadow',
      optimum_max_lead_minutes: 180,
    });
    const rows = await t.database.db.select().from(memberships).where(eq(memberships.companyId, company.id));
    expect(rows).toMatchObject([{ userId: 'setup-alice', role: 'admin' }]);
  });

  it.each([
    ['blank', '?company_name=%20%20%20'],
    ['empty', '?company_name='],
    ['missing', ''],
    ['NUL-containing', '?company_name=a%00b'],
  ])('rejects a %s company name with a field error and writes nothing', async (_case, query) => {
    const before = await companyCount();
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/companies/setup${query}`,
      headers: await t.as('setup-bob'),
    });
    const problem = expectProblem(res, 400);
    expect(problem.errors?.[0]?.field).toBe('querystring.company_name');
    expect(await companyCount()).toBe(before);
  });

  it('answers 401 without a token and with a token signed by a foreign key, writing nothing', async () => {
    const before = await companyCount();
    const url = '/api/companies/setup?company_name=Forged';
    expectProblem(await t.app.inject({ method: 'POST', url }), 401);
    expectProblem(
      await t.app.inject({ method: 'POST', url, headers: await forgedAuthorization('setup-eve') }),
      401,
    );
    expect(await companyCount()).toBe(before);
  });
});

describe('GET /api/companies/', () => {
  it('pages through only the caller’s companies, ordered by name', async () => {
    for (const name of ['Gamma', 'Alpha', 'Beta']) await createCompany(t, 'list-alice', name);
    await createCompany(t, 'list-mallory', 'Not yours');
    const headers = await t.as('list-alice');

    const first = await t.app.inject({ method: 'GET', url: '/api/companies/?page=1&size=2', headers });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ count: 3, page: 1, size: 2 });
    expect(first.json().results.map((c: { name: string }) => c.name)).toEqual(['Alpha', 'Beta']);

    const second = await t.app.inject({ method: 'GET', url: '/api/companies/?page=2&size=2', headers });
    expect(second.json().results.map((c: { name: string }) => c.name)).toEqual(['Gamma']);

    const all = await t.app.inject({
      method: 'GET',
      url: '/api/companies/?pagination=false&size=1',
      headers,
    });
    expect(all.json()).toMatchObject({ count: 3, page: 1, size: 3 });
    expect(Object.keys(all.json().results[0]).sort()).toEqual(['id', 'name']);
  });

  it('answers an empty page for a user without companies', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/companies/',
      headers: await t.as('list-nobody'),
    });
    expect(res.json()).toEqual({ results: [], count: 0, page: 1, size: 10 });
  });

  it.each(['page=0', 'size=0', 'size=201', 'page=x', 'pagination=maybe'])(
    'rejects %s with 400',
    async (query) => {
      expectProblem(
        await t.app.inject({
          method: 'GET',
          url: `/api/companies/?${query}`,
          headers: await t.as('list-alice'),
        }),
        400,
      );
    },
  );

  it('answers 401 without a token', async () => {
    expectProblem(await t.app.inject({ method: 'GET', url: '/api/companies/' }), 401);
  });
});

describe('GET /api/companies/{id}/', () => {
  it('returns the company with the caller’s role', async () => {
    const company = await createCompany(t, 'get-alice');
    await addMember(t, company.id, 'get-bob', 'ems');
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/companies/${company.id}/`,
      headers: await t.as('get-bob'),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ...company, role: 'ems' });
  });

  it('answers 404 to a member of another company and for a malformed id', async () => {
    const company = await createCompany(t, 'get-carol');
    await createCompany(t, 'get-mallory');
    const mallory = await t.as('get-mallory');
    expectProblem(
      await t.app.inject({ method: 'GET', url: `/api/companies/${company.id}/`, headers: mallory }),
      404,
    );
    expectProblem(
      await t.app.inject({ method: 'GET', url: '/api/companies/not-a-uuid/', headers: mallory }),
      404,
    );
  });
});

describe('PATCH /api/companies/{id}/', () => {
  it('lets an admin change name (trimmed), range and time zone', async () => {
    const company = await createCompany(t, 'patch-alice');
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/companies/${company.id}/`,
      headers: await t.as('patch-alice'),
      payload: { name: '  Renamed  ', min_temperature: 7.5, max_temperature: 24, time_zone: 'Europe/Vienna' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      name: 'Renamed',
      min_temperature: 7.5,
      max_temperature: 24,
      time_zone: 'Europe/Vienna',
    });
  });

  it('lets an admin require a second factor of admins or all members, refusing unknown values', async () => {
    const company = await createCompany(t, 'patch-2fa');
    expect(company.second_factor_required).toBe('none');
    await addMember(t, company.id, 'patch-2fa-heating', 'heating');
    const url = `/api/companies/${company.id}/`;
    const headers = await t.as('patch-2fa');
    const set = await t.app.inject({
      method: 'PATCH',
      url,
      headers,
      payload: { second_factor_required: 'admins' },
    });
    expect(set.json()).toMatchObject({ second_factor_required: 'admins', name: company.name });
    const [row] = await t.database.db
      .select({ policy: companies.secondFactorRequired })
      .from(companies)
      .where(eq(companies.id, company.id));
    expect(row?.policy).toBe('admins');
    const unknown = await t.app.inject({
      method: 'PATCH',
      url,
      headers,
      payload: { second_factor_required: 'some' },
    });
    expect(expectProblem(unknown, 400).errors?.[0]?.field).toBe('body.second_factor_required');
    const member = await t.app.inject({
      method: 'PATCH',
      url,
      headers: await t.as('patch-2fa-heating'),
      payload: { second_factor_required: 'none' },
    });
    expectProblem(member, 403);
  });

  it('refuses a second-factor policy while an external issuer owns sign-in (409 accounts_external)', async () => {
    const external = await buildTestApp({
      OIDC_ISSUER: 'http://external.test',
      OIDC_CLIENT_ID: 'heizplan-web',
    });
    try {
      const company = await createCompany(external, 'patch-2fa-external');
      const url = `/api/companies/${company.id}/`;
      const headers = await external.as('patch-2fa-external');
      const refused = await external.app.inject({
        method: 'PATCH',
        url,
        headers,
        payload: { second_factor_required: 'all' },
      });
      expect(refused.json()).toMatchObject({ code: 'accounts_external' });
      expectProblem(refused, 409);
      const remember = await external.app.inject({
        method: 'PATCH',
        url,
        headers,
        payload: { remember_device_days: 30 },
      });
      expectProblem(remember, 409);
      // The unchanged value is no change: the settings form sends every field.
      const same = await external.app.inject({
        method: 'PATCH',
        url,
        headers,
        payload: { second_factor_required: 'none', remember_device_days: 0, name: 'Still mine' },
      });
      expect(same.json()).toMatchObject({
        second_factor_required: 'none',
        remember_device_days: 0,
        name: 'Still mine',
      });
    } finally {
      await external.close();
    }
  });

  it('stores the heat source of the buildings for energy reporting, clears it, and refuses unknown ones', async () => {
    const company = await createCompany(t, 'patch-energy');
    expect(company.energy_media).toBeNull();
    const headers = await t.as('patch-energy');
    const url = `/api/companies/${company.id}/`;
    const set = await t.app.inject({ method: 'PATCH', url, headers, payload: { energy_media: 'heat_pump' } });
    expect(set.json()).toMatchObject({ energy_media: 'heat_pump' });
    const [row] = await t.database.db
      .select({ energyMedia: companies.energyMedia })
      .from(companies)
      .where(eq(companies.id, company.id));
    expect(row?.energyMedia).toBe('heat_pump');
    expect((await t.app.inject({ method: 'GET', url, headers })).json()).toMatchObject({
      energy_media: 'heat_pump',
    });
    const refused = await t.app.inject({ method: 'PATCH', url, headers, payload: { energy_media: 'coal' } });
    expectProblem(refused, 400);
    expect(refused.json().errors[0].field).toBe('body.energy_media');
    const cleared = await t.app.inject({ method: 'PATCH', url, headers, payload: { energy_media: null } });
    expect(cleared.json()).toMatchObject({ energy_media: null });
  });

  it('makes the company’s units due and wakes the scheduler when range or zone change', async () => {
    const wake = vi.fn();
    t.ports.wake = wake;
    const company = await createCompany(t, 'patch-heat');
    const other = await createCompany(t, 'patch-heat-other');
    const later = new Date(clock.now().getTime() + 86_400_000);
    const [mine] = await t.database.db
      .insert(units)
      .values({ companyId: company.id, name: 'Room 1', nextChangeAt: later })
      .returning();
    const [theirs] = await t.database.db
      .insert(units)
      .values({ companyId: other.id, name: 'Room 1', nextChangeAt: later })
      .returning();
    const adminHeaders = await t.as('patch-heat');
    const nextChange = async (id: string) =>
      (await t.database.db.select().from(units).where(eq(units.id, id)))[0]?.nextChangeAt?.getTime();
    const patch = (payload: object) =>
      t.app
        .inject({
          method: 'PATCH',
          url: `/api/companies/${company.id}/`,
          headers: adminHeaders,
          payload,
        })
        .then((res) => expect(res.statusCode).toBe(200));

    await patch({ name: 'Only the name' });
    expect(await nextChange(mine!.id)).toBe(later.getTime());
    expect(wake).not.toHaveBeenCalled();

    await patch({ max_temperature: 22 });
    expect(await nextChange(mine!.id)).toBe(clock.now().getTime());
    expect(await nextChange(theirs!.id)).toBe(later.getTime());
    expect(wake).toHaveBeenCalledTimes(1);
  });

  it('stores the closures’ economy and standby setpoints, making the units due and waking the scheduler', async () => {
    const wake = vi.fn();
    t.ports.wake = wake;
    const company = await createCompany(t, 'patch-modes');
    const later = new Date(clock.now().getTime() + 86_400_000);
    const [unit] = await t.database.db
      .insert(units)
      .values({ companyId: company.id, name: 'Room 1', nextChangeAt: later })
      .returning();
    const headers = await t.as('patch-modes');
    const url = `/api/companies/${company.id}/`;
    const res = await t.app.inject({
      method: 'PATCH',
      url,
      headers,
      payload: { frost_protection: 7, economy_temperature: 15.5, standby_temperature: 19 },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      ...company,
      frost_protection: 7,
      economy_temperature: 15.5,
      standby_temperature: 19,
    });
    expect((await t.app.inject({ method: 'GET', url, headers })).json()).toMatchObject({
      frost_protection: 7,
      economy_temperature: 15.5,
      standby_temperature: 19,
    });
    const [row] = await t.database.db
      .select()
      .from(units)
      .where(eq(units.id, unit?.id ?? ''));
    expect(row?.nextChangeAt).toEqual(clock.now());
    expect(wake).toHaveBeenCalledTimes(1);
    t.ports.wake = undefined;
  });

  it.each([
    ['an economy setpoint below the range', { economy_temperature: 4 }, 'economy_temperature', 'below_range'],
    [
      'a frost protection setpoint below the range',
      { frost_protection: 4 },
      'frost_protection',
      'below_range',
    ],
    [
      'a standby setpoint above the range',
      { standby_temperature: 29 },
      'standby_temperature',
      'out_of_range',
    ],
    [
      'an economy setpoint below the range changed with it',
      { min_temperature: 12, economy_temperature: 10 },
      'economy_temperature',
      'below_range',
    ],
    [
      'a standby setpoint above the range changed with it',
      { max_temperature: 20, standby_temperature: 21 },
      'standby_temperature',
      'out_of_range',
    ],
  ])('rejects %s naming the field and the range, changing nothing', async (_case, payload, field, code) => {
    const company = await createCompany(t, 'patch-modes-bad');
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/companies/${company.id}/`,
      headers: await t.as('patch-modes-bad'),
      payload,
    });
    const problem = expectProblem(res, 400);
    const bounds = payload as { min_temperature?: number; max_temperature?: number };
    const min = bounds.min_temperature ?? 5;
    const max = bounds.max_temperature ?? 28;
    expect(problem).toMatchObject({ code, errors: [{ field: `body.${field}`, code, params: { min, max } }] });
    const [row] = await t.database.db.select().from(companies).where(eq(companies.id, company.id));
    expect(row).toMatchObject({
      minTemperature: 5,
      maxTemperature: 28,
      economyTemperature: 16,
      standbyTemperature: 18,
    });
  });

  it('answers an empty patch with the unchanged company', async () => {
    const company = await createCompany(t, 'patch-empty', 'As before');
    for (const payload of [{}, { unknown_field: 1 }]) {
      const res = await t.app.inject({
        method: 'PATCH',
        url: `/api/companies/${company.id}/`,
        headers: await t.as('patch-empty'),
        payload,
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(company);
    }
  });

  it('answers 403 to a non-admin member and changes nothing', async () => {
    const company = await createCompany(t, 'patch-bob', 'Unchanged');
    await addMember(t, company.id, 'patch-heater', 'heating');
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/companies/${company.id}/`,
      headers: await t.as('patch-heater'),
      payload: { name: 'Hijacked' },
    });
    expectProblem(res, 403);
    const [row] = await t.database.db.select().from(companies).where(eq(companies.id, company.id));
    expect(row?.name).toBe('Unchanged');
  });

  it.each([
    ['min above max in the body', { min_temperature: 25, max_temperature: 20 }, 'body.min_temperature'],
    ['min above the stored max', { min_temperature: 30 }, 'body.min_temperature'],
    ['max below the stored min', { max_temperature: 5 }, 'body.max_temperature'],
    ['an unknown time zone', { time_zone: 'Mars/Olympus' }, 'body.time_zone'],
    ['a blank name', { name: '   ' }, 'body.name'],
    ['a name with a control character', { name: 'a\u0000b' }, 'body.name'],
    ['a temperature out of range', { max_temperature: 80 }, 'body.max_temperature'],
  ])('rejects %s with a field error and changes nothing', async (_case, payload, field) => {
    const company = await createCompany(t, 'patch-carol', 'Stable');
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/companies/${company.id}/`,
      headers: await t.as('patch-carol'),
      payload,
    });
    expect(expectProblem(res, 400).errors?.map((e) => e.field)).toContain(field);
    const [row] = await t.database.db.select().from(companies).where(eq(companies.id, company.id));
    expect(row).toMatchObject({
      name: 'Stable',
      minTemperature: 5,
      maxTemperature: 28,
      timeZone: 'Europe/Berlin',
    });
  });

  it('answers 404 to an admin of another company', async () => {
    const company = await createCompany(t, 'patch-dave', 'Dave’s');
    await createCompany(t, 'patch-mallory');
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/companies/${company.id}/`,
      headers: await t.as('patch-mallory'),
      payload: { name: 'Taken over' },
    });
    expectProblem(res, 404);
  });
});

describe('OpenAPI document', () => {
  it('describes every account call of spec §7', async () => {
    const paths = Object.keys((await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json().paths);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/api/me/',
        '/api/me/language',
        '/api/me/password',
        '/api/me/request_deletion',
        '/api/me/request-verification',
        '/api/companies/',
        '/api/companies/setup',
        '/api/companies/{id}/',
        '/api/companies/{id}/members/',
        '/api/companies/{id}/members/{email}',
        '/api/companies/{id}/user/{sub}',
        '/api/licenses/current',
        '/api/licenses/{id}/',
        '/api/invite/',
        '/api/invite/{id}',
        '/api/invite/setup/{invite_code}',
      ]),
    );
  });
});

import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers.ts';
import { invites, memberships, totpCredentials, webauthnCredentials } from '../../db/schema.ts';
import { addMember, createCompany, expectProblem, recordMails } from '../me/account.fixtures.ts';
import { LAST_ADMIN } from './companies.service.ts';

// Team calls of spec §7: /companies/{id}/members/ and /companies/{id}/user/{sub}.
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

describe('team calls', () => {
  it('lists members with name, email, role and second factors to admins; other members get 403', async () => {
    const company = await createCompany(t, 'team-alice');
    await addMember(t, company.id, 'team-bob', 'ems');
    // Bob has a confirmed TOTP and two passkeys; an unconfirmed TOTP (Alice's) is none.
    await t.database.db.insert(totpCredentials).values([
      { userId: 'team-bob', secret: 'JBSWY3DPEHPK3PXP', confirmedAt: new Date('2026-12-01T00:00:00Z') },
      { userId: 'team-alice', secret: 'JBSWY3DPEHPK3PXQ' },
    ]);
    await t.database.db.insert(webauthnCredentials).values(
      ['team-bob-key-1', 'team-bob-key-2'].map((credentialId) => ({
        userId: 'team-bob',
        credentialId,
        publicKey: 'pk',
        name: credentialId,
      })),
    );
    const url = `/api/companies/${company.id}/members/`;
    const res = await t.app.inject({ method: 'GET', url, headers: await t.as('team-alice') });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      {
        id: 'team-alice',
        name: 'team-alice',
        email: 'team-alice@example.test',
        role: 'admin',
        factors: { totp: false, passkeys: 0 },
      },
      {
        id: 'team-bob',
        name: 'team-bob',
        email: 'team-bob@example.test',
        role: 'ems',
        factors: { totp: true, passkeys: 2 },
      },
    ]);
    expectProblem(await t.app.inject({ method: 'GET', url, headers: await t.as('team-bob') }), 403);
  });

  it('lets every member read their own membership but only admins read others', async () => {
    const company = await createCompany(t, 'team-own-admin');
    await addMember(t, company.id, 'team-own-ems', 'ems');
    const base = `/api/companies/${company.id}/user`;
    const own = await t.call('GET', `${base}/team-own-ems`, undefined, 'team-own-ems');
    expect(own.json()).toMatchObject({ id: 'team-own-ems', role: 'ems' });
    expectProblem(await t.call('GET', `${base}/team-own-admin`, undefined, 'team-own-ems'), 403);
  });

  it('returns one member, and 404 for a user outside the company', async () => {
    const company = await createCompany(t, 'team-carol');
    await createCompany(t, 'team-outsider');
    const headers = await t.as('team-carol');
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/companies/${company.id}/user/team-carol`,
      headers,
    });
    expect(res.json()).toEqual({
      id: 'team-carol',
      name: 'team-carol',
      email: 'team-carol@example.test',
      role: 'admin',
    });
    expectProblem(
      await t.app.inject({ method: 'GET', url: `/api/companies/${company.id}/user/team-outsider`, headers }),
      404,
    );
    const nul = await t.app.inject({ method: 'GET', url: `/api/companies/${company.id}/user/%00`, headers });
    expect(expectProblem(nul, 400).errors?.[0]?.field).toBe('params.sub');
  });

  it('answers 404 on every team call to a member of another company, writing nothing', async () => {
    const company = await createCompany(t, 'team-dave');
    await addMember(t, company.id, 'team-erin');
    await createCompany(t, 'team-mallory');
    const mallory = await t.as('team-mallory');
    const base = `/api/companies/${company.id}`;
    for (const [method, url] of [
      ['GET', `${base}/members/`],
      ['GET', `${base}/user/team-erin`],
      ['POST', `${base}/members/friend%40example.test`],
      ['DELETE', `${base}/members/team-erin`],
    ] as const) {
      expectProblem(await t.app.inject({ method, url, headers: mallory }), 404);
    }
    const rows = await t.database.db.select().from(memberships).where(eq(memberships.companyId, company.id));
    expect(rows).toHaveLength(2);
    expect(await t.database.db.select().from(invites).where(eq(invites.companyId, company.id))).toEqual([]);
  });

  it('lets an admin invite an email address: 201 invite, mail with the code', async () => {
    const mails = recordMails(t);
    const company = await createCompany(t, 'team-frank', 'Frank GmbH');
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/companies/${company.id}/members/new.colleague%40example.test`,
      headers: await t.as('team-frank'),
    });
    expect(res.statusCode).toBe(201);
    const invite = res.json();
    expect(invite).toMatchObject({
      email: 'new.colleague@example.test',
      company: company.id,
      role: 'heating',
    });
    expect(mails).toHaveLength(1);
    expect(mails[0]?.to).toBe('new.colleague@example.test');
    expect(mails[0]?.subject).toContain('Frank GmbH');
    expect(mails[0]?.text).toContain(invite.id);
  });

  it('rejects a malformed email (400) and a non-admin (403) without creating invites', async () => {
    const company = await createCompany(t, 'team-gina');
    await addMember(t, company.id, 'team-hank', 'heating');
    const bad = await t.app.inject({
      method: 'POST',
      url: `/api/companies/${company.id}/members/not-an-email`,
      headers: await t.as('team-gina'),
    });
    expect(expectProblem(bad, 400).errors?.[0]?.field).toBe('params.email');
    const denied = await t.app.inject({
      method: 'POST',
      url: `/api/companies/${company.id}/members/x%40example.test`,
      headers: await t.as('team-hank'),
    });
    expectProblem(denied, 403);
    expect(await t.database.db.select().from(invites).where(eq(invites.companyId, company.id))).toEqual([]);
  });

  it('lets an admin remove a member, but never the last admin', async () => {
    const company = await createCompany(t, 'team-ivan');
    await addMember(t, company.id, 'team-jane', 'heating');
    const headers = await t.as('team-ivan');
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/companies/${company.id}/members/team-jane`,
      headers,
    });
    expect(removed.statusCode).toBe(204);
    const last = await t.app.inject({
      method: 'DELETE',
      url: `/api/companies/${company.id}/members/team-ivan`,
      headers,
    });
    expect(expectProblem(last, 409).detail).toBe(LAST_ADMIN);
    expectProblem(
      await t.app.inject({ method: 'DELETE', url: `/api/companies/${company.id}/members/nobody`, headers }),
      404,
    );
    const rows = await t.database.db.select().from(memberships).where(eq(memberships.companyId, company.id));
    expect(rows.map((r) => r.userId)).toEqual(['team-ivan']);
  });

  it('lets an admin leave when another admin remains; non-admins cannot remove anyone', async () => {
    const company = await createCompany(t, 'team-kim');
    await addMember(t, company.id, 'team-lea', 'admin');
    await addMember(t, company.id, 'team-max', 'ems');
    expectProblem(
      await t.app.inject({
        method: 'DELETE',
        url: `/api/companies/${company.id}/members/team-lea`,
        headers: await t.as('team-max'),
      }),
      403,
    );
    const left = await t.app.inject({
      method: 'DELETE',
      url: `/api/companies/${company.id}/members/team-kim`,
      headers: await t.as('team-kim'),
    });
    expect(left.statusCode).toBe(204);
    const rows = await t.database.db.select().from(memberships).where(eq(memberships.companyId, company.id));
    expect(rows.map((r) => r.userId).sort()).toEqual(['team-lea', 'team-max']);
  });
});

describe('a removed member', () => {
  it('is told which company removed them on their next visit, until they dismiss it', async () => {
    const company = await createCompany(t, 'notice-admin', 'Gymnasium Nord');
    await addMember(t, company.id, 'notice-member', 'heating');
    const removed = await t.call(
      'DELETE',
      `/api/companies/${company.id}/members/notice-member`,
      undefined,
      'notice-admin',
    );
    expect(removed.statusCode).toBe(204);
    const me = (await t.call('GET', '/api/me/', undefined, 'notice-member')).json();
    expect(me.company_ids).toEqual([]);
    expect(me.notices).toEqual([
      {
        id: expect.any(String),
        kind: 'removed_from_company',
        company_name: 'Gymnasium Nord',
        created_at: expect.any(String),
      },
    ]);
    const [notice] = me.notices;
    // Nobody else dismisses it.
    expectProblem(await t.call('DELETE', `/api/me/notices/${notice.id}`, undefined, 'notice-admin'), 404);
    const dismissed = await t.call('DELETE', `/api/me/notices/${notice.id}`, undefined, 'notice-member');
    expect(dismissed.statusCode).toBe(204);
    expect((await t.call('GET', '/api/me/', undefined, 'notice-member')).json().notices).toEqual([]);
    expectProblem(await t.call('DELETE', `/api/me/notices/${notice.id}`, undefined, 'notice-member'), 404);
    expectProblem(await t.call('DELETE', '/api/me/notices/not-a-uuid', undefined, 'notice-member'), 400);
  });
});

describe('leaving a company', () => {
  it('lets a member who is not an admin leave; access ends at once', async () => {
    const company = await createCompany(t, 'leave-admin');
    await addMember(t, company.id, 'leave-heater', 'heating');
    const units = `/api/companies/${company.id}/units`;
    expect((await t.call('GET', units, undefined, 'leave-heater')).statusCode).toBe(200);
    const left = await t.call(
      'DELETE',
      `/api/companies/${company.id}/members/leave-heater`,
      undefined,
      'leave-heater',
    );
    expect(left.statusCode).toBe(204);
    expectProblem(await t.call('GET', units, undefined, 'leave-heater'), 404);
    const me = await t.call('GET', '/api/me/', undefined, 'leave-heater');
    expect(me.json().company_ids).toEqual([]);
    // Who left knows it: no notice.
    expect(me.json().notices).toEqual([]);
  });

  it('refuses the last admin leaving, with the reason', async () => {
    const company = await createCompany(t, 'leave-last');
    await addMember(t, company.id, 'leave-other', 'heating');
    const res = await t.call(
      'DELETE',
      `/api/companies/${company.id}/members/leave-last`,
      undefined,
      'leave-last',
    );
    expect(expectProblem(res, 409).detail).toBe(LAST_ADMIN);
  });
});

describe('PATCH /api/companies/{id}/members/{sub}', () => {
  it('lets an admin change a member’s role, which takes effect on the next call', async () => {
    const company = await createCompany(t, 'role-admin');
    await addMember(t, company.id, 'role-member', 'ems');
    const units = `/api/companies/${company.id}/units`;
    expectProblem(await t.call('POST', units, { name: 'Raum 1' }, 'role-member'), 403);
    const res = await t.call(
      'PATCH',
      `/api/companies/${company.id}/members/role-member`,
      { role: 'heating' },
      'role-admin',
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      id: 'role-member',
      name: 'role-member',
      email: 'role-member@example.test',
      role: 'heating',
    });
    expect((await t.call('POST', units, { name: 'Raum 1' }, 'role-member')).statusCode).toBe(201);
  });

  it('never demotes the last admin, but lets an admin hand over and step down', async () => {
    const company = await createCompany(t, 'role-only');
    await addMember(t, company.id, 'role-next', 'heating');
    const url = (sub: string) => `/api/companies/${company.id}/members/${sub}`;
    const demote = await t.call('PATCH', url('role-only'), { role: 'heating' }, 'role-only');
    expect(expectProblem(demote, 409).detail).toBe(LAST_ADMIN);
    expect((await t.call('PATCH', url('role-next'), { role: 'admin' }, 'role-only')).statusCode).toBe(200);
    expect((await t.call('PATCH', url('role-only'), { role: 'ems' }, 'role-only')).json().role).toBe('ems');
    const rows = await t.database.db.select().from(memberships).where(eq(memberships.companyId, company.id));
    expect(Object.fromEntries(rows.map((r) => [r.userId, r.role]))).toEqual({
      'role-only': 'ems',
      'role-next': 'admin',
    });
  });

  it('refuses unknown roles (400), non-members (404) and members who are not admins (403)', async () => {
    const company = await createCompany(t, 'role-boss');
    await addMember(t, company.id, 'role-heater', 'heating');
    const url = `/api/companies/${company.id}/members/role-heater`;
    expect(
      expectProblem(await t.call('PATCH', url, { role: 'owner' }, 'role-boss'), 400).errors?.[0]?.field,
    ).toBe('body.role');
    expectProblem(
      await t.call('PATCH', `/api/companies/${company.id}/members/nobody`, { role: 'ems' }, 'role-boss'),
      404,
    );
    expectProblem(await t.call('PATCH', url, { role: 'admin' }, 'role-heater'), 403);
    const [row] = await t.database.db.select().from(memberships).where(eq(memberships.userId, 'role-heater'));
    expect(row?.role).toBe('heating');
  });
});

describe('removing admins at the same time', () => {
  it('leaves one admin when two admins remove each other concurrently', async () => {
    const company = await createCompany(t, 'race-alice');
    await addMember(t, company.id, 'race-bob', 'admin');
    const [a, b] = await Promise.all([
      t.app.inject({
        method: 'DELETE',
        url: `/api/companies/${company.id}/members/race-bob`,
        headers: await t.as('race-alice'),
      }),
      t.app.inject({
        method: 'DELETE',
        url: `/api/companies/${company.id}/members/race-alice`,
        headers: await t.as('race-bob'),
      }),
    ]);
    // The loser finds itself removed (404) or the other as the last admin (409), by timing.
    const codes = [a.statusCode, b.statusCode].sort();
    expect(codes[0]).toBe(204);
    expect([404, 409]).toContain(codes[1]);
    const admins = await t.database.db
      .select()
      .from(memberships)
      .where(eq(memberships.companyId, company.id));
    expect(admins).toHaveLength(1);
  });
});

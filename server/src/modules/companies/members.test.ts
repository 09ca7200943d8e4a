import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers.ts';
import { invites, memberships } from '../../db/schema.ts';
import { addMember, createCompany, expectProblem, recordMails } from '../me/account.fixtures.ts';

// Team calls of spec §7: /companies/{id}/members/ and /companies/{id}/user/{sub}.
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

describe('team calls', () => {
  it('lists members with name, email and role', async () => {
    const company = await createCompany(t, 'team-alice');
    await addMember(t, company.id, 'team-bob', 'ems');
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/companies/${company.id}/members/`,
      headers: await t.as('team-bob'),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      { id: 'team-alice', name: 'team-alice', email: 'team-alice@example.test', role: 'admin' },
      { id: 'team-bob', name: 'team-bob', email: 'team-bob@example.test', role: 'ems' },
    ]);
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
    expect(expectProblem(last, 409).detail).toBe('The last admin of a company cannot be removed.');
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

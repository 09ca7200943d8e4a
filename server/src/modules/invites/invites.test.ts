import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers.ts';
import { invites, memberships } from '../../db/schema.ts';
import {
  addMember,
  createCompany,
  expectProblem,
  forgedAuthorization,
  recordMails,
} from '../me/account.fixtures.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const invitesOf = (companyId: string) =>
  t.database.db.select().from(invites).where(eq(invites.companyId, companyId));

async function createInvite(admin: string, companyId: string, payload?: object) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/invite/?company_id=${companyId}`,
    headers: await t.as(admin),
    ...(payload ? { payload } : {}),
  });
  expect(res.statusCode).toBe(201);
  return res.json();
}

describe('POST /api/invite/', () => {
  it('creates an unguessable code with the default role and sends no mail without an email', async () => {
    const mails = recordMails(t);
    const company = await createCompany(t, 'inv-alice');
    const first = await createInvite('inv-alice', company.id);
    const second = await createInvite('inv-alice', company.id, {});
    expect(first).toMatchObject({ email: null, company: company.id, role: 'heating' });
    expect(first.id).toMatch(/^[A-Za-z0-9_-]{32}$/); // 24 random bytes = 192 bits
    expect(second.id).not.toBe(first.id);
    expect(mails).toEqual([]);
  });

  it('mails the code to the given (trimmed) address with the chosen role', async () => {
    const mails = recordMails(t);
    const company = await createCompany(t, 'inv-bob', 'Wärme AG');
    const invite = await createInvite('inv-bob', company.id, { email: ' new@example.test ', role: 'ems' });
    expect(invite).toMatchObject({ email: 'new@example.test', role: 'ems' });
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ to: 'new@example.test' });
    expect(mails[0]?.text).toContain(invite.id);
    expect(mails[0]?.text).toContain(`http://localhost:3000/setup/2?skipGuard=true&invite_code=${invite.id}`);
  });

  it('withdraws the invite and answers 502 when the mail cannot be sent', async () => {
    recordMails(t, { fail: true });
    const company = await createCompany(t, 'inv-carol');
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/invite/?company_id=${company.id}`,
      headers: await t.as('inv-carol'),
      payload: { email: 'new@example.test' },
    });
    expectProblem(res, 502);
    expect(await invitesOf(company.id)).toEqual([]);
  });

  it.each([
    ['a malformed email', { email: 'nope' }, 'body.email'],
    ['an unknown role', { role: 'owner' }, 'body.role'],
  ])('rejects %s with a field error and writes nothing', async (_case, payload, field) => {
    const company = await createCompany(t, 'inv-dave');
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/invite/?company_id=${company.id}`,
      headers: await t.as('inv-dave'),
      payload,
    });
    expect(expectProblem(res, 400).errors?.[0]?.field).toBe(field);
    expect(await invitesOf(company.id)).toEqual([]);
  });

  it('rejects a missing company_id (400), a non-admin (403) and another company’s admin (404)', async () => {
    const company = await createCompany(t, 'inv-erin');
    await addMember(t, company.id, 'inv-heater', 'heating');
    await createCompany(t, 'inv-mallory');
    expectProblem(
      await t.app.inject({ method: 'POST', url: '/api/invite/', headers: await t.as('inv-erin') }),
      400,
    );
    const url = `/api/invite/?company_id=${company.id}`;
    expectProblem(await t.app.inject({ method: 'POST', url, headers: await t.as('inv-heater') }), 403);
    expectProblem(await t.app.inject({ method: 'POST', url, headers: await t.as('inv-mallory') }), 404);
    expectProblem(
      await t.app.inject({
        method: 'POST',
        url: '/api/invite/?company_id=x',
        headers: await t.as('inv-mallory'),
      }),
      404,
    );
    expectProblem(
      await t.app.inject({ method: 'POST', url, headers: await forgedAuthorization('inv-erin') }),
      401,
    );
    expect(await invitesOf(company.id)).toEqual([]);
  });
});

describe('GET /api/invite/', () => {
  it('lists the company’s open invites to admins only', async () => {
    const company = await createCompany(t, 'inv-frank');
    await addMember(t, company.id, 'inv-frank-ems', 'ems');
    await createCompany(t, 'inv-frank-mallory');
    const invite = await createInvite('inv-frank', company.id);
    const url = `/api/invite/?company_id=${company.id}`;
    const res = await t.app.inject({ method: 'GET', url, headers: await t.as('inv-frank') });
    expect(res.json()).toEqual([invite]);
    expectProblem(await t.app.inject({ method: 'GET', url, headers: await t.as('inv-frank-ems') }), 403);
    expectProblem(await t.app.inject({ method: 'GET', url, headers: await t.as('inv-frank-mallory') }), 404);
  });
});

describe('DELETE /api/invite/{id}', () => {
  it('lets an admin withdraw an invite; others get 403/404 and the invite stays', async () => {
    const company = await createCompany(t, 'inv-gina');
    await addMember(t, company.id, 'inv-gina-ems', 'ems');
    await createCompany(t, 'inv-gina-mallory');
    const invite = await createInvite('inv-gina', company.id);
    const url = `/api/invite/${invite.id}`;
    expectProblem(
      await t.app.inject({ method: 'DELETE', url, headers: await t.as('inv-gina-mallory') }),
      404,
    );
    expectProblem(await t.app.inject({ method: 'DELETE', url, headers: await t.as('inv-gina-ems') }), 403);
    expect(await invitesOf(company.id)).toHaveLength(1);
    const res = await t.app.inject({ method: 'DELETE', url, headers: await t.as('inv-gina') });
    expect(res.statusCode).toBe(204);
    expect(await invitesOf(company.id)).toEqual([]);
    expectProblem(await t.app.inject({ method: 'DELETE', url, headers: await t.as('inv-gina') }), 404);
  });
});

describe('POST /api/invite/setup/{invite_code}', () => {
  it('joins the company with the invite’s role and uses the invite up', async () => {
    const company = await createCompany(t, 'inv-hank', 'Hank KG');
    const invite = await createInvite('inv-hank', company.id, { role: 'ems' });
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/invite/setup/${invite.id}`,
      headers: await t.as('inv-newcomer'),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: company.id, name: 'Hank KG', role: 'ems' });
    expect(await invitesOf(company.id)).toEqual([]);
    const me = await t.app.inject({ method: 'GET', url: '/api/me/', headers: await t.as('inv-newcomer') });
    expect(me.json().company_ids).toEqual([company.id]);

    const reused = await t.app.inject({
      method: 'POST',
      url: `/api/invite/setup/${invite.id}`,
      headers: await t.as('inv-second'),
    });
    expect(expectProblem(reused, 404).detail).toBe('Invalid invite code.');
  });

  it('lets only one of two people redeeming the same code at once join', async () => {
    const company = await createCompany(t, 'inv-race');
    const invite = await createInvite('inv-race', company.id);
    const url = `/api/invite/setup/${invite.id}`;
    const results = await Promise.all([
      t.app.inject({ method: 'POST', url, headers: await t.as('inv-race-1') }),
      t.app.inject({ method: 'POST', url, headers: await t.as('inv-race-2') }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 404]);
    const rows = await t.database.db.select().from(memberships).where(eq(memberships.companyId, company.id));
    expect(rows).toHaveLength(2);
  });

  it.each([
    ['an unknown code', 'A'.repeat(32)],
    ['a malformed code', 'short'],
  ])('answers 404 "Invalid invite code." for %s and joins nothing', async (_case, code) => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/invite/setup/${code}`,
      headers: await t.as('inv-ivan'),
    });
    expect(expectProblem(res, 404).detail).toBe('Invalid invite code.');
    expect(await t.database.db.select().from(memberships).where(eq(memberships.userId, 'inv-ivan'))).toEqual(
      [],
    );
  });

  it('deletes the invite but keeps the role when the caller already is a member', async () => {
    const company = await createCompany(t, 'inv-jane');
    const invite = await createInvite('inv-jane', company.id, { role: 'ems' });
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/invite/setup/${invite.id}`,
      headers: await t.as('inv-jane'),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().role).toBe('admin');
    expect(await invitesOf(company.id)).toEqual([]);
    const rows = await t.database.db
      .select()
      .from(memberships)
      .where(and(eq(memberships.companyId, company.id), eq(memberships.userId, 'inv-jane')));
    expect(rows).toMatchObject([{ role: 'admin' }]);
  });

  it('answers 401 without a valid token and keeps the invite', async () => {
    const company = await createCompany(t, 'inv-kim');
    const invite = await createInvite('inv-kim', company.id);
    const url = `/api/invite/setup/${invite.id}`;
    expectProblem(await t.app.inject({ method: 'POST', url }), 401);
    expectProblem(
      await t.app.inject({ method: 'POST', url, headers: await forgedAuthorization('inv-eve') }),
      401,
    );
    expect(await invitesOf(company.id)).toHaveLength(1);
  });

  describe('wrong codes are throttled like sign-ins', () => {
    const redeem = async (user: string, code: string, ip: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/invite/setup/${code}`,
        headers: await t.as(user),
        remoteAddress: ip,
      });
    const wrong = (i: number) => `wrong-code-${String(i).padStart(21, '0')}`;

    it('locks an account after 5 wrong codes with 429 and Retry-After, even for a valid code', async () => {
      const company = await createCompany(t, 'inv-lara');
      const invite = await createInvite('inv-lara', company.id);
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++)
        statuses.push((await redeem('inv-mo', wrong(i), '198.51.100.1')).statusCode);
      expect(statuses).toEqual([404, 404, 404, 404, 429]);

      const locked = await redeem('inv-mo', invite.id, '198.51.100.2');
      expect(expectProblem(locked, 429).detail).toMatch(/Too many invalid invite codes/);
      expect(Number(locked.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(await invitesOf(company.id)).toHaveLength(1);
      // Another account is not locked by Mo's guesses, and the code still works for it.
      expect((await redeem('inv-nia', invite.id, '198.51.100.2')).statusCode).toBe(200);
    });

    it('locks a client IP after 20 wrong codes from any accounts', async () => {
      const ip = '198.51.100.20';
      const statuses: number[] = [];
      for (let i = 0; i < 20; i++) statuses.push((await redeem(`inv-ip-${i % 5}`, wrong(i), ip)).statusCode);
      expect(statuses.slice(0, 19).every((s) => s === 404)).toBe(true);
      expect(statuses[19]).toBe(429);
      expectProblem(await redeem('inv-ip-fresh', wrong(99), ip), 429);
      expect((await redeem('inv-ip-fresh', wrong(99), '198.51.100.21')).statusCode).toBe(404);
    });

    it('counts again from zero for an account after it joins', async () => {
      const company = await createCompany(t, 'inv-olga');
      for (let i = 0; i < 4; i++) await redeem('inv-pia', wrong(i), '198.51.100.30');
      const invite = await createInvite('inv-olga', company.id);
      expect((await redeem('inv-pia', invite.id, '198.51.100.30')).statusCode).toBe(200);
      expect((await redeem('inv-pia', wrong(4), '198.51.100.31')).statusCode).toBe(404);
    });
  });
});

describe('the company’s role choice and default role (spec §6)', () => {
  it('gives invites without a role the company’s default role', async () => {
    const company = await createCompany(t, 'role-default');
    await t.call('PATCH', `/api/companies/${company.id}/`, { default_invite_role: 'ems' }, 'role-default');
    const invite = await createInvite('role-default', company.id, {});
    expect(invite.role).toBe('ems');
    const joined = await t.call('POST', `/api/invite/setup/${invite.id}`, undefined, 'role-default-new');
    expect(joined.json()).toMatchObject({ id: company.id, role: 'ems' });
  });

  it('with the choice off: invites carry no role, a role is refused, members get the default', async () => {
    recordMails(t);
    const company = await createCompany(t, 'role-off');
    const patched = await t.call(
      'PATCH',
      `/api/companies/${company.id}/`,
      { invite_role_choice: false, default_invite_role: 'heating' },
      'role-off',
    );
    expect(patched.json()).toMatchObject({ invite_role_choice: false, default_invite_role: 'heating' });
    const refused = await t.call(
      'POST',
      `/api/invite/?company_id=${company.id}`,
      { role: 'admin' },
      'role-off',
    );
    expect(expectProblem(refused, 400).errors?.[0]?.field).toBe('body.role');
    const invite = await createInvite('role-off', company.id, { email: 'neu@example.test' });
    expect(invite.role).toBeNull();
    // The default in force when the invite is used counts, not the one when it was sent.
    await t.call('PATCH', `/api/companies/${company.id}/`, { default_invite_role: 'ems' }, 'role-off');
    const joined = await t.call('POST', `/api/invite/setup/${invite.id}`, undefined, 'role-off-new');
    expect(joined.json()).toMatchObject({ role: 'ems' });
  });
});

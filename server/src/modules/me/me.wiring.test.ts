/**
 * The account calls through the ports main.ts wires in embedded mode (auth/account-ports.ts):
 * HTTP call → service → identity account store / outbox mail, end to end.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers.ts';
import { identityAccountPorts } from '../../auth/account-ports.ts';
import { registerAccount } from '../../auth/accounts.service.ts';
import { readOutbox } from '../../auth/identity.test-kit.ts';
import { verifyPassword } from '../../auth/password.ts';
import { identityAccounts } from '../../db/schema.ts';
import { createCompany } from './account.fixtures.ts';

let t: TestApp;
let dataDir: string;
let accountId: string;
let headers: { authorization: string };
const PASSWORD = 'first password 1';

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'heizplan-account-wiring-'));
  t = await buildTestApp({ DATA_DIR: dataDir });
  Object.assign(t.ports, identityAccountPorts(t.config, t.database.db, { info: () => {} }));
  const account = await registerAccount(
    { db: t.database.db, config: t.config },
    { email: 'wired@example.test', name: 'Wired', password: PASSWORD },
    'en',
  );
  accountId = account.id;
  headers = {
    authorization: `Bearer ${await t.issuer.sign(accountId, { email: 'wired@example.test', email_verified: false })}`,
  };
});
afterAll(async () => {
  await t?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('account calls wired to the embedded identity provider', () => {
  it('POST /api/me/request-verification writes a verification mail to the outbox', async () => {
    const before = (await readOutbox(dataDir)).length;
    const res = await t.app.inject({ method: 'POST', url: '/api/me/request-verification', headers });
    expect(res.statusCode).toBe(202);
    const mails = await readOutbox(dataDir);
    expect(mails).toHaveLength(before + 1);
    expect(mails.at(-1)).toContain('wired@example.test');
  });

  it('POST /api/invite/ with an email writes the invite code to the outbox', async () => {
    const company = await createCompany(t, accountId, 'Wired GmbH');
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/invite/?company_id=${company.id}`,
      headers,
      payload: { email: 'colleague@example.test' },
    });
    expect(res.statusCode).toBe(201);
    const mail = (await readOutbox(dataDir)).find((m) => m.includes('colleague@example.test'));
    expect(mail).toContain(res.json().id);
  });
  it('PUT /api/me/password checks the current password, changes it and ends every sign-in', async () => {
    const wrong = await t.app.inject({
      method: 'PUT',
      url: '/api/me/password',
      headers,
      payload: { currentPassword: 'not my password', password: 'second password 2' },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({
      code: 'current_password_wrong',
      errors: [{ field: 'currentPassword' }],
    });
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/me/password',
      headers,
      payload: { currentPassword: PASSWORD, password: 'second password 2' },
    });
    expect(res.statusCode).toBe(204);
    const [account] = await t.database.db
      .select()
      .from(identityAccounts)
      .where(eq(identityAccounts.id, accountId));
    expect(await verifyPassword('second password 2', account!.passwordHash)).toBe(true);
    // The token the change was made with was issued before it: signed out like every other one.
    const after = await t.app.inject({ method: 'GET', url: '/api/me/', headers });
    expect(after.statusCode).toBe(401);
  });
});

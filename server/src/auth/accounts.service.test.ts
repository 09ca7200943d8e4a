/**
 * The account functions the account API calls (`PUT /me/password` → setPassword,
 * `POST /me/request-verification` → sendVerificationMail), through the ports main.ts wires.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers.ts';
import { HttpError } from '../http/errors.ts';
import { identityAccountPorts } from './account-ports.ts';
import { confirmEmail, type IdentityDeps, registerAccount, signIn } from './accounts.service.ts';
import { readOutbox } from './identity.test-kit.ts';

let t: TestApp;
let deps: IdentityDeps;
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'heizplan-accounts-'));
  t = await buildTestApp({ DATA_DIR: dataDir });
  deps = { db: t.database.db, config: t.config };
});
afterAll(async () => {
  await t?.close();
  await rm(dataDir, { recursive: true, force: true });
});

const ports = () => {
  const { account } = identityAccountPorts(t.config, t.database.db, { info: () => {} });
  if (!account) throw new Error('embedded mode must provide the account port');
  return account;
};

describe('setPassword', () => {
  it('replaces the password used at sign-in once the current one matches', async () => {
    const account = await registerAccount(
      deps,
      { email: 'pw@example.test', name: 'Pw', password: 'first password' },
      'en',
    );
    await ports().setPassword(account.id, 'first password', 'second password');
    expect((await signIn(deps, 'pw@example.test', 'first password', '10.0.0.1')).ok).toBe(false);
    expect((await signIn(deps, 'pw@example.test', 'second password', '10.0.0.1')).ok).toBe(true);
  });

  it('refuses a wrong current password with a field error, and locks after five', async () => {
    const account = await registerAccount(
      deps,
      { email: 'pw3@example.test', name: 'Pw', password: 'first password' },
      'en',
    );
    for (let i = 1; i < 5; i++) {
      await expect(ports().setPassword(account.id, 'guess', 'second password')).rejects.toMatchObject({
        status: 400,
        errors: [{ field: 'currentPassword', message: 'The current password is not correct.' }],
        reason: { code: 'current_password_wrong' },
      });
    }
    await expect(ports().setPassword(account.id, 'guess', 'second password')).rejects.toMatchObject({
      status: 429,
      reason: { code: 'too_many_attempts' },
    });
    // Locked: even the right password is not checked now.
    await expect(ports().setPassword(account.id, 'first password', 'second password')).rejects.toMatchObject({
      status: 429,
    });
    expect((await signIn(deps, 'pw3@example.test', 'first password', '10.0.0.9')).ok).toBe(false);
  });

  it('rejects a short password with 400 and an unknown (external) account with 409', async () => {
    const account = await registerAccount(
      deps,
      { email: 'pw2@example.test', name: 'Pw', password: 'first password' },
      'en',
    );
    await expect(ports().setPassword(account.id, 'first password', 'short')).rejects.toMatchObject({
      status: 400,
    });
    await expect(ports().setPassword('external-sub', 'x', 'long enough pw')).rejects.toMatchObject({
      status: 409,
    });
  });
});

describe('sendVerificationMail', () => {
  it('mails a fresh verification link that confirms the address; 409 once verified', async () => {
    const account = await registerAccount(
      deps,
      { email: 'mail@example.test', name: 'Mia', password: 'mail password' },
      'de',
    );
    const before = (await readOutbox(dataDir)).length;
    await ports().requestVerification(account.id);
    const mails = await readOutbox(dataDir);
    expect(mails).toHaveLength(before + 1);
    const mail = mails.at(-1) ?? '';
    expect(mail).toContain('To: mail@example.test');
    const token = mail.match(/\/auth\/verify\/([\w-]+)/)?.[1] ?? '';
    expect((await confirmEmail(t.database.db, token))?.emailVerified).toBe(true);
    const again = ports().requestVerification(account.id);
    await expect(again).rejects.toBeInstanceOf(HttpError);
    await expect(again).rejects.toMatchObject({ status: 409 });
  });
});

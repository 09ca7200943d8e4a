/**
 * Seeding helpers for the account-call tests: companies are created through the
 * real `POST /api/companies/setup`, extra members are inserted directly.
 */
import type { Company } from '@heizplan/contracts/account';
import { generateKeyPair, SignJWT } from 'jose';
import { expect } from 'vitest';
import { TEST_AUDIENCE, TEST_ISSUER, type TestApp } from '../../../test/helpers.ts';
import type { Role } from '../../auth/membership.ts';
import { memberships, users } from '../../db/schema.ts';
import { resolveAccountPorts } from './me.ports.ts';

/** Creates a company as `admin` (provisioning that user) and returns it. */
export async function createCompany(
  t: TestApp,
  admin: string,
  name = `${admin}'s company`,
): Promise<Company> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/companies/setup?company_name=${encodeURIComponent(name)}`,
    headers: await t.as(admin),
  });
  expect(res.statusCode).toBe(201);
  return res.json();
}

/** Makes `sub` (provisioned with a user row if needed) a member of `companyId`. */
export async function addMember(t: TestApp, companyId: string, sub: string, role: Role = 'heating') {
  await t.database.db
    .insert(users)
    .values({ id: sub, name: sub, email: `${sub}@example.test` })
    .onConflictDoNothing();
  await t.database.db.insert(memberships).values({ companyId, userId: sub, role });
}

/** Asserts a problem+json answer with the given status and returns its body. */
export function expectProblem(
  res: { statusCode: number; headers: Record<string, unknown>; json(): unknown },
  status: number,
) {
  expect(res.statusCode).toBe(status);
  expect(String(res.headers['content-type'])).toContain('application/problem+json');
  const body = res.json() as {
    status: number;
    detail?: string;
    errors?: { field: string; message: string }[];
  };
  expect(body.status).toBe(status);
  return body;
}

/** A well-formed token for `sub` from the right issuer name but signed with a foreign key. */
export async function forgedAuthorization(sub: string): Promise<{ authorization: string }> {
  const { privateKey } = await generateKeyPair('ES256');
  const token = await new SignJWT({ email: `${sub}@example.test` })
    .setProtectedHeader({ alg: 'ES256', kid: 'test' })
    .setSubject(sub)
    .setIssuer(TEST_ISSUER)
    .setAudience(TEST_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime('10m')
    .sign(privateKey);
  return { authorization: `Bearer ${token}` };
}

export interface SentMail {
  to: string;
  subject: string;
  text: string;
  attachments?: { filename: string; content: Buffer; contentType: string }[];
}

/** Replaces the app's mailer with one that records mails (or fails when `fail` is set). */
export function recordMails(t: TestApp, options: { fail?: boolean } = {}): SentMail[] {
  const sent: SentMail[] = [];
  t.ports.mailer = {
    send: async (to, subject, text, attachments) => {
      if (options.fail) throw new Error('SMTP refused the message');
      sent.push({ to, subject, text, ...(attachments ? { attachments } : {}) });
    },
  };
  return sent;
}

/**
 * Replaces the identity-account and billing ports with recorders; the second-factor calls keep
 * what an app without the account store does (503).
 */
export function recordAccountCalls(t: TestApp) {
  const unset = resolveAccountPorts(undefined, t.app.log).account;
  const calls = {
    verification: [] as string[],
    password: [] as [string, string][],
    deletion: [] as string[],
  };
  t.ports.account = {
    ...unset,
    requestVerification: async (userId) => {
      calls.verification.push(userId);
    },
    setPassword: async (userId, _currentPassword, password) => {
      calls.password.push([userId, password]);
    },
  };
  t.ports.accountDeletion = {
    onAccountDeletion: async (userId) => {
      calls.deletion.push(userId);
    },
  };
  return calls;
}

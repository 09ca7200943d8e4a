/**
 * Queries on the embedded provider's sign-in accounts, their single-use mail-link tokens (kept as
 * SHA-256 hex of the token) and the API user rows they belong to.
 */
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { identityAccounts, identityTokens, oidcPayloads, users } from '../db/schema.ts';

export type IdentityAccount = typeof identityAccounts.$inferSelect;

export async function findAccountByEmail(db: Db, email: string): Promise<IdentityAccount | undefined> {
  const [row] = await db
    .select()
    .from(identityAccounts)
    .where(eq(sql`lower(${identityAccounts.email})`, email.trim().toLowerCase()))
    .limit(1);
  return row;
}

export async function findAccountById(db: Db, id: string): Promise<IdentityAccount | undefined> {
  const [row] = await db.select().from(identityAccounts).where(eq(identityAccounts.id, id)).limit(1);
  return row;
}

/**
 * The account behind a token `sub`, or undefined when it does not exist or its user was
 * deactivated (`DELETE /me/request_deletion`): then sign-in, refresh and silent login fail.
 */
export async function findActiveAccount(db: Db, id: string): Promise<IdentityAccount | undefined> {
  return (await findActiveAccountWithSignOut(db, id))?.account;
}

/**
 * `findActiveAccount` with the user's `tokens_valid_from` (the sign-out epoch access tokens
 * carry), read in the same statement.
 */
export async function findActiveAccountWithSignOut(
  db: Db,
  id: string,
): Promise<{ account: IdentityAccount; tokensValidFrom: Date | null } | undefined> {
  const [row] = await db
    .select({ account: identityAccounts, active: users.active, tokensValidFrom: users.tokensValidFrom })
    .from(identityAccounts)
    .leftJoin(users, eq(users.id, identityAccounts.id))
    .where(eq(identityAccounts.id, id))
    .limit(1);
  if (!row || row.active === false) return undefined;
  return { account: row.account, tokensValidFrom: row.tokensValidFrom };
}

/** Notes a completed sign-in on the user row (the team screen shows it). */
export async function recordLogin(db: Db, userId: string, at: Date): Promise<void> {
  await db.update(users).set({ lastLogin: at }).where(eq(users.id, userId));
}

/** The language the user chose for the app and mails; German, the default, when none. */
export async function userLanguage(db: Db, userId: string): Promise<'de' | 'en'> {
  const [row] = await db.select({ lang: users.lang }).from(users).where(eq(users.id, userId)).limit(1);
  return row?.lang ?? 'de';
}

/** Stores a new account. @returns undefined when the email was taken meanwhile (unique index). */
export async function insertAccount(
  db: Db,
  values: typeof identityAccounts.$inferInsert,
): Promise<IdentityAccount | undefined> {
  const [account] = await db.insert(identityAccounts).values(values).onConflictDoNothing().returning();
  return account;
}

export type LinkPurpose = 'verify-email' | 'reset-password';

export async function insertLinkToken(
  db: Db,
  tokenHash: string,
  accountId: string,
  purpose: LinkPurpose,
  expiresAt: Date,
): Promise<void> {
  await db.insert(identityTokens).values({ tokenHash, accountId, purpose, expiresAt });
}

const usableLinkToken = (tokenHash: string, purpose: LinkPurpose) =>
  and(
    eq(identityTokens.tokenHash, tokenHash),
    eq(identityTokens.purpose, purpose),
    isNull(identityTokens.usedAt),
    gt(identityTokens.expiresAt, new Date()),
  );

/** Marks the link token used. @returns its account id; undefined when unknown, used or expired. */
export async function spendLinkToken(db: Db, tokenHash: string, purpose: LinkPurpose) {
  const [row] = await db
    .update(identityTokens)
    .set({ usedAt: new Date() })
    .where(usableLinkToken(tokenHash, purpose))
    .returning({ accountId: identityTokens.accountId });
  return row?.accountId;
}

export async function isLinkTokenUsable(db: Db, tokenHash: string, purpose: LinkPurpose): Promise<boolean> {
  const [row] = await db
    .select({ accountId: identityTokens.accountId })
    .from(identityTokens)
    .where(usableLinkToken(tokenHash, purpose));
  return Boolean(row);
}

/** Marks the account's and its user row's email verified. @returns the account. */
export async function markEmailVerified(db: Db, accountId: string): Promise<IdentityAccount | undefined> {
  return db.transaction(async (tx) => {
    const [account] = await tx
      .update(identityAccounts)
      .set({ emailVerified: true })
      .where(eq(identityAccounts.id, accountId))
      .returning();
    await tx.update(users).set({ emailVerified: true }).where(eq(users.id, accountId));
    return account;
  });
}

/**
 * Stores the password hash and, in the same transaction, deletes the account's provider state
 * and refuses its access tokens issued before now (`users.tokens_valid_from`).
 */
export async function replacePassword(db: Db, accountId: string, passwordHash: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.update(identityAccounts).set({ passwordHash }).where(eq(identityAccounts.id, accountId));
    await tx.execute(
      sql`delete from ${oidcPayloads} where ${oidcPayloads.payload}->>'accountId' = ${accountId}`,
    );
    // The user row may not exist yet (it is made on the first API call): make it, so a token
    // issued before now cannot provision a fresh row that knows nothing of the sign-out.
    const [account] = await tx.select().from(identityAccounts).where(eq(identityAccounts.id, accountId));
    const now = new Date();
    await tx
      .insert(users)
      .values({
        id: accountId,
        name: account?.name ?? '',
        email: account?.email ?? '',
        emailVerified: account?.emailVerified ?? false,
        tokensValidFrom: now,
      })
      .onConflictDoUpdate({ target: users.id, set: { tokensValidFrom: now } });
  });
}

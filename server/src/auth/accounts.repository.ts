/** Queries on the embedded provider's sign-in accounts and the API user rows they belong to. */
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { identityAccounts, users } from '../db/schema.ts';

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

/** Queries on the caller's own user row and deletion request. */
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  accountDeletionRequests,
  identityAccounts,
  memberships,
  userNotices,
  users,
} from '../../db/schema.ts';

export type UserRow = typeof users.$inferSelect;
export type NoticeRow = typeof userNotices.$inferSelect;

export async function findUser(db: Db, userId: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  return row;
}

export async function companyIdsOf(db: Db, userId: string): Promise<string[]> {
  const rows = await db
    .select({ id: memberships.companyId })
    .from(memberships)
    .where(eq(memberships.userId, userId))
    .orderBy(asc(memberships.createdAt), asc(memberships.companyId));
  return rows.map((r) => r.id);
}

export async function noticesOf(db: Db, userId: string): Promise<NoticeRow[]> {
  return db
    .select()
    .from(userNotices)
    .where(eq(userNotices.userId, userId))
    .orderBy(asc(userNotices.createdAt), asc(userNotices.id));
}

/** @returns false when the user has no notice `noticeId` (someone else's counts as none). */
export async function deleteNotice(db: Db, userId: string, noticeId: string): Promise<boolean> {
  const deleted = await db
    .delete(userNotices)
    .where(and(eq(userNotices.id, noticeId), eq(userNotices.userId, userId)))
    .returning({ id: userNotices.id });
  return deleted.length > 0;
}

export async function setUserLanguage(
  db: Db,
  userId: string,
  lang: UserRow['lang'],
): Promise<UserRow | undefined> {
  const [row] = await db.update(users).set({ lang }).where(eq(users.id, userId)).returning();
  return row;
}

/**
 * Saves name and email here and on the embedded provider's sign-in account (if there is
 * one, so the new address is the login); a changed email is unverified again.
 * @returns 'email-taken' (nothing saved) when another sign-in account uses that email.
 */
export async function updateProfile(
  db: Db,
  userId: string,
  profile: { name: string; email: string; emailChanged: boolean },
): Promise<UserRow | undefined | 'email-taken'> {
  const { name, email, emailChanged } = profile;
  try {
    return await db.transaction(async (tx) => {
      await tx
        .update(identityAccounts)
        .set({ name, ...(emailChanged ? { email, emailVerified: false } : {}) })
        .where(eq(identityAccounts.id, userId));
      const [row] = await tx
        .update(users)
        .set({ name, email, ...(emailChanged ? { emailVerified: false } : {}) })
        .where(eq(users.id, userId))
        .returning();
      return row;
    });
  } catch (err) {
    if (isUniqueViolation(err)) return 'email-taken';
    throw err;
  }
}

/** Deactivates the user and records the request in one transaction; a repeat keeps the first dates. */
export async function requestDeletion(
  db: Db,
  userId: string,
  requestedAt: Date,
  purgeAfter: Date,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.update(users).set({ active: false }).where(eq(users.id, userId));
    await tx
      .insert(accountDeletionRequests)
      .values({ userId, requestedAt, purgeAfter })
      .onConflictDoNothing();
  });
}

/** PostgreSQL unique violation (SQLSTATE 23505), raw or wrapped by Drizzle. */
function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } } | null;
  return e?.code === '23505' || e?.cause?.code === '23505';
}

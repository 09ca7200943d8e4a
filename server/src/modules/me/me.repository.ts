/**
 * Queries on the caller's own user row and deletion request, and the purge of an account whose
 * deletion is due: its sole-member companies (with their telemetry), its provider state and its
 * user row, handing a company's admin role on when it was the last admin.
 */
import { and, asc, count, eq, inArray, lte, ne, sql } from 'drizzle-orm';
import { personMembership } from '../../auth/auth.repository.ts';
import type { Db } from '../../db/client.ts';
import {
  accountDeletionRequests,
  companies,
  identityAccounts,
  memberships,
  oidcPayloads,
  telemetry,
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

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/**
 * Claims the oldest deletion request due at `now` (`FOR UPDATE SKIP LOCKED`) and purges its
 * account in one transaction, so two instances never purge one account twice.
 * @returns the purged user's id, undefined when none is due.
 */
export async function purgeNextDueAccount(db: Db, now: Date): Promise<string | undefined> {
  return db.transaction(async (tx) => {
    const [due] = await tx
      .select({ userId: accountDeletionRequests.userId })
      .from(accountDeletionRequests)
      .where(lte(accountDeletionRequests.purgeAfter, now))
      .orderBy(asc(accountDeletionRequests.purgeAfter))
      .limit(1)
      .for('update', { skipLocked: true });
    if (due) await purgeAccount(tx, due.userId);
    return due?.userId;
  });
}

async function purgeAccount(tx: Tx, userId: string): Promise<void> {
  const own = await tx
    .select({ companyId: memberships.companyId, role: memberships.role })
    .from(memberships)
    .where(eq(memberships.userId, userId));
  const companyIds = own.map((m) => m.companyId);
  // Guard against running the grouped query with an empty id list.
  if (companyIds.length > 0) {
    const sizes = await tx
      .select({ companyId: memberships.companyId, members: count() })
      .from(memberships)
      .where(and(inArray(memberships.companyId, companyIds), personMembership))
      .groupBy(memberships.companyId);
    const soleMember = sizes.filter((s) => s.members === 1).map((s) => s.companyId);
    if (soleMember.length > 0) {
      // Telemetry has no foreign key to cascade along (docs/decisions/0035): its rows go explicitly.
      await tx.delete(telemetry).where(inArray(telemetry.companyId, soleMember));
      await tx.delete(companies).where(inArray(companies.id, soleMember));
    }
    for (const { companyId } of own.filter((m) => m.role === 'admin' && !soleMember.includes(m.companyId))) {
      await handOverAdmin(tx, companyId, userId);
    }
  }
  await tx.delete(oidcPayloads).where(eq(sql`${oidcPayloads.payload}->>'accountId'`, userId));
  await tx.delete(identityAccounts).where(eq(identityAccounts.id, userId));
  await tx.delete(users).where(eq(users.id, userId));
}

/** Promotes the longest-standing other member when `leavingAdmin` is the company's last admin. */
async function handOverAdmin(db: Tx, companyId: string, leavingAdmin: string): Promise<void> {
  const [otherAdmins] = await db
    .select({ n: count() })
    .from(memberships)
    .where(
      and(
        eq(memberships.companyId, companyId),
        eq(memberships.role, 'admin'),
        ne(memberships.userId, leavingAdmin),
      ),
    );
  if ((otherAdmins?.n ?? 0) > 0) return;
  const [successor] = await db
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(and(eq(memberships.companyId, companyId), ne(memberships.userId, leavingAdmin), personMembership))
    .orderBy(asc(memberships.createdAt), asc(memberships.userId))
    .limit(1);
  if (!successor) return;
  await db
    .update(memberships)
    .set({ role: 'admin' })
    .where(and(eq(memberships.companyId, companyId), eq(memberships.userId, successor.userId)));
}

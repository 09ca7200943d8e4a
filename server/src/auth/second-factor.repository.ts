/**
 * Queries on a user's second factor (decision 0072): the TOTP authenticator (`totp_credentials`,
 * base32 secret, confirmation time, last accepted RFC 6238 time step) and the single-use
 * recovery codes (`recovery_codes`, SHA-256 hex of each code).
 */
import { and, count, eq, isNotNull, isNull, lt, min, or } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import {
  companies,
  memberships,
  recoveryCodes,
  totpCredentials,
  users,
  webauthnCredentials,
} from '../db/schema.ts';

export type TotpCredential = typeof totpCredentials.$inferSelect;

export async function findTotp(db: Db, userId: string): Promise<TotpCredential | undefined> {
  const [row] = await db.select().from(totpCredentials).where(eq(totpCredentials.userId, userId)).limit(1);
  return row;
}

/**
 * Stores `secret` as the user's unconfirmed TOTP, replacing an unconfirmed one.
 * @returns false (nothing changed) when the user has a confirmed TOTP.
 */
export async function storeUnconfirmedTotp(
  db: Db,
  userId: string,
  secret: string,
  now: Date,
): Promise<boolean> {
  const rows = await db
    .insert(totpCredentials)
    .values({ userId, secret, createdAt: now })
    .onConflictDoUpdate({
      target: totpCredentials.userId,
      set: { secret, createdAt: now, lastUsedStep: null },
      setWhere: isNull(totpCredentials.confirmedAt),
    })
    .returning({ userId: totpCredentials.userId });
  return rows.length > 0;
}

/**
 * Confirms the user's unconfirmed TOTP `secret` with the time step of its first code and replaces
 * the recovery codes by `codeHashes`, in one transaction.
 * @returns false when there was no such unconfirmed TOTP (none, replaced or confirmed meanwhile).
 */
export async function confirmTotp(
  db: Db,
  userId: string,
  secret: string,
  step: number,
  now: Date,
  codeHashes: string[],
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const rows = await tx
      .update(totpCredentials)
      .set({ confirmedAt: now, lastUsedStep: step })
      .where(
        and(
          eq(totpCredentials.userId, userId),
          eq(totpCredentials.secret, secret),
          isNull(totpCredentials.confirmedAt),
        ),
      )
      .returning({ userId: totpCredentials.userId });
    if (rows.length === 0) return false;
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
    await tx.insert(recoveryCodes).values(codeHashes.map((codeHash) => ({ userId, codeHash })));
    return true;
  });
}

/**
 * Takes the time step `step` of a confirmed TOTP when it is later than the last one taken; the
 * compare-and-set makes two requests with the same code accept it only once.
 * @returns true when the step was taken now.
 */
export async function takeTotpStep(db: Db, userId: string, step: number): Promise<boolean> {
  const rows = await db
    .update(totpCredentials)
    .set({ lastUsedStep: step })
    .where(
      and(
        eq(totpCredentials.userId, userId),
        isNotNull(totpCredentials.confirmedAt),
        or(isNull(totpCredentials.lastUsedStep), lt(totpCredentials.lastUsedStep, step)),
      ),
    )
    .returning({ userId: totpCredentials.userId });
  return rows.length > 0;
}

/** Marks the user's unused recovery code with this hash used. @returns true when one was spent now. */
export async function spendRecoveryCode(
  db: Db,
  userId: string,
  codeHash: string,
  now: Date,
): Promise<boolean> {
  const rows = await db
    .update(recoveryCodes)
    .set({ usedAt: now })
    .where(
      and(
        eq(recoveryCodes.userId, userId),
        eq(recoveryCodes.codeHash, codeHash),
        isNull(recoveryCodes.usedAt),
      ),
    )
    .returning({ id: recoveryCodes.id });
  return rows.length > 0;
}

/** The user's recovery codes not used yet. */
export async function countUnusedRecoveryCodes(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  return row?.n ?? 0;
}

/** Removes the user's TOTP (confirmed or not) and all their recovery codes. */
export async function deleteSecondFactor(db: Db, userId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
    await tx.delete(totpCredentials).where(eq(totpCredentials.userId, userId));
  });
}

/** True when the user has a confirmed TOTP, so the sign-in asks for a code. */
export async function hasConfirmedTotp(db: Db, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ userId: totpCredentials.userId })
    .from(totpCredentials)
    .where(and(eq(totpCredentials.userId, userId), isNotNull(totpCredentials.confirmedAt)))
    .limit(1);
  return row !== undefined;
}

/**
 * An admin's reset (decision 0078): removes the user's TOTP, recovery codes and passkeys and, in
 * the same transaction, refuses the access tokens issued before `now` (`users.tokens_valid_from`),
 * so a session signed in with the old factors cannot go on even for its token's last minutes.
 */
export async function deleteAllFactors(db: Db, userId: string, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
    await tx.delete(totpCredentials).where(eq(totpCredentials.userId, userId));
    await tx.delete(webauthnCredentials).where(eq(webauthnCredentials.userId, userId));
    await tx.update(users).set({ tokensValidFrom: now }).where(eq(users.id, userId));
  });
}

/**
 * Days a browser of the user may skip the code step (decision 0078): the smallest
 * `remember_device_days` of the user's companies, so every company must allow it; 0 for a user
 * without a company. Also the user's `tokens_valid_from`, which a trusted browser is bound to.
 */
export async function rememberDeviceTerms(
  db: Db,
  userId: string,
): Promise<{ days: number; tokensValidFrom: Date | null }> {
  const [row] = await db
    .select({ days: min(companies.rememberDeviceDays) })
    .from(memberships)
    .innerJoin(companies, eq(companies.id, memberships.companyId))
    .where(eq(memberships.userId, userId));
  const [user] = await db
    .select({ tokensValidFrom: users.tokensValidFrom })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return { days: Number(row?.days ?? 0), tokensValidFrom: user?.tokensValidFrom ?? null };
}

/**
 * Queries on passkeys (decision 0074): the users' WebAuthn credentials (`webauthn_credentials`)
 * and the outstanding challenges (`webauthn_challenges`), which are taken — read and deleted in
 * one statement — so each is accepted once, on whichever instance answers.
 */
import { and, asc, eq, gt, isNull, lt } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { webauthnChallenges, webauthnCredentials } from '../db/schema.ts';

export type PasskeyRow = typeof webauthnCredentials.$inferSelect;
export type ChallengeRow = typeof webauthnChallenges.$inferSelect;

/** The user's passkeys, oldest first. */
export async function listCredentials(db: Db, userId: string): Promise<PasskeyRow[]> {
  return db
    .select()
    .from(webauthnCredentials)
    .where(eq(webauthnCredentials.userId, userId))
    .orderBy(asc(webauthnCredentials.createdAt), asc(webauthnCredentials.id));
}

/** The passkey with this WebAuthn credential id (base64url), of whichever user. */
export async function findCredential(db: Db, credentialId: string): Promise<PasskeyRow | undefined> {
  const [row] = await db
    .select()
    .from(webauthnCredentials)
    .where(eq(webauthnCredentials.credentialId, credentialId))
    .limit(1);
  return row;
}

/** True when the user has at least one passkey, so the sign-in offers it as a second factor. */
export async function hasPasskey(db: Db, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: webauthnCredentials.id })
    .from(webauthnCredentials)
    .where(eq(webauthnCredentials.userId, userId))
    .limit(1);
  return row !== undefined;
}

/** Stores a new passkey. @returns undefined when its credential id is registered already. */
export async function insertCredential(
  db: Db,
  row: Omit<typeof webauthnCredentials.$inferInsert, 'id' | 'lastUsedAt'>,
): Promise<PasskeyRow | undefined> {
  const [inserted] = await db
    .insert(webauthnCredentials)
    .values(row)
    .onConflictDoNothing({ target: webauthnCredentials.credentialId })
    .returning();
  return inserted;
}

/** Renames the user's passkey `id`. @returns the row, or undefined when the user has no such passkey. */
export async function renameCredential(
  db: Db,
  userId: string,
  id: string,
  name: string,
): Promise<PasskeyRow | undefined> {
  const [row] = await db
    .update(webauthnCredentials)
    .set({ name })
    .where(and(eq(webauthnCredentials.id, id), eq(webauthnCredentials.userId, userId)))
    .returning();
  return row;
}

/** Deletes the user's passkey `id`. @returns false when the user has no such passkey. */
export async function deleteCredential(db: Db, userId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(webauthnCredentials)
    .where(and(eq(webauthnCredentials.id, id), eq(webauthnCredentials.userId, userId)))
    .returning({ id: webauthnCredentials.id });
  return rows.length > 0;
}

/**
 * Records a sign-in with the passkey: its new signature counter and the time. The counter only
 * moves forward (or stays 0 for an authenticator without one, WebAuthn Level 2 §6.1.1), also
 * when two sign-ins finish at once. @returns false when another sign-in overtook this one.
 */
export async function recordCredentialUse(db: Db, id: string, counter: number, now: Date): Promise<boolean> {
  const rows = await db
    .update(webauthnCredentials)
    .set({ counter, lastUsedAt: now })
    .where(
      and(
        eq(webauthnCredentials.id, id),
        counter === 0 ? eq(webauthnCredentials.counter, 0) : lt(webauthnCredentials.counter, counter),
      ),
    )
    .returning({ id: webauthnCredentials.id });
  return rows.length > 0;
}

/** Stores a challenge and sweeps the expired ones (each lives minutes, so there are few). */
export async function storeChallenge(db: Db, row: ChallengeRow, now: Date): Promise<void> {
  await db.delete(webauthnChallenges).where(lt(webauthnChallenges.expiresAt, now));
  await db.insert(webauthnChallenges).values(row);
}

/**
 * Takes (deletes) the unexpired challenge with this purpose and binding: the user it was issued
 * to (null: none, a discoverable sign-in) and the interaction (registrations have none).
 * @returns true when it existed and is used up now.
 */
export async function takeChallenge(
  db: Db,
  challenge: string,
  binding: Pick<ChallengeRow, 'purpose' | 'userId' | 'interactionUid'>,
  now: Date,
): Promise<boolean> {
  const rows = await db
    .delete(webauthnChallenges)
    .where(
      and(
        eq(webauthnChallenges.challenge, challenge),
        eq(webauthnChallenges.purpose, binding.purpose),
        binding.userId === null
          ? isNull(webauthnChallenges.userId)
          : eq(webauthnChallenges.userId, binding.userId),
        binding.interactionUid === null
          ? isNull(webauthnChallenges.interactionUid)
          : eq(webauthnChallenges.interactionUid, binding.interactionUid),
        gt(webauthnChallenges.expiresAt, now),
      ),
    )
    .returning({ challenge: webauthnChallenges.challenge });
  return rows.length > 0;
}

/**
 * Queries of the account's sessions at the embedded provider (decision 0074): the provider's own
 * Session rows in `oidc_payloads`, the browser and last use kept in `account_sessions`, and what
 * the new-sign-in mail needs. The rules are in sessions.service.ts.
 */
import { and, asc, desc, eq, gt, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { accountSessions, companies, identityAccounts, memberships, oidcPayloads } from '../db/schema.ts';

/**
 * When the account signed in to provider session `sessionUid` (its `loginTs`, seconds since the
 * epoch); undefined for an unknown or ended session.
 */
export async function sessionLoginTime(db: Db, sessionUid: string): Promise<number | undefined> {
  const [row] = await db
    .select({ loginTs: sql<string | null>`${oidcPayloads.payload}->>'loginTs'` })
    .from(oidcPayloads)
    .where(and(eq(oidcPayloads.kind, 'Session'), eq(oidcPayloads.uid, sessionUid)))
    .limit(1);
  const loginTs = Number(row?.loginTs);
  return Number.isFinite(loginTs) && loginTs > 0 ? loginTs : undefined;
}

/** Inserts a session's first use, or sets a known one's last use. @returns true when the row is new. */
export async function upsertSessionUse(
  db: Db,
  row: { sessionUid: string; accountId: string; userAgent: string; browser: string; os: string; now: Date },
): Promise<boolean> {
  const rows = await db
    .insert(accountSessions)
    .values({
      sessionUid: row.sessionUid,
      accountId: row.accountId,
      userAgent: row.userAgent,
      browser: row.browser,
      os: row.os,
      createdAt: row.now,
      lastUsedAt: row.now,
    })
    .onConflictDoUpdate({ target: accountSessions.sessionUid, set: { lastUsedAt: row.now } })
    .returning({ created: sql<boolean>`(xmax = 0)` });
  return rows[0]?.created === true;
}

/** Uids of the provider Session rows of `accountId` still alive at `now`. */
export async function liveSessionUids(db: Db, accountId: string, now: Date): Promise<string[]> {
  const rows = await db
    .select({ uid: sql<string>`${oidcPayloads.payload}->>'uid'` })
    .from(oidcPayloads)
    .where(
      and(
        eq(oidcPayloads.kind, 'Session'),
        sql`${oidcPayloads.payload}->>'accountId' = ${accountId}`,
        or(isNull(oidcPayloads.expiresAt), gt(oidcPayloads.expiresAt, now)),
      ),
    );
  return rows.map((r) => r.uid);
}

/** The account's kept sessions among `uids` that were not ended, the last used first. */
export function sessionRows(db: Db, accountId: string, uids: string[]) {
  return db
    .select()
    .from(accountSessions)
    .where(
      and(
        eq(accountSessions.accountId, accountId),
        inArray(accountSessions.sessionUid, uids),
        isNull(accountSessions.endedAt),
      ),
    )
    .orderBy(desc(accountSessions.lastUsedAt));
}

/** Deletes the account's provider Session rows `uids`; answers their payloads. */
export async function deleteProviderSessions(db: Db, accountId: string, uids: string[]) {
  return db
    .delete(oidcPayloads)
    .where(
      and(
        eq(oidcPayloads.kind, 'Session'),
        sql`${oidcPayloads.payload}->>'accountId' = ${accountId}`,
        inArray(sql`${oidcPayloads.payload}->>'uid'`, uids),
      ),
    )
    .returning({ payload: oidcPayloads.payload });
}

/** Deletes what was issued in the sessions `ended` (codes, refresh tokens) and the grants `grantIds`. */
export async function deleteSessionTokens(db: Db, ended: string[], grantIds: string[]): Promise<void> {
  await db
    .delete(oidcPayloads)
    .where(
      or(
        inArray(sql`${oidcPayloads.payload}->>'sessionUid'`, ended),
        ...(grantIds.length > 0
          ? [
              inArray(oidcPayloads.grantId, grantIds),
              and(eq(oidcPayloads.kind, 'Grant'), inArray(oidcPayloads.id, grantIds)),
            ]
          : []),
      ),
    );
}

/** Marks the account's sessions `ended` as ended at `at`. */
export async function markSessionsEnded(db: Db, accountId: string, ended: string[], at: Date): Promise<void> {
  await db
    .update(accountSessions)
    .set({ endedAt: at })
    .where(and(eq(accountSessions.accountId, accountId), inArray(accountSessions.sessionUid, ended)));
}

/** Browser and OS of the account's other kept sessions. */
export function otherSessionDevices(db: Db, accountId: string, sessionUid: string) {
  return db
    .select({ browser: accountSessions.browser, os: accountSessions.os })
    .from(accountSessions)
    .where(and(eq(accountSessions.accountId, accountId), ne(accountSessions.sessionUid, sessionUid)));
}

/** The account's mail address and name, if it exists. */
export async function accountContact(db: Db, accountId: string) {
  const [account] = await db
    .select({ email: identityAccounts.email, name: identityAccounts.name })
    .from(identityAccounts)
    .where(eq(identityAccounts.id, accountId));
  return account;
}

/** The zone a user's times are told in: their oldest company's, else Germany's (spec §1). */
export async function userTimeZone(db: Db, userId: string): Promise<string> {
  const [row] = await db
    .select({ zone: companies.timeZone })
    .from(memberships)
    .innerJoin(companies, eq(companies.id, memberships.companyId))
    .where(eq(memberships.userId, userId))
    .orderBy(asc(memberships.createdAt))
    .limit(1);
  return row?.zone ?? 'Europe/Berlin';
}

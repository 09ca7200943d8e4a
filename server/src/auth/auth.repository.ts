/**
 * The queries of request authentication and the embedded provider's upkeep: API tokens (looked up
 * by SHA-256 hex of the token), the user row a bearer token names, memberships' roles, the
 * provider's stored keys (`identity_secrets`, JSON values) and the sign-in failure counters
 * (`login_failures`: failures, last failure and lock end per key).
 */
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../db/client.ts';
import {
  accountSessions,
  apiTokens,
  identitySecrets,
  loginFailures,
  memberships,
  users,
} from '../db/schema.ts';

/** Prefix of every token principal's user id; no identity provider issues such a `sub`. */
export const API_TOKEN_PRINCIPAL = 'apitoken:';

/**
 * Memberships of people, not of API tokens' principals: for member lists, counts and successors
 * (a token is never listed as a member, never promoted, never keeps a company alive).
 */
export const personMembership = sql`${memberships.userId} not like ${`${API_TOKEN_PRINCIPAL}%`}`;

/** The token lookup by `{ hash }`, prepared once: planned once per connection, not per request. */
export function prepareApiTokenLookup(db: Db) {
  return db
    .select({
      id: apiTokens.id,
      companyId: apiTokens.companyId,
      userId: apiTokens.userId,
      name: apiTokens.name,
      expiresAt: apiTokens.expiresAt,
      revokedAt: apiTokens.revokedAt,
      lastUsedAt: apiTokens.lastUsedAt,
      buildingIds: apiTokens.buildingIds,
    })
    .from(apiTokens)
    .where(eq(apiTokens.tokenHash, sql.placeholder('hash')))
    .limit(1)
    .prepare('api_token_lookup');
}

export async function touchApiToken(db: Db, id: string, at: Date): Promise<void> {
  await db.update(apiTokens).set({ lastUsedAt: at }).where(eq(apiTokens.id, id));
}

/** The building of the company's unit `unitId` (compared as text, so a malformed id is unknown). */
export async function unitBuilding(
  db: Db,
  companyId: string,
  unitId: string,
): Promise<{ building_id: string | null } | undefined> {
  const [unit] = rowsOf<{ building_id: string | null }>(
    await db.execute(sql`select building_id from units
        where company_id = ${companyId} and id::text = ${unitId}`),
  );
  return unit;
}

/** The user lookup by `{ id }` of every bearer request, prepared once for the same reason. */
export function prepareBearerUserLookup(db: Db) {
  return db
    .select({
      active: users.active,
      tokensValidFrom: users.tokensValidFrom,
      // The token's provider session (`sid`, '' without one) was ended in the session list
      // (decision 0074): a primary-key probe of `account_sessions` in the same round trip.
      sessionEnded: sql<boolean>`exists (select 1 from ${accountSessions} s
        where s.session_uid = ${sql.placeholder('sid')} and s.ended_at is not null)`,
    })
    .from(users)
    .where(eq(users.id, sql.placeholder('id')))
    .limit(1)
    .prepare('bearer_user');
}

/** Makes the user row of a first call; a row that exists keeps what the user edited. */
export async function provisionUser(db: Db, values: typeof users.$inferInsert): Promise<void> {
  await db.insert(users).values(values).onConflictDoNothing();
}

/**
 * Whether the company's second-factor policy (decision 0078) covers the member with `role` and
 * the member has neither a confirmed TOTP nor a passkey. Only accounts of the embedded provider
 * (`identity_accounts`) are covered: an external issuer's users and API tokens' principals have
 * no such row, as that issuer owns their sign-in. Used inside the membership look-ups, so the
 * check costs no extra round trip.
 */
export function secondFactorMissing(companyId: SQL | string, userId: SQL | string, role: SQL): SQL<boolean> {
  return sql<boolean>`(exists (select 1 from companies policy_c where policy_c.id = ${companyId}
      and (policy_c.second_factor_required = 'all'
        or (policy_c.second_factor_required = 'admins' and ${role} = 'admin')))
    and exists (select 1 from identity_accounts policy_a where policy_a.id = ${userId})
    and not exists (select 1 from totp_credentials policy_t
      where policy_t.user_id = ${userId} and policy_t.confirmed_at is not null)
    and not exists (select 1 from webauthn_credentials policy_w where policy_w.user_id = ${userId}))`;
}

/** The member's role and whether the company's policy wants a second factor they lack. */
export async function findMembershipRole(db: Db, companyId: string, userId: string) {
  const [row] = await db
    .select({
      role: memberships.role,
      secondFactorMissing: secondFactorMissing(companyId, userId, sql`${memberships.role}`),
    })
    .from(memberships)
    .where(and(eq(memberships.companyId, companyId), eq(memberships.userId, userId)))
    .limit(1);
  return row;
}

/**
 * Whether any company of the user requires a second factor the user lacks (decision 0078): the
 * web app then shows its enrolment screen before anything else.
 */
export async function anySecondFactorMissing(db: Db, userId: string): Promise<boolean> {
  const rows = await db
    .select({ companyId: memberships.companyId })
    .from(memberships)
    .where(
      and(
        eq(memberships.userId, userId),
        secondFactorMissing(sql`${memberships.companyId}`, userId, sql`${memberships.role}`),
      ),
    )
    .limit(1);
  return rows.length > 0;
}

/**
 * The secret `name`, stored from `create()` when there is none yet. When two instances start at
 * once the first insert wins and both read it back.
 */
export async function loadOrCreateIdentitySecret<T>(db: Db, name: string, create: () => T): Promise<T> {
  await db.insert(identitySecrets).values({ name, value: create() }).onConflictDoNothing();
  const [row] = await db.select().from(identitySecrets).where(eq(identitySecrets.name, name));
  if (!row) throw new Error(`identity secret ${name} could not be stored`);
  return row.value as T;
}

export async function loginLocks(db: Db, keys: string[]) {
  return db
    .select({ lockedUntil: loginFailures.lockedUntil })
    .from(loginFailures)
    .where(inArray(loginFailures.key, keys));
}

/**
 * Counts one failure for `key` at `now`, starting again at 1 when the last one was before `stale`.
 * @returns the failures counted now.
 */
export async function countLoginFailure(
  db: Db,
  key: string,
  now: Date,
  stale: Date,
): Promise<number | undefined> {
  const [row] = await db
    .insert(loginFailures)
    .values({ key, failures: 1, lastFailureAt: now })
    .onConflictDoUpdate({
      target: loginFailures.key,
      set: {
        failures: sql`case when ${loginFailures.lastFailureAt} < ${stale.toISOString()}::timestamptz then 1 else ${loginFailures.failures} + 1 end`,
        lastFailureAt: now,
      },
    })
    .returning({ failures: loginFailures.failures });
  return row?.failures;
}

export async function lockLoginKey(db: Db, key: string, until: Date): Promise<void> {
  await db
    .update(loginFailures)
    .set({ lockedUntil: until })
    .where(inArray(loginFailures.key, [key]));
}

export async function deleteLoginFailures(db: Db, key: string): Promise<void> {
  await db.delete(loginFailures).where(inArray(loginFailures.key, [key]));
}

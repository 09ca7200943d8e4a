/**
 * API token queries (decision 0058), each scoped by company id except `findByHash`, which the
 * bearer hook uses to learn which company a presented token belongs to.
 */
import { and, asc, count, eq, isNull } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { API_TOKEN_PRINCIPAL } from '../../auth/api-token-auth.ts';
import type { Db } from '../../db/client.ts';
import { apiTokens, memberships, users } from '../../db/schema.ts';

export type ApiTokenRow = typeof apiTokens.$inferSelect;

export interface ApiTokenRecord {
  token: ApiTokenRow;
  creatorName: string | null;
}

const creator = alias(users, 'creator');

export async function listTokens(db: Db, companyId: string): Promise<ApiTokenRecord[]> {
  const rows = await db
    .select({ token: apiTokens, creatorName: creator.name })
    .from(apiTokens)
    .leftJoin(creator, eq(creator.id, apiTokens.createdBy))
    .where(eq(apiTokens.companyId, companyId))
    .orderBy(asc(apiTokens.createdAt), asc(apiTokens.id));
  return rows;
}

export async function findToken(db: Db, companyId: string, tokenId: string): Promise<ApiTokenRecord | null> {
  const [row] = await db
    .select({ token: apiTokens, creatorName: creator.name })
    .from(apiTokens)
    .leftJoin(creator, eq(creator.id, apiTokens.createdBy))
    .where(and(eq(apiTokens.companyId, companyId), eq(apiTokens.id, tokenId)));
  return row ?? null;
}

/** The company's tokens that are not revoked. */
export async function countActiveTokens(db: Db, companyId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(apiTokens)
    .where(and(eq(apiTokens.companyId, companyId), isNull(apiTokens.revokedAt)));
  return Number(row?.n ?? 0);
}

/**
 * Creates the token with its principal: a user row `apitoken:<id>` named like the token and its
 * membership in the company in the token's role, all in one transaction.
 */
export async function insertToken(
  tx: Db,
  values: Omit<typeof apiTokens.$inferInsert, 'userId'> & { id: string },
): Promise<void> {
  const userId = principalOf(values.id);
  await tx.insert(users).values({ id: userId, name: values.name, email: '', emailVerified: false });
  await tx.insert(memberships).values({ companyId: values.companyId, userId, role: values.role });
  await tx.insert(apiTokens).values({ ...values, userId });
}

/** Revokes the token: it is refused from now on and its principal loses the membership. */
export async function revokeToken(tx: Db, companyId: string, tokenId: string, now: Date): Promise<void> {
  await tx
    .update(apiTokens)
    .set({ revokedAt: now })
    .where(and(eq(apiTokens.companyId, companyId), eq(apiTokens.id, tokenId)));
  await tx
    .delete(memberships)
    .where(and(eq(memberships.companyId, companyId), eq(memberships.userId, principalOf(tokenId))));
}

/** The principal (`users.id`) of a token. */
export const principalOf = (tokenId: string) => `${API_TOKEN_PRINCIPAL}${tokenId}`;

/** Queries on invites, scoped by company except the lookup by code. */
import { and, asc, eq } from 'drizzle-orm';
import type { Role } from '../../auth/membership.ts';
import type { Db } from '../../db/client.ts';
import { companies, invites, memberships } from '../../db/schema.ts';

export type InviteRow = typeof invites.$inferSelect;

export async function listInvites(db: Db, companyId: string): Promise<InviteRow[]> {
  return db
    .select()
    .from(invites)
    .where(eq(invites.companyId, companyId))
    .orderBy(asc(invites.createdAt), asc(invites.id));
}

export async function insertInvite(
  db: Db,
  values: {
    id: string;
    companyId: string;
    email: string | null;
    role: Role | null;
  },
): Promise<InviteRow> {
  const [row] = await db.insert(invites).values(values).returning();
  if (!row) throw new Error('invite insert returned no row');
  return row;
}

export async function findInvite(db: Db, code: string): Promise<InviteRow | undefined> {
  const [row] = await db.select().from(invites).where(eq(invites.id, code)).limit(1);
  return row;
}

export async function deleteInvite(db: Db, companyId: string, code: string): Promise<void> {
  await db.delete(invites).where(and(eq(invites.companyId, companyId), eq(invites.id, code)));
}

/**
 * Uses an invite in one transaction: deletes it and makes `userId` a member with the
 * invite's role, or the company's default role for an invite without one (an existing
 * membership keeps its role).
 * @returns the invite, or undefined when no invite has this code (nothing changed).
 */
export async function redeemInvite(db: Db, code: string, userId: string): Promise<InviteRow | undefined> {
  return db.transaction(async (tx) => {
    const [invite] = await tx.delete(invites).where(eq(invites.id, code)).returning();
    if (!invite) return undefined;
    const [company] = await tx
      .select({ defaultRole: companies.defaultInviteRole })
      .from(companies)
      .where(eq(companies.id, invite.companyId));
    await tx
      .insert(memberships)
      .values({
        companyId: invite.companyId,
        userId,
        role: invite.role ?? company?.defaultRole ?? 'heating',
      })
      .onConflictDoNothing();
    return invite;
  });
}

/** Queries on the caller's own user row and deletion request (issue 4). */
import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { accountDeletionRequests, memberships, users } from '../../db/schema.ts';

export type UserRow = typeof users.$inferSelect;

export class MeRepository {
  constructor(private readonly db: Db) {}

  async find(userId: string): Promise<UserRow | undefined> {
    const [row] = await this.db.select().from(users).where(eq(users.id, userId)).limit(1);
    return row;
  }

  async companyIds(userId: string): Promise<string[]> {
    const rows = await this.db
      .select({ id: memberships.companyId })
      .from(memberships)
      .where(eq(memberships.userId, userId))
      .orderBy(asc(memberships.createdAt), asc(memberships.companyId));
    return rows.map((r) => r.id);
  }

  async update(
    userId: string,
    changes: Partial<Pick<UserRow, 'name' | 'email' | 'emailVerified' | 'lang'>>,
  ): Promise<UserRow | undefined> {
    const [row] = await this.db.update(users).set(changes).where(eq(users.id, userId)).returning();
    return row;
  }

  /** Deactivates the user and records the request in one transaction; a repeat keeps the first dates. */
  async requestDeletion(userId: string, requestedAt: Date, purgeAfter: Date): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.update(users).set({ active: false }).where(eq(users.id, userId));
      await tx
        .insert(accountDeletionRequests)
        .values({ userId, requestedAt, purgeAfter })
        .onConflictDoNothing();
    });
  }
}

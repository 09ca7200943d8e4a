/**
 * Tenancy guard (ARCHITECTURE.md §6): every company-scoped service calls `requireMember`
 * first. A company the caller does not belong to answers 404, never 403, so ids of other
 * tenants cannot be probed.
 */
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { memberships } from '../db/schema.ts';
import { notFound } from '../http/errors.ts';

export type Role = 'admin' | 'heating' | 'ems';

export interface Membership {
  companyId: string;
  userId: string;
  role: Role;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** @throws HttpError 404 when `userId` is not a member of `companyId` (or the id is malformed). */
export async function requireMember(db: Db, userId: string, companyId: string): Promise<Membership> {
  if (!UUID.test(companyId)) throw notFound('Company not found.');
  const [row] = await db
    .select({ role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.companyId, companyId), eq(memberships.userId, userId)))
    .limit(1);
  if (!row) throw notFound('Company not found.');
  return { companyId, userId, role: row.role };
}

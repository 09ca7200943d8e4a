/**
 * Audit log queries (decision 0059), scoped by company id; `purgeAuditLog` spans companies (the
 * retention job).
 */
import { and, count, desc, eq, gte, lt, lte, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { auditLog, users } from '../../db/schema.ts';

export type AuditRow = typeof auditLog.$inferSelect;
export type AuditInsert = Omit<typeof auditLog.$inferInsert, 'id' | 'actorName'> & { fallbackName: string };

export interface AuditFilter {
  resource?: string;
  actor?: string;
  from?: string;
  to?: string;
}

/** Writes one entry; the actor's name is the user row's, else `fallbackName`. */
export async function insertAuditEntry(db: Db, { fallbackName, ...entry }: AuditInsert): Promise<void> {
  await db.insert(auditLog).values({
    ...entry,
    actorName: sql`coalesce((select nullif(${users.name}, '') from ${users} where ${users.id} = ${entry.actorId}), ${fallbackName})`,
  });
}

/**
 * Writes several entries in one statement (a bulk change records one per unit it touched), in the
 * caller's transaction; each actor's name as `insertAuditEntry` finds it.
 */
export async function insertAuditEntries(db: Db, entries: AuditInsert[]): Promise<void> {
  if (entries.length === 0) return;
  await db.insert(auditLog).values(
    entries.map(({ fallbackName, ...entry }) => ({
      ...entry,
      actorName: sql`coalesce((select nullif(${users.name}, '') from ${users} where ${users.id} = ${entry.actorId}), ${fallbackName})`,
    })),
  );
}

function whereOf(companyId: string, f: AuditFilter): SQL | undefined {
  return and(
    eq(auditLog.companyId, companyId),
    f.resource ? eq(auditLog.resource, f.resource) : undefined,
    f.actor ? eq(auditLog.actorId, f.actor) : undefined,
    f.from ? gte(auditLog.at, new Date(f.from)) : undefined,
    f.to ? lte(auditLog.at, new Date(f.to)) : undefined,
  );
}

/** One page of the company's entries, newest first. */
export async function listAudit(
  db: Db,
  companyId: string,
  f: AuditFilter,
  page: number,
  size: number,
): Promise<{ rows: AuditRow[]; count: number }> {
  const where = whereOf(companyId, f);
  const rows = await db
    .select()
    .from(auditLog)
    .where(where)
    .orderBy(desc(auditLog.at), desc(auditLog.id))
    .limit(size)
    .offset((page - 1) * size);
  const [total] = await db.select({ n: count() }).from(auditLog).where(where);
  return { rows, count: Number(total?.n ?? 0) };
}

/** The next `limit` entries, newest first, older than the entry `beforeId` (keyset, for exports). */
export async function auditBatch(
  db: Db,
  companyId: string,
  f: AuditFilter,
  beforeId: number | null,
  limit: number,
): Promise<AuditRow[]> {
  return db
    .select()
    .from(auditLog)
    .where(and(whereOf(companyId, f), beforeId === null ? undefined : lt(auditLog.id, beforeId)))
    .orderBy(desc(auditLog.id))
    .limit(limit);
}

/** Deletes every company's entries older than `before`; @returns how many. */
export async function purgeAuditLog(db: Db, before: Date): Promise<number> {
  const result = await db.delete(auditLog).where(lt(auditLog.at, before)).returning({ id: auditLog.id });
  return result.length;
}

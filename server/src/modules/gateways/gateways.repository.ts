/**
 * Gateway queries, always scoped by company. Last seen is written by uplink ingest
 * (lorawan/telemetry.repository.ts) from network-server stats messages.
 */
import { type AnyColumn, and, asc, count, eq, ilike, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { naturally } from '../../db/natural-sort.ts';
import { gateways } from '../../db/schema.ts';

export type GatewayRow = typeof gateways.$inferSelect;
export type GatewaySort = 'name' | 'gatewayEui' | 'createdAt' | 'lastSeen';

const sortColumns: Record<GatewaySort, AnyColumn | SQL> = {
  name: naturally(gateways.name),
  gatewayEui: gateways.gatewayEui,
  createdAt: gateways.createdAt,
  lastSeen: gateways.lastSeen,
};

const literal = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export async function listGateways(
  db: Db,
  companyId: string,
  f: { q?: string; sort: GatewaySort; order: 'asc' | 'desc'; page: number; size: number },
) {
  const conditions = [eq(gateways.companyId, companyId)];
  if (f.q) {
    const match = or(ilike(gateways.name, literal(f.q)), ilike(gateways.gatewayEui, literal(f.q)));
    if (match) conditions.push(match);
  }
  const where = and(...conditions);
  const column = sortColumns[f.sort];
  const primary = f.order === 'asc' ? sql`${column} asc nulls last` : sql`${column} desc nulls last`;
  const rows = await db
    .select()
    .from(gateways)
    .where(where)
    .orderBy(primary, asc(gateways.id))
    .limit(f.size)
    .offset((f.page - 1) * f.size);
  const [total] = await db.select({ n: count() }).from(gateways).where(where);
  return { rows, count: total?.n ?? 0 };
}

export async function findGateway(db: Db, companyId: string, id: string): Promise<GatewayRow | undefined> {
  const [row] = await db
    .select()
    .from(gateways)
    .where(and(eq(gateways.companyId, companyId), eq(gateways.id, id)))
    .limit(1);
  return row;
}

export async function gatewayEuiTaken(db: Db, gatewayEui: string): Promise<boolean> {
  const [row] = await db
    .select({ id: gateways.id })
    .from(gateways)
    .where(eq(gateways.gatewayEui, gatewayEui))
    .limit(1);
  return row !== undefined;
}

export async function insertGateway(db: Db, row: typeof gateways.$inferInsert): Promise<GatewayRow> {
  const [created] = await db.insert(gateways).values(row).returning();
  if (!created) throw new Error('insert returned no gateway row');
  return created;
}

export async function updateGateway(
  db: Db,
  companyId: string,
  id: string,
  patch: Partial<typeof gateways.$inferInsert>,
): Promise<GatewayRow | undefined> {
  const [row] = await db
    .update(gateways)
    .set(patch)
    .where(and(eq(gateways.companyId, companyId), eq(gateways.id, id)))
    .returning();
  return row;
}

export async function deleteGateway(db: Db, companyId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(gateways)
    .where(and(eq(gateways.companyId, companyId), eq(gateways.id, id)))
    .returning({ id: gateways.id });
  return rows.length > 0;
}

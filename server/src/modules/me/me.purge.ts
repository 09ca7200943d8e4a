/**
 * Carries out account deletion requests (spec §4 "permanently removes data") once
 * their `purge_after` date has passed, 30 days after `DELETE /api/me/request_deletion`:
 * - companies the user was the only member of are deleted with all their data (units,
 *   devices, logs… cascade from `companies`; telemetry, which has no foreign key, explicitly);
 * - in companies that keep other members, the longest-standing remaining member becomes
 *   admin when the user was the last admin, so the team stays manageable;
 * - the user row (memberships, the request row), the embedded provider's account (mail
 *   link tokens) and its sessions, grants and refresh tokens are deleted.
 * Rows elsewhere that name the user as creator or actor are set null by their foreign keys.
 * Each user is purged in its own transaction.
 */
import { and, asc, count, eq, inArray, lte, ne, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { personMembership } from '../../auth/api-token-auth.ts';
import { type Clock, systemClock } from '../../clock.ts';
import type { Db } from '../../db/client.ts';
import {
  accountDeletionRequests,
  companies,
  identityAccounts,
  memberships,
  oidcPayloads,
  telemetry,
  users,
} from '../../db/schema.ts';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** How often main.ts runs the purge (ms); the 30-day grace makes an hourly check plenty. */
export const PURGE_INTERVAL_MS = 60 * 60_000;

/**
 * Purges every account whose deletion is due at `now` (UTC instant), oldest request first.
 * Each account is claimed (`FOR UPDATE SKIP LOCKED`) and purged in one transaction, so instances
 * running the purge at the same time never purge one account twice, and an instance dying
 * mid-purge leaves it to the next run (docs/decisions/0032).
 * @returns the ids of the accounts this call purged.
 */
export async function purgeDueAccounts(db: Db, now = new Date()): Promise<string[]> {
  const purged: string[] = [];
  for (;;) {
    const userId = await db.transaction(async (tx) => {
      const [due] = await tx
        .select({ userId: accountDeletionRequests.userId })
        .from(accountDeletionRequests)
        .where(lte(accountDeletionRequests.purgeAfter, now))
        .orderBy(asc(accountDeletionRequests.purgeAfter))
        .limit(1)
        .for('update', { skipLocked: true });
      if (due) await purgeAccount(tx, due.userId);
      return due?.userId;
    });
    // Purging deletes the request row with the user (cascade), so the next claim moves on.
    if (userId === undefined) return purged;
    purged.push(userId);
  }
}

async function purgeAccount(tx: Tx, userId: string): Promise<void> {
  const own = await tx
    .select({ companyId: memberships.companyId, role: memberships.role })
    .from(memberships)
    .where(eq(memberships.userId, userId));
  const companyIds = own.map((m) => m.companyId);
  // Guard against running the grouped query with an empty id list.
  if (companyIds.length > 0) {
    const sizes = await tx
      .select({ companyId: memberships.companyId, members: count() })
      .from(memberships)
      .where(and(inArray(memberships.companyId, companyIds), personMembership))
      .groupBy(memberships.companyId);
    const soleMember = sizes.filter((s) => s.members === 1).map((s) => s.companyId);
    if (soleMember.length > 0) {
      // Telemetry has no foreign key to cascade along (docs/decisions/0035): its rows go explicitly.
      await tx.delete(telemetry).where(inArray(telemetry.companyId, soleMember));
      await tx.delete(companies).where(inArray(companies.id, soleMember));
    }
    for (const { companyId } of own.filter((m) => m.role === 'admin' && !soleMember.includes(m.companyId))) {
      await handOverAdmin(tx, companyId, userId);
    }
  }
  await tx.delete(oidcPayloads).where(eq(sql`${oidcPayloads.payload}->>'accountId'`, userId));
  await tx.delete(identityAccounts).where(eq(identityAccounts.id, userId));
  await tx.delete(users).where(eq(users.id, userId));
}

/** Promotes the longest-standing other member when `leavingAdmin` is the company's last admin. */
async function handOverAdmin(db: Tx, companyId: string, leavingAdmin: string): Promise<void> {
  const [otherAdmins] = await db
    .select({ n: count() })
    .from(memberships)
    .where(
      and(
        eq(memberships.companyId, companyId),
        eq(memberships.role, 'admin'),
        ne(memberships.userId, leavingAdmin),
      ),
    );
  if ((otherAdmins?.n ?? 0) > 0) return;
  const [successor] = await db
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(and(eq(memberships.companyId, companyId), ne(memberships.userId, leavingAdmin), personMembership))
    .orderBy(asc(memberships.createdAt), asc(memberships.userId))
    .limit(1);
  if (!successor) return;
  await db
    .update(memberships)
    .set({ role: 'admin' })
    .where(and(eq(memberships.companyId, companyId), eq(memberships.userId, successor.userId)));
}

/**
 * Runs `purgeDueAccounts` now and every `intervalMs` (started by main.ts); a run still busy
 * when the next is due is not overlapped. Failures are logged and retried at the next tick.
 * Each run reads `now` for what is due (a test fixes it).
 * @returns a function that stops the schedule.
 */
export function startAccountPurge(
  db: Db,
  log: Pick<FastifyBaseLogger, 'info' | 'error'>,
  intervalMs = PURGE_INTERVAL_MS,
  now: Clock = systemClock,
): () => void {
  let running = false;
  const run = async () => {
    if (running) return;
    running = true;
    try {
      const purged = await purgeDueAccounts(db, now());
      if (purged.length > 0) log.info({ count: purged.length }, 'purged deleted accounts');
    } catch (err) {
      log.error({ err }, 'account purge failed');
    } finally {
      running = false;
    }
  };
  void run();
  const timer = setInterval(() => void run(), intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

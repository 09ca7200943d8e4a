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
import type { FastifyBaseLogger } from 'fastify';
import { type Clock, systemClock } from '../../clock.ts';
import type { Db } from '../../db/client.ts';
import { purgeNextDueAccount } from './me.repository.ts';

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
    const userId = await purgeNextDueAccount(db, now);
    // Purging deletes the request row with the user (cascade), so the next claim moves on.
    if (userId === undefined) return purged;
    purged.push(userId);
  }
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

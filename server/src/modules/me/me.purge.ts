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

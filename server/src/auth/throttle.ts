/**
 * Brute-force protection for guessed secrets (OWASP Authentication Cheat Sheet, "Protect against
 * automated attacks"): failures are counted per account and per client IP — sign-ins on the
 * hosted login and invite redemptions, under keys of their own. From the
 * threshold on, each further failure locks the key for 30 s · 2^(failures − threshold), capped at
 * 1 h. The IP threshold is higher because offices share one address. Counters start again after
 * 24 h without failures. The counters live in the database, so every server instance sees them.
 */
import type { Db } from '../db/client.ts';
import { countLoginFailure, deleteLoginFailures, lockLoginKey, loginLocks } from './auth.repository.ts';

export const ACCOUNT_THRESHOLD = 5;
export const IP_THRESHOLD = 20;
const BASE_LOCK_MS = 30_000;
const MAX_LOCK_MS = 60 * 60_000;
const RESET_AFTER_MS = 24 * 60 * 60_000;

export const accountKey = (accountId: string) => `account:${accountId}`;
export const ipKey = (ip: string) => `ip:${ip}`;
/** Invite redemption counts apart from sign-ins: a mistyped code must not lock the login. */
export const inviteAccountKey = (accountId: string) => `invite:account:${accountId}`;
export const inviteIpKey = (ip: string) => `invite:ip:${ip}`;

/** A throttle key and the failures it takes before it locks. */
export interface KeyLimit {
  key: string;
  threshold: number;
}

/** Lock duration in ms after the `failures`-th consecutive failure (0 = not locked). */
export function lockDurationMs(failures: number, threshold: number): number {
  if (failures < threshold) return 0;
  return Math.min(MAX_LOCK_MS, BASE_LOCK_MS * 2 ** (failures - threshold));
}

/** The latest lock among `keys` that is still in force at `now`, or null. */
export async function lockedUntil(db: Db, keys: string[], now = new Date()): Promise<Date | null> {
  const rows = await loginLocks(db, keys);
  const until = rows
    .map((r) => r.lockedUntil?.getTime() ?? 0)
    .filter((t) => t > now.getTime())
    .sort((a, b) => b - a)[0];
  return until ? new Date(until) : null;
}

/**
 * Counts one failure for `key` and locks it when the threshold is reached.
 * @returns the end of the lock this failure started, or null when it started none.
 */
export async function recordFailure(
  db: Db,
  key: string,
  threshold: number,
  now = new Date(),
): Promise<Date | null> {
  const stale = new Date(now.getTime() - RESET_AFTER_MS);
  const failures = await countLoginFailure(db, key, now, stale);
  const lockMs = lockDurationMs(failures ?? 1, threshold);
  if (lockMs <= 0) return null;
  const until = new Date(now.getTime() + lockMs);
  await lockLoginKey(db, key, until);
  return until;
}

/** Counts one failure on each key; returns the latest lock then in force among them, or null. */
export async function recordFailures(db: Db, limits: KeyLimit[], now = new Date()): Promise<Date | null> {
  for (const { key, threshold } of limits) await recordFailure(db, key, threshold, now);
  return lockedUntil(
    db,
    limits.map((l) => l.key),
    now,
  );
}

export async function clearFailures(db: Db, key: string) {
  await deleteLoginFailures(db, key);
}

/**
 * The check of a configured bearer token — the operator's (OPERATOR_TOKEN) and the metrics
 * scrape's (METRICS_TOKEN). Both sides are hashed first, so the comparison takes the same time
 * whatever the presented token's length and wherever it first differs.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** True when `header` is `Bearer <expected>` (scheme in any case); false for anything else. */
export function bearerTokenMatches(header: string | undefined, expected: string): boolean {
  const presented = header?.match(/^Bearer\s+(\S+)$/i)?.[1];
  if (presented === undefined || expected === '') return false;
  return timingSafeEqual(digest(presented), digest(expected));
}

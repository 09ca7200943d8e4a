/**
 * A read the server makes of its own API on a caller's behalf, in process (`app.inject`): the
 * audit log reads an object before a change to record the values it replaces (decision 0059).
 * It carries the caller's credentials, so it sees only what the caller may see, and this
 * process's random secret, which marks it so it counts toward no rate limit: the caller made one
 * request, not two. The secret never leaves the process.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';

const HEADER = 'x-heizplan-internal-read';
const SECRET = Buffer.from(randomBytes(18).toString('base64url'));

/** Headers that mark a request as this process's own read. */
export const internalReadHeaders = (): Record<string, string> => ({ [HEADER]: SECRET.toString() });

/** True for a request `internalReadHeaders` marked. */
export function isInternalRead(request: FastifyRequest): boolean {
  const value = request.headers[HEADER];
  if (typeof value !== 'string') return false;
  const given = Buffer.from(value);
  return given.length === SECRET.length && timingSafeEqual(given, SECRET);
}

/**
 * `Authorization: Bearer hp_…` (decision 0058): a company API token instead of a JWT. The token
 * is looked up by its SHA-256 hash; an unknown, expired or revoked one gets 401. A valid one acts
 * as its principal (`apitoken:<id>`, a member of its company in the token's role), so every
 * endpoint's permission walk applies unchanged — but only on its own company's endpoints
 * (`/api/companies/{its id}…`): elsewhere (the caller's profile, creating companies) 403; a
 * token limited to buildings only inside them (api-token-buildings.ts). Each
 * token may make `API_TOKEN_RATE_LIMIT` requests a minute (429 with Retry-After beyond), counted
 * in memory or, with several instances, in the shared table of decision 0032. Its last use is
 * written at most once a minute.
 */
import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { type Clock, systemClock } from '../clock.ts';
import type { Db } from '../db/client.ts';
import { forbidden, tooManyRequests, unauthorized } from '../http/errors.ts';
import { isInternalRead } from '../http/internal-read.ts';
import { hit } from '../http/rate-limit-store.ts';
import { requireTokenBuildings } from './api-token-buildings.ts';
import { prepareApiTokenLookup, touchApiToken } from './auth.repository.ts';
import type { AuthClaims } from './bearer.ts';

/** What every company API token starts with. */
export const API_TOKEN_PREFIX = 'hp_';
export { API_TOKEN_PRINCIPAL } from './auth.repository.ts';

const WINDOW_MS = 60_000;
const LAST_USED_EVERY_MS = 60_000;

/** SHA-256 of a token, hex: what the database keeps and looks tokens up by. */
export const hashApiToken = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

export interface ApiTokenAuthOptions {
  /** Requests per minute and token. */
  perMinute: number;
  /** Count in the database (several instances) instead of in memory. */
  shared: boolean;
  /** What expiry, the rate window and the last use are read against; default the machine's clock. */
  now?: Clock;
}

/** @returns the function that authenticates a request carrying an API token. */
export function apiTokenAuth(db: Db, options: ApiTokenAuthOptions) {
  const lookup = prepareApiTokenLookup(db);
  const windows = new Map<string, { hits: number; until: number }>();

  /** One hit of the token; @returns the hits in its window and when that window ends (ms). */
  const count = async (tokenId: string, now: number): Promise<{ hits: number; until: number }> => {
    if (options.shared) {
      const { current, ttl } = await hit(db, `api-token:${tokenId}`, WINDOW_MS);
      return { hits: current, until: now + ttl };
    }
    const open = windows.get(tokenId);
    const window = open && open.until > now ? open : { hits: 0, until: now + WINDOW_MS };
    window.hits += 1;
    windows.set(tokenId, window);
    if (windows.size > 10_000) for (const [key, w] of windows) if (w.until <= now) windows.delete(key);
    return window;
  };

  return async (token: string, request: FastifyRequest): Promise<AuthClaims> => {
    const [row] = await lookup.execute({ hash: hashApiToken(token) });
    const now = (options.now ?? systemClock)().getTime();
    if (!row || row.revokedAt || row.expiresAt.getTime() <= now)
      throw unauthorized('The API token is unknown, expired or revoked.');
    const own = `/api/companies/${row.companyId}`;
    const url = request.url;
    if (!(url === own || url.startsWith(`${own}/`) || url.startsWith(`${own}?`)))
      throw forbidden("An API token only reaches its own company's endpoints.", { code: 'api_token_scope' });
    if (row.buildingIds && row.buildingIds.length > 0)
      await requireTokenBuildings(db, request, row.companyId, row.buildingIds);
    // The server's own read on the caller's behalf (the audit log's "before") is not a request of theirs.
    if (!isInternalRead(request)) {
      const window = await count(row.id, now);
      if (window.hits > options.perMinute) throw tooManyRequests(new Date(window.until));
    }
    if (!row.lastUsedAt || now - row.lastUsedAt.getTime() > LAST_USED_EVERY_MS)
      await touchApiToken(db, row.id, new Date(now));
    return { sub: row.userId, name: row.name };
  };
}

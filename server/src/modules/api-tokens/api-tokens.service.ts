/**
 * Company API tokens (decision 0058): admins (`manage`) list, create and revoke them. A token is
 * `hp_` + 32 random bytes (base64url, 43 characters); only its SHA-256 hash is stored, and the
 * token itself is answered once, on create.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import {
  API_TOKENS_MAX,
  type ApiToken,
  type ApiTokenCreated,
  type ApiTokenInputSchema,
} from '@heizplan/contracts/api-tokens';
import type { z } from 'zod';
import { API_TOKEN_PREFIX, hashApiToken } from '../../auth/api-token-auth.ts';
import { requireMember } from '../../auth/membership.ts';
import type { Db } from '../../db/client.ts';
import { allOwned } from '../../db/owned.ts';
import { conflict, notFound } from '../../http/errors.ts';
import * as repo from './api-tokens.repository.ts';

const DAY_MS = 86_400_000;
/** Characters of the token shown as its prefix (`hp_` and six more). */
const SHOWN = API_TOKEN_PREFIX.length + 6;

export class ApiTokensService {
  constructor(private readonly deps: { db: Db; now: () => Date }) {}

  /** The company's tokens, oldest first, revoked and expired ones included. */
  async list(userId: string, companyId: string): Promise<{ results: ApiToken[] }> {
    await requireMember(this.deps.db, userId, companyId, 'manage');
    return { results: (await repo.listTokens(this.deps.db, companyId)).map(toResponse) };
  }

  /**
   * Creates a token; @returns it with the token itself (shown this once).
   * @throws 409 `api_tokens_full` at 50 tokens not revoked, 404 `unknown_building` for a building
   * not the company's.
   */
  async create(
    userId: string,
    companyId: string,
    input: z.output<typeof ApiTokenInputSchema>,
  ): Promise<ApiTokenCreated> {
    const db = this.deps.db;
    await requireMember(db, userId, companyId, 'manage');
    if ((await repo.countActiveTokens(db, companyId)) >= API_TOKENS_MAX)
      throw conflict(`A company has at most ${API_TOKENS_MAX} API tokens; revoke old ones first.`, {
        code: 'api_tokens_full',
        params: { max: API_TOKENS_MAX },
      });
    const buildingIds = [...new Set(input.buildingIds)];
    if (!(await allOwned(db, 'buildings', companyId, buildingIds)))
      throw notFound('Unknown building', { code: 'unknown_building' });
    const token = `${API_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
    const id = randomUUID();
    const now = this.deps.now();
    await db.transaction((tx) =>
      repo.insertToken(tx, {
        id,
        companyId,
        name: input.name,
        prefix: token.slice(0, SHOWN),
        tokenHash: hashApiToken(token),
        role: input.role,
        buildingIds: buildingIds.length > 0 ? buildingIds : null,
        expiresAt: new Date(now.getTime() + input.expiresInDays * DAY_MS),
        createdAt: now,
        createdBy: userId,
      }),
    );
    const record = await repo.findToken(db, companyId, id);
    return { ...toResponse(record as repo.ApiTokenRecord), token };
  }

  /** Revokes the token (it keeps its row for the record). @throws 404 unknown token. */
  async revoke(userId: string, companyId: string, tokenId: string): Promise<ApiToken> {
    const db = this.deps.db;
    await requireMember(db, userId, companyId, 'manage');
    const record = await repo.findToken(db, companyId, tokenId);
    if (!record) throw notFound('Unknown API token', { code: 'unknown_api_token' });
    if (!record.token.revokedAt)
      await db.transaction((tx) => repo.revokeToken(tx, companyId, tokenId, this.deps.now()));
    return toResponse((await repo.findToken(db, companyId, tokenId)) as repo.ApiTokenRecord);
  }
}

function toResponse({ token: t, creatorName }: repo.ApiTokenRecord): ApiToken {
  return {
    id: t.id,
    name: t.name,
    prefix: t.prefix,
    role: t.role,
    buildingIds: t.buildingIds,
    expiresAt: t.expiresAt.toISOString(),
    lastUsedAt: t.lastUsedAt?.toISOString() ?? null,
    revokedAt: t.revokedAt?.toISOString() ?? null,
    createdAt: t.createdAt.toISOString(),
    createdBy: t.createdBy ? { id: t.createdBy, name: creatorName ?? '' } : null,
  };
}

/**
 * oidc-provider storage adapter on the app database (table `oidc_payloads`: one JSON payload per
 * model name and id, with its grant, uid, user code and expiry), so sessions,
 * grants, codes, refresh tokens and interactions survive restarts and work the same on PGlite
 * and PostgreSQL. Interface per oidc-provider's `adapter` option (docs: "Adapter"): one
 * instance per model name; `expiresIn` is in seconds; expired rows are treated as absent and
 * purged with `purgeExpiredIdentityState`.
 */
import { and, eq, isNotNull, lt, or, sql } from 'drizzle-orm';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Db } from '../db/client.ts';
import { identityTokens, loginFailures, oidcPayloads } from '../db/schema.ts';

export function createAdapterClass(db: Db) {
  return class DbAdapter implements Adapter {
    constructor(private readonly kind: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      const values = {
        id,
        kind: this.kind,
        payload,
        grantId: payload.grantId ?? null,
        uid: payload.uid ?? null,
        userCode: payload.userCode ?? null,
        expiresAt: expiresIn ? new Date(Date.now() + expiresIn * 1000) : null,
      };
      await db
        .insert(oidcPayloads)
        .values(values)
        .onConflictDoUpdate({ target: [oidcPayloads.kind, oidcPayloads.id], set: values });
    }

    find(id: string) {
      return this.findBy(eq(oidcPayloads.id, id));
    }

    findByUid(uid: string) {
      return this.findBy(eq(oidcPayloads.uid, uid));
    }

    findByUserCode(userCode: string) {
      return this.findBy(eq(oidcPayloads.userCode, userCode));
    }

    async consume(id: string): Promise<void> {
      await db
        .update(oidcPayloads)
        .set({ consumedAt: new Date() })
        .where(and(eq(oidcPayloads.kind, this.kind), eq(oidcPayloads.id, id)));
    }

    async destroy(id: string): Promise<void> {
      await db.delete(oidcPayloads).where(and(eq(oidcPayloads.kind, this.kind), eq(oidcPayloads.id, id)));
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await db
        .delete(oidcPayloads)
        .where(and(eq(oidcPayloads.kind, this.kind), eq(oidcPayloads.grantId, grantId)));
    }

    private async findBy(condition: ReturnType<typeof eq>): Promise<AdapterPayload | undefined> {
      const [row] = await db
        .select()
        .from(oidcPayloads)
        .where(and(eq(oidcPayloads.kind, this.kind), condition))
        .limit(1);
      if (!row || (row.expiresAt && row.expiresAt.getTime() <= Date.now())) return undefined;
      const payload = row.payload as AdapterPayload;
      // The provider detects reuse (e.g. a rotated refresh token) from this field.
      return row.consumedAt ? { ...payload, consumed: Math.floor(row.consumedAt.getTime() / 1000) } : payload;
    }
  };
}

/**
 * Deletes expired provider artefacts, spent mail-link tokens and stale backoff counters; run at
 * start and hourly (the job registry, jobs/server-jobs.ts) so the tables do not grow forever.
 */
export async function purgeExpiredIdentityState(db: Db): Promise<void> {
  await db
    .delete(oidcPayloads)
    .where(and(isNotNull(oidcPayloads.expiresAt), lt(oidcPayloads.expiresAt, sql`now()`)));
  await db
    .delete(identityTokens)
    .where(or(lt(identityTokens.expiresAt, sql`now()`), isNotNull(identityTokens.usedAt)));
  await db.delete(loginFailures).where(lt(loginFailures.lastFailureAt, sql`now() - interval '1 day'`));
}

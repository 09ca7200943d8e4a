/**
 * The oidc-provider storage adapter on the app database: what the provider relies on for
 * sessions, grants and refresh tokens (find by id/uid/user code, consume marks reuse,
 * revocation by grant, expiry) and the periodic purge.
 */
import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/helpers.ts';
import type { Database } from '../db/client.ts';
import { oidcPayloads } from '../db/schema.ts';
import { createAdapterClass, purgeExpiredIdentityState } from './oidc-adapter.repository.ts';

let database: Database;
let Adapter: ReturnType<typeof createAdapterClass>;

beforeAll(async () => {
  database = await createTestDatabase();
  Adapter = createAdapterClass(database.db);
});
afterAll(async () => {
  await database?.close();
});

describe('oidc adapter', () => {
  it('stores, finds by id, uid and user code, and keeps kinds apart', async () => {
    const sessions = new Adapter('Session');
    const codes = new Adapter('DeviceCode');
    await sessions.upsert('s1', { uid: 'u1', accountId: 'a' }, 60);
    await codes.upsert('s1', { userCode: 'ABCD-EFGH', grantId: 'g0' }, 60);
    expect(await sessions.find('s1')).toMatchObject({ uid: 'u1', accountId: 'a' });
    expect(await sessions.findByUid('u1')).toMatchObject({ accountId: 'a' });
    expect(await codes.findByUserCode('ABCD-EFGH')).toMatchObject({ grantId: 'g0' });
    expect(await codes.findByUid('u1')).toBeUndefined();
    await sessions.upsert('s1', { uid: 'u1', accountId: 'b' }, 60);
    expect(await sessions.find('s1')).toMatchObject({ accountId: 'b' });
  });

  it('reports consumption so the provider detects a reused refresh token', async () => {
    const tokens = new Adapter('RefreshToken');
    await tokens.upsert('rt1', { grantId: 'g1' }, 60);
    expect((await tokens.find('rt1'))?.consumed).toBeUndefined();
    await tokens.consume('rt1');
    expect((await tokens.find('rt1'))?.consumed).toEqual(expect.any(Number));
  });

  it('revokes every artefact of a grant of that kind, and destroys one', async () => {
    const tokens = new Adapter('RefreshToken');
    await tokens.upsert('rt2', { grantId: 'g2' }, 60);
    await tokens.upsert('rt3', { grantId: 'g2' }, 60);
    await tokens.upsert('rt4', { grantId: 'g3' }, 60);
    await tokens.revokeByGrantId('g2');
    expect(await tokens.find('rt2')).toBeUndefined();
    expect(await tokens.find('rt3')).toBeUndefined();
    expect(await tokens.find('rt4')).toBeDefined();
    await tokens.destroy('rt4');
    expect(await tokens.find('rt4')).toBeUndefined();
  });

  it('treats expired rows as absent and purges them', async () => {
    const interactions = new Adapter('Interaction');
    await interactions.upsert('old', { uid: 'x' }, 60);
    // Real time on purpose: the adapter, like oidc-provider, judges expiry by the machine's clock.
    await database.db.update(oidcPayloads).set({ expiresAt: new Date(Date.now() - 1000) });
    expect(await interactions.find('old')).toBeUndefined();
    await purgeExpiredIdentityState(database.db);
    const [row] = await database.db.select({ n: count() }).from(oidcPayloads);
    expect(row?.n).toBe(0);
  });
});

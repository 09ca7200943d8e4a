import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { testClock, testInstant } from '../../../test/clock.ts';
import { buildTestApp, type TestApp } from '../../../test/helpers.ts';
import {
  accountDeletionRequests,
  companies,
  identityAccounts,
  memberships,
  oidcPayloads,
  telemetry,
  users,
} from '../../db/schema.ts';
import { JobRegistry } from '../../jobs/registry.ts';
import { secondConnection } from '../../jobs/second-connection.test-helper.ts';
import { serverJobs } from '../../jobs/server-jobs.ts';
import { addMember, createCompany } from './account.fixtures.ts';
import { purgeDueAccounts } from './me.purge.ts';

const DAY_MS = 86_400_000;
// Deletions are requested at this instant; the purge runs at instants counted from it.
const clock = testClock(testInstant('2026-12-02T12:00:00+01:00'));
const inDays = (days: number) => new Date(clock.now().getTime() + days * DAY_MS);

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({}, { clock: clock.now });
});
afterAll(() => t.close());

async function requestDeletion(sub: string) {
  const res = await t.app.inject({
    method: 'DELETE',
    url: '/api/me/request_deletion',
    headers: await t.as(sub),
  });
  expect(res.statusCode).toBe(202);
}

describe('purgeDueAccounts', () => {
  it('removes the user and their sole-member company 30 days after the request, not before', async () => {
    const company = await createCompany(t, 'purge-alice');
    await t.database.db
      .insert(identityAccounts)
      .values({ id: 'purge-alice', email: 'purge-alice@example.test', name: 'Alice', passwordHash: 'x' });
    await t.database.db.insert(oidcPayloads).values({
      id: 'session-1',
      kind: 'Session',
      payload: { accountId: 'purge-alice' },
    });
    await t.database.db.insert(telemetry).values({
      devEui: '70b3d52dd3000001',
      time: clock.now(),
      fCnt: 1,
      companyId: company.id,
      fPort: 1,
    });
    await requestDeletion('purge-alice');

    expect(await purgeDueAccounts(t.database.db, inDays(29))).toEqual([]);
    expect(await t.database.db.select().from(users).where(eq(users.id, 'purge-alice'))).toHaveLength(1);

    expect(await purgeDueAccounts(t.database.db, inDays(31))).toEqual(['purge-alice']);
    expect(await t.database.db.select().from(users).where(eq(users.id, 'purge-alice'))).toEqual([]);
    expect(await t.database.db.select().from(companies).where(eq(companies.id, company.id))).toEqual([]);
    expect(await t.database.db.select().from(telemetry).where(eq(telemetry.companyId, company.id))).toEqual(
      [],
    );
    expect(
      await t.database.db.select().from(identityAccounts).where(eq(identityAccounts.id, 'purge-alice')),
    ).toEqual([]);
    expect(await t.database.db.select().from(oidcPayloads).where(eq(oidcPayloads.id, 'session-1'))).toEqual(
      [],
    );
  });

  it('keeps a shared company and makes the longest-standing member admin when the last admin leaves', async () => {
    const company = await createCompany(t, 'purge-bob');
    await addMember(t, company.id, 'purge-carol', 'heating');
    await addMember(t, company.id, 'purge-dave', 'ems');
    const untouched = await createCompany(t, 'purge-erin');
    await requestDeletion('purge-bob');

    expect(await purgeDueAccounts(t.database.db, inDays(31))).toEqual(['purge-bob']);
    expect(await t.database.db.select().from(companies).where(eq(companies.id, company.id))).toHaveLength(1);
    const rows = await t.database.db.select().from(memberships).where(eq(memberships.companyId, company.id));
    expect(rows.map((r) => [r.userId, r.role]).sort()).toEqual([
      ['purge-carol', 'admin'],
      ['purge-dave', 'ems'],
    ]);
    expect(await t.database.db.select().from(companies).where(eq(companies.id, untouched.id))).toHaveLength(
      1,
    );
  });

  it('purges each due account once when two instances run the purge at the same moment', async () => {
    const subs = ['purge-g1', 'purge-g2', 'purge-g3', 'purge-g4'];
    for (const sub of subs) {
      await createCompany(t, sub);
      await requestDeletion(sub);
    }
    const other = await secondConnection(t.database);
    try {
      const later = inDays(31);
      const runs = await Promise.all([
        purgeDueAccounts(t.database.db, later),
        purgeDueAccounts(other.db, later),
      ]);
      expect(runs.flat().sort()).toEqual(subs);
    } finally {
      if (other !== t.database) await other.close();
    }
  });

  it('does nothing when no deletion is due', async () => {
    expect(await purgeDueAccounts(t.database.db, clock.now())).toEqual([]);
  });
});

describe('the account purge job', () => {
  it('purges due accounts when the registry starts, at the registry’s now, and logs how many', async () => {
    await t.app.inject({ method: 'GET', url: '/api/me/', headers: await t.as('purge-frank') });
    await t.database.db.insert(accountDeletionRequests).values({
      userId: 'purge-frank',
      requestedAt: inDays(-31),
      purgeAfter: inDays(-1),
    });
    const log = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
    const purge = serverJobs({
      config: t.config,
      db: t.database.db,
      log,
      now: clock.now,
      mailer: t.services.mailer,
      billing: t.services.billing,
      bookingFeeds: t.services.bookingFeeds,
      heatingCircuits: t.services.heatingCircuits,
      weatherFor: () => null,
      embeddedIdentity: false,
    }).find((job) => job.name === 'account purge');
    expect(purge).toMatchObject({ periodMs: 3_600_000, lock: 'skip locked rows' });
    const jobs = new JobRegistry({ log, now: clock.now }).add(purge as NonNullable<typeof purge>);
    jobs.start();
    try {
      await vi.waitFor(() => expect(log.info).toHaveBeenCalledWith({ count: 1 }, 'purged deleted accounts'));
      expect(await t.database.db.select().from(users).where(eq(users.id, 'purge-frank'))).toEqual([]);
      expect(log.error).not.toHaveBeenCalled();
      expect(jobs.status()[0]).toMatchObject({
        runs: 1,
        failures: 0,
        lastSuccessAt: clock.now().toISOString(),
      });
    } finally {
      await jobs.stop();
    }
  });
});

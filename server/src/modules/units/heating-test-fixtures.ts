/**
 * Shared seeding for the heating integration tests (units, groups, plans, log, scheduler):
 * a company with member `alice` and a second company with member `mallory`, who must get 404
 * for everything of the first company.
 */
import type { Db } from '../../db/client.ts';
import { companies, memberships, users } from '../../db/schema.ts';

export interface HeatingFixture {
  companyId: string;
  otherCompanyId: string;
}

export async function seedCompanies(
  db: Db,
  company: Partial<typeof companies.$inferInsert> = {},
): Promise<HeatingFixture> {
  await db
    .insert(users)
    .values([
      { id: 'alice', name: 'Alice' },
      { id: 'mallory', name: 'Mallory' },
    ])
    .onConflictDoNothing();
  const [own] = await db
    .insert(companies)
    .values({ name: 'Stadtwerke', ...company })
    .returning({ id: companies.id });
  const [other] = await db.insert(companies).values({ name: 'Other' }).returning({ id: companies.id });
  if (!own || !other) throw new Error('seed failed');
  await db.insert(memberships).values([
    { companyId: own.id, userId: 'alice', role: 'admin' },
    { companyId: other.id, userId: 'mallory', role: 'admin' },
  ]);
  return { companyId: own.id, otherCompanyId: other.id };
}

/** A winter plan (1 Oct – 30 Apr): 21 °C from 06:00, 17 °C from 22:00 every day. */
export function winterPlan(overrides: Record<string, unknown> = {}) {
  const switchPoints = [1, 2, 3, 4, 5, 6, 7].flatMap((day) => [
    { day, hour: 6, minute: 0, temperature: 21, ignoreWallControl: false },
    { day, hour: 22, minute: 0, temperature: 17, ignoreWallControl: false },
  ]);
  return {
    name: 'Winter',
    kind: 'seasonal',
    active: true,
    validFrom: '10-01',
    validTo: '04-30',
    switchPoints,
    ...overrides,
  };
}

/** A plan holding `temperature` (°C) around the clock, every day of the year. */
export function allYearPlan(temperature: number, overrides: Record<string, unknown> = {}) {
  return {
    name: 'Grundlast',
    kind: 'seasonal',
    validFrom: '01-01',
    validTo: '12-31',
    switchPoints: [1, 2, 3, 4, 5, 6, 7].map((day) => ({
      day,
      hour: 0,
      minute: 0,
      temperature,
      ignoreWallControl: false,
    })),
    ...overrides,
  };
}

/**
 * Seeding for the device and gateway integration tests: company A with member `alice` and a
 * unit, company B with member `mallory` and a unit, so every endpoint can be tried across tenants.
 */
import type { Db } from '../../db/client.ts';
import { companies, memberships, units, users } from '../../db/schema.ts';

export interface RegistryFixture {
  companyId: string;
  unitId: string;
  otherCompanyId: string;
  otherUnitId: string;
}

export async function seedRegistry(db: Db): Promise<RegistryFixture> {
  await db
    .insert(users)
    .values([
      { id: 'alice', name: 'Alice' },
      { id: 'mallory', name: 'Mallory' },
    ])
    .onConflictDoNothing();
  const [own, other] = await db
    .insert(companies)
    .values([{ name: 'Stadtwerke' }, { name: 'Other' }])
    .returning({ id: companies.id });
  if (!own || !other) throw new Error('seed failed');
  await db.insert(memberships).values([
    { companyId: own.id, userId: 'alice', role: 'admin' },
    { companyId: other.id, userId: 'mallory', role: 'admin' },
  ]);
  const [unit, otherUnit] = await db
    .insert(units)
    .values([
      { companyId: own.id, name: 'Raum 1' },
      { companyId: other.id, name: 'Fremd' },
    ])
    .returning({ id: units.id });
  if (!unit || !otherUnit) throw new Error('seed failed');
  return { companyId: own.id, unitId: unit.id, otherCompanyId: other.id, otherUnitId: otherUnit.id };
}

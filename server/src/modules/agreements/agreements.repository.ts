/** Accepted agreement versions of one company (spec §3 "Company licence record"). */
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { companies } from '../../db/schema.ts';

export interface AcceptedVersions {
  avvAcceptedVersion: number | null;
  licenseAcceptedVersion: number | null;
  privacyAcceptedVersion: number | null;
}

const columns = {
  avvAcceptedVersion: companies.avvAcceptedVersion,
  licenseAcceptedVersion: companies.licenseAcceptedVersion,
  privacyAcceptedVersion: companies.privacyAcceptedVersion,
};

export async function findAcceptedVersions(db: Db, companyId: string): Promise<AcceptedVersions | undefined> {
  const [row] = await db.select(columns).from(companies).where(eq(companies.id, companyId)).limit(1);
  return row;
}

export async function acceptVersions(
  db: Db,
  companyId: string,
  versions: AcceptedVersions,
): Promise<AcceptedVersions | undefined> {
  const [row] = await db
    .update(companies)
    .set(versions)
    .where(eq(companies.id, companyId))
    .returning(columns);
  return row;
}

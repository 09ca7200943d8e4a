/**
 * Agreements a company accepts — the data processing agreement (AVV), the licence terms and the
 * privacy notice (spec §3, §4 "Terms must be accepted again when a version changes"): the
 * current versions come from configuration; every member reads what the company accepted (the
 * route guards send everybody to setup step 3 after a bump), but only an admin accepts them for
 * the company (decision 0022). Not to be confused with device licences, which billing sells.
 */
import type { LicenseCurrent, LicenseRecord } from '@heizplan/contracts/account';
import { requireMember } from '../../auth/membership.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { notFound } from '../../http/errors.ts';
import type { AcceptedVersions } from './agreements.repository.ts';
import * as repo from './agreements.repository.ts';

function toLicenseRecord(row: AcceptedVersions): LicenseRecord {
  return {
    avv_accepted_version: row.avvAcceptedVersion,
    license_accepted_version: row.licenseAcceptedVersion,
    privacy_accepted_version: row.privacyAcceptedVersion,
  };
}

export class AgreementsService {
  constructor(
    private readonly db: Db,
    private readonly agreements: Config['agreements'],
  ) {}

  current(): LicenseCurrent {
    return {
      avv_version: this.agreements.avv,
      license_version: this.agreements.license,
      privacy_version: this.agreements.privacy,
    };
  }

  /** @throws 404 for a non-member or a missing company. */
  async record(userId: string, companyId: string): Promise<LicenseRecord> {
    await requireMember(this.db, userId, companyId, 'read');
    const row = await repo.findAcceptedVersions(this.db, companyId);
    if (!row) throw notFound('Company not found.');
    return toLicenseRecord(row);
  }

  /** Admin only: records the current versions as accepted by the company. @throws 404, 403. */
  async accept(userId: string, companyId: string): Promise<LicenseRecord> {
    await requireMember(this.db, userId, companyId, 'manage');
    const row = await repo.acceptVersions(this.db, companyId, {
      avvAcceptedVersion: this.agreements.avv,
      licenseAcceptedVersion: this.agreements.license,
      privacyAcceptedVersion: this.agreements.privacy,
    });
    if (!row) throw notFound('Company not found.');
    return toLicenseRecord(row);
  }
}

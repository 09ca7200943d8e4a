/**
 * Agreements (spec §3, §4 "Terms must be accepted again when a version changes"; issue 4):
 * the current versions come from configuration; any member may accept them for the company,
 * because every member is sent to setup step 3 when a version is bumped.
 */
import type { LicenseCurrent, LicenseRecord } from '@heizplan/contracts/account';
import type { Config } from '../../config.ts';
import { notFound } from '../../http/errors.ts';
import type { MemberGuard } from '../companies/companies.service.ts';
import type { AcceptedVersions, LicensesRepository } from './licenses.repository.ts';

function toLicenseRecord(row: AcceptedVersions): LicenseRecord {
  return {
    avv_accepted_version: row.avvAcceptedVersion,
    license_accepted_version: row.licenseAcceptedVersion,
    privacy_accepted_version: row.privacyAcceptedVersion,
  };
}

export class LicensesService {
  constructor(
    private readonly repo: LicensesRepository,
    private readonly requireMember: MemberGuard,
    private readonly agreements: Config['agreements'],
  ) {}

  current(): LicenseCurrent {
    return {
      avv_version: this.agreements.avv,
      license_version: this.agreements.license,
      privacy_version: this.agreements.privacy,
    };
  }

  async record(userId: string, companyId: string): Promise<LicenseRecord> {
    await this.requireMember(userId, companyId);
    const row = await this.repo.find(companyId);
    if (!row) throw notFound('Company not found.');
    return toLicenseRecord(row);
  }

  /** Records the current versions as accepted by the company. */
  async accept(userId: string, companyId: string): Promise<LicenseRecord> {
    await this.requireMember(userId, companyId);
    const row = await this.repo.accept(companyId, {
      avvAcceptedVersion: this.agreements.avv,
      licenseAcceptedVersion: this.agreements.license,
      privacyAcceptedVersion: this.agreements.privacy,
    });
    if (!row) throw notFound('Company not found.');
    return toLicenseRecord(row);
  }
}

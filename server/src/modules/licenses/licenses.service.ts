/**
 * Agreements (spec §3, §4 "Terms must be accepted again when a version changes"; issues 4 and
 * 12): the current versions come from configuration; every member reads what the company
 * accepted (the route guards send everybody to setup step 3 after a bump), but only an admin
 * accepts them for the company (decision 0022).
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
    await this.requireMember(userId, companyId, 'read');
    const row = await this.repo.find(companyId);
    if (!row) throw notFound('Company not found.');
    return toLicenseRecord(row);
  }

  /** Admin only: records the current versions as accepted by the company. */
  async accept(userId: string, companyId: string): Promise<LicenseRecord> {
    await this.requireMember(userId, companyId, 'manage');
    const row = await this.repo.accept(companyId, {
      avvAcceptedVersion: this.agreements.avv,
      licenseAcceptedVersion: this.agreements.license,
      privacyAcceptedVersion: this.agreements.privacy,
    });
    if (!row) throw notFound('Company not found.');
    return toLicenseRecord(row);
  }
}

/**
 * Company rules of spec §3/§7 (issue 4): a user sees only companies they belong to (others
 * answer 404), only admins change a company or its team (others 403), the creator of a
 * company becomes its admin, and the last admin cannot be removed (409). A changed
 * temperature range or time zone makes the heating scheduler re-evaluate the company's units.
 */
import type {
  Company,
  CompanyListQuery,
  CompanyPage,
  CompanyPatchBody,
  Invite,
  Member,
} from '@heizplan/contracts/account';
import type { Membership } from '../../auth/membership.ts';
import type { Config } from '../../config.ts';
import { badRequest, conflict, forbidden, notFound } from '../../http/errors.ts';
import type { CompaniesRepository, CompanyChanges, CompanyRow } from './companies.repository.ts';

/** `requireMember` bound to the database: 404 for non-members and malformed ids. */
export type MemberGuard = (userId: string, companyId: string) => Promise<Membership>;

/** Creates invites on behalf of the team screen's "invite by email" call. */
export interface MemberInviter {
  create(userId: string, companyId: string, input: { email?: string }): Promise<Invite>;
}

/** Tells the heating scheduler that a company's time zone or temperature range changed. */
export interface CompanySettingsListener {
  settingsChanged(companyId: string): Promise<void>;
}

/** @throws HttpError 403 unless the membership is an admin one. */
export function requireAdmin(membership: Membership, action: string): void {
  if (membership.role !== 'admin') throw forbidden(`Only company admins may ${action}.`);
}

/** Row → API shape; each `conf` flag is true only for the current version (spec §4). */
export function toCompanyResponse(
  row: CompanyRow,
  membership: Membership,
  agreements: Config['agreements'],
): Company {
  return {
    id: row.id,
    name: row.name,
    conf: {
      avv_accepted: row.avvAcceptedVersion === agreements.avv,
      license_accepted: row.licenseAcceptedVersion === agreements.license,
      privacy_accepted: row.privacyAcceptedVersion === agreements.privacy,
    },
    min_temperature: row.minTemperature,
    max_temperature: row.maxTemperature,
    time_zone: row.timeZone,
    occupant_change_max_hours: row.occupantChangeMaxHours,
    role: membership.role,
  };
}

export class CompaniesService {
  constructor(
    private readonly repo: CompaniesRepository,
    private readonly requireMember: MemberGuard,
    private readonly agreements: Config['agreements'],
    private readonly inviter: MemberInviter,
    private readonly heating: CompanySettingsListener,
  ) {}

  /** The caller's companies; `pagination: false` returns all of them as one page. */
  async list(userId: string, query: CompanyListQuery): Promise<CompanyPage> {
    const { page, size, pagination } = query;
    const { rows, count } = await this.repo.listForUser(
      userId,
      pagination ? { limit: size, offset: (page - 1) * size } : { offset: 0 },
    );
    return pagination ? { results: rows, count, page, size } : { results: rows, count, page: 1, size: count };
  }

  async get(userId: string, companyId: string): Promise<Company> {
    const membership = await this.requireMember(userId, companyId);
    const row = await this.repo.find(companyId);
    if (!row) throw notFound('Company not found.');
    return toCompanyResponse(row, membership, this.agreements);
  }

  /**
   * Admin only. min < max is checked against the stored bound when only one is sent.
   * @throws 400 with a field error when the resulting range is empty.
   */
  async patch(userId: string, companyId: string, body: CompanyPatchBody): Promise<Company> {
    const membership = await this.requireMember(userId, companyId);
    requireAdmin(membership, 'change the company');
    const current = await this.repo.find(companyId);
    if (!current) throw notFound('Company not found.');
    const min = body.min_temperature ?? current.minTemperature;
    const max = body.max_temperature ?? current.maxTemperature;
    if (min >= max) {
      const message = 'The minimum temperature must be below the maximum temperature.';
      const field = body.min_temperature !== undefined ? 'body.min_temperature' : 'body.max_temperature';
      throw badRequest(message, [{ field, message }]);
    }
    const changes: CompanyChanges = Object.fromEntries(
      Object.entries({
        name: body.name,
        minTemperature: body.min_temperature,
        maxTemperature: body.max_temperature,
        timeZone: body.time_zone,
        occupantChangeMaxHours: body.occupant_change_max_hours,
      }).filter(([, value]) => value !== undefined),
    );
    // An empty patch (e.g. only unknown fields, which the schema strips) changes nothing.
    const row = Object.keys(changes).length === 0 ? current : await this.repo.update(companyId, changes);
    if (!row) throw notFound('Company not found.');
    // Setpoints are clamped to the range and plans follow the zone, so units re-evaluate now.
    if (
      changes.minTemperature !== undefined ||
      changes.maxTemperature !== undefined ||
      changes.timeZone !== undefined
    ) {
      await this.heating.settingsChanged(companyId);
    }
    return toCompanyResponse(row, membership, this.agreements);
  }

  /** Setup step 2 "create": the caller becomes admin of a new company named `name` (trimmed). */
  async setup(userId: string, name: string): Promise<Company> {
    const row = await this.repo.createWithAdmin(name, userId);
    return toCompanyResponse(row, { companyId: row.id, userId, role: 'admin' }, this.agreements);
  }

  async members(userId: string, companyId: string): Promise<Member[]> {
    await this.requireMember(userId, companyId);
    return this.repo.listMembers(companyId);
  }

  async member(userId: string, companyId: string, memberId: string): Promise<Member> {
    await this.requireMember(userId, companyId);
    const member = await this.repo.findMember(companyId, memberId);
    if (!member) throw notFound('Member not found.');
    return member;
  }

  /** Admin only; an admin may leave as long as another admin remains. */
  async removeMember(userId: string, companyId: string, memberId: string): Promise<void> {
    const membership = await this.requireMember(userId, companyId);
    requireAdmin(membership, 'remove members');
    const outcome = await this.repo.removeMember(companyId, memberId);
    if (outcome === 'not-member') throw notFound('Member not found.');
    if (outcome === 'last-admin') throw conflict('The last admin of a company cannot be removed.');
  }

  /** Admin only (checked by the inviter): invites `email` with the default role. */
  async inviteMember(userId: string, companyId: string, email: string): Promise<Invite> {
    return this.inviter.create(userId, companyId, { email });
  }
}

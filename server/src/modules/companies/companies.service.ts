/**
 * Company rules of spec §3/§7: a user sees only companies they belong to
 * (others answer 404), only admins change a company or its team (others 403, decision 0022),
 * the creator of a company becomes its admin, and the last admin can neither be removed, nor
 * leave, nor be demoted (409). Any member may leave a company. A changed temperature range,
 * time zone or economy/standby setpoint (decision 0051) makes the heating scheduler re-evaluate
 * the company's units.
 */
import type {
  Company,
  CompanyListQuery,
  CompanyPage,
  CompanyPatchBody,
  Invite,
  Member,
} from '@heizplan/contracts/account';
import { temperatureRangeIssue } from '@heizplan/contracts/heating';
import type { AccountPort, Mailer } from '../../auth/account-ports.ts';
import { type Membership, type Role, requireMember } from '../../auth/membership.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { badRequest, conflict, type FieldError, notFound } from '../../http/errors.ts';
import type { CompanyChanges, CompanyRow } from './companies.repository.ts';
import * as repo from './companies.repository.ts';

/** Creates invites on behalf of the team screen's "invite by email" call. */
export interface MemberInviter {
  create(userId: string, companyId: string, input: { email?: string }): Promise<Invite>;
}

/** Tells the heating scheduler that a company's time zone, temperature range or mode setpoints changed. */
export interface CompanySettingsListener {
  settingsChanged(companyId: string): Promise<void>;
}

/**
 * The frost protection, economy and standby setpoints and the occupants' highest temperature (°C)
 * of `body` must lie inside the company's resulting range.
 * @throws 400 naming each field outside it, with the range as params.
 */
function requireModeSetpointsInRange(body: CompanyPatchBody, range: { min: number; max: number }) {
  const errors: FieldError[] = [];
  for (const field of [
    'frost_protection',
    'economy_temperature',
    'standby_temperature',
    'occupant_max_temperature',
  ] as const) {
    const value = body[field];
    const issue = value === undefined ? null : temperatureRangeIssue(value, range);
    if (issue)
      errors.push({ field: `body.${field}`, message: issue.message, code: issue.code, params: issue.params });
  }
  const [first] = errors;
  if (first?.code) throw badRequest(first.message, errors, { code: first.code, params: first.params ?? {} });
}

/** The answer when a change would leave a company without an admin (spec §4). */
export const LAST_ADMIN = 'A company needs at least one admin: make another member admin first.';

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
    occupant_max_temperature: row.occupantMaxTemperature,
    occupant_band: row.occupantBand,
    invite_role_choice: row.inviteRoleChoice,
    default_invite_role: row.defaultInviteRole,
    energy_media: row.energyMedia,
    frost_protection: row.frostProtection,
    economy_temperature: row.economyTemperature,
    standby_temperature: row.standbyTemperature,
    optimum_start: row.optimumStart,
    optimum_max_lead_minutes: row.optimumMaxLeadMinutes,
    second_factor_required: row.secondFactorRequired,
    // The column holds only the contract's values (0 or 30); anything else is read as off.
    remember_device_days: row.rememberDeviceDays === 30 ? 30 : 0,
    role: membership.role,
  };
}

export interface CompaniesServiceDeps {
  db: Db;
  /** The current agreement versions (the `conf` flags compare against them). */
  agreements: Config['agreements'];
  inviter: MemberInviter;
  heating: CompanySettingsListener;
  /**
   * Whether an external issuer (`OIDC_ISSUER`) signs people in: it owns the second factor, so a
   * company may not require one here (decision 0078).
   */
  externalIssuer: boolean;
  /** The embedded provider's account store: an admin's reset of a member's factors. */
  account: Pick<AccountPort, 'resetSecondFactors'>;
  /** Mails the member whose factors an admin reset. */
  mailer: Mailer;
  /** Where the mail's link points (PUBLIC_URL). */
  publicUrl: string;
  /** A mail that could not be sent is logged, the reset stays. */
  log: { warn(details: object, message: string): void };
}

const EXTERNAL_ACCOUNTS = 'The external identity provider owns sign-in; manage second factors there.';

/** Subject and body of the mail to a member whose factors `admin` reset, in the member's language. */
export function secondFactorResetMail(
  lang: 'de' | 'en',
  values: { name: string; admin: string; company: string; link: string },
): [subject: string, text: string] {
  const { name, admin, company, link } = values;
  return lang === 'en'
    ? [
        'Your Heizplan sign-in was reset',
        `Hello ${name},\n\n${admin}, an admin of ${company}, reset your two-factor sign-in: your authenticator app, recovery codes and passkeys were removed, and you were signed out everywhere.\n\nSign in again with your password and set up a second factor under Settings → General:\n\n${link}\n\nIf you did not ask for this, please contact ${admin} at once.`,
      ]
    : [
        'Ihre Anmeldung bei Heizplan wurde zurückgesetzt',
        `Hallo ${name},\n\n${admin}, Administrator der Firma ${company}, hat Ihre Zwei-Faktor-Anmeldung zurückgesetzt: Ihre Authenticator-App, Ihre Wiederherstellungscodes und Ihre Passkeys wurden entfernt, und Sie wurden überall abgemeldet.\n\nMelden Sie sich mit Ihrem Passwort neu an und richten Sie unter Einstellungen → Allgemein wieder einen zweiten Faktor ein:\n\n${link}\n\nHaben Sie nicht darum gebeten, wenden Sie sich bitte sofort an ${admin}.`,
      ];
}

export class CompaniesService {
  constructor(private readonly deps: CompaniesServiceDeps) {}

  private get db() {
    return this.deps.db;
  }

  private get agreements() {
    return this.deps.agreements;
  }

  /** The caller's companies; `pagination: false` returns all of them as one page. */
  async list(userId: string, query: CompanyListQuery): Promise<CompanyPage> {
    const { page, size, pagination } = query;
    const { rows, count } = await repo.listCompaniesForUser(
      this.db,
      userId,
      pagination ? { limit: size, offset: (page - 1) * size } : { offset: 0 },
    );
    return pagination ? { results: rows, count, page, size } : { results: rows, count, page: 1, size: count };
  }

  async get(userId: string, companyId: string): Promise<Company> {
    const membership = await requireMember(this.db, userId, companyId, 'read');
    const row = await repo.findCompany(this.db, companyId);
    if (!row) throw notFound('Company not found.');
    return toCompanyResponse(row, membership, this.agreements);
  }

  /**
   * Admin only. min < max is checked against the stored bound when only one is sent; a frost
   * protection, economy or standby setpoint sent must lie inside the resulting range.
   * @throws 400 with a field error when the resulting range is empty, or with one per mode
   *   setpoint outside it (`below_range` / `out_of_range`, the range as params); 409
   *   `accounts_external` for a change of the second-factor policy or the remembered browsers
   *   while an external issuer signs in.
   */
  async patch(userId: string, companyId: string, body: CompanyPatchBody): Promise<Company> {
    const membership = await requireMember(this.db, userId, companyId, 'manage');
    const current = await repo.findCompany(this.db, companyId);
    if (!current) throw notFound('Company not found.');
    const min = body.min_temperature ?? current.minTemperature;
    const max = body.max_temperature ?? current.maxTemperature;
    if (min >= max) {
      const message = 'The minimum temperature must be below the maximum temperature.';
      const field = body.min_temperature !== undefined ? 'body.min_temperature' : 'body.max_temperature';
      const reason = { code: 'company_range_order' } as const;
      throw badRequest(message, [{ field, message, ...reason }], reason);
    }
    requireModeSetpointsInRange(body, { min, max });
    if (
      this.deps.externalIssuer &&
      ((body.second_factor_required !== undefined &&
        body.second_factor_required !== current.secondFactorRequired) ||
        (body.remember_device_days !== undefined && body.remember_device_days !== current.rememberDeviceDays))
    ) {
      throw conflict('The external identity provider owns sign-in; require a second factor there.', {
        code: 'accounts_external',
      });
    }
    const changes: CompanyChanges = Object.fromEntries(
      Object.entries({
        name: body.name,
        minTemperature: body.min_temperature,
        maxTemperature: body.max_temperature,
        timeZone: body.time_zone,
        occupantChangeMaxHours: body.occupant_change_max_hours,
        occupantMaxTemperature: body.occupant_max_temperature,
        occupantBand: body.occupant_band,
        inviteRoleChoice: body.invite_role_choice,
        defaultInviteRole: body.default_invite_role,
        energyMedia: body.energy_media,
        frostProtection: body.frost_protection,
        economyTemperature: body.economy_temperature,
        standbyTemperature: body.standby_temperature,
        optimumStart: body.optimum_start,
        optimumMaxLeadMinutes: body.optimum_max_lead_minutes,
        secondFactorRequired: body.second_factor_required,
        rememberDeviceDays: body.remember_device_days,
      }).filter(([, value]) => value !== undefined),
    );
    // An empty patch (e.g. only unknown fields, which the schema strips) changes nothing.
    const row =
      Object.keys(changes).length === 0 ? current : await repo.updateCompany(this.db, companyId, changes);
    if (!row) throw notFound('Company not found.');
    // Setpoints are clamped to the range, plans follow the zone, closures keep the mode
    // setpoints and optimum start moves switch points, so units re-evaluate now.
    if (
      changes.minTemperature !== undefined ||
      changes.maxTemperature !== undefined ||
      changes.timeZone !== undefined ||
      changes.frostProtection !== undefined ||
      changes.economyTemperature !== undefined ||
      changes.standbyTemperature !== undefined ||
      changes.optimumStart !== undefined ||
      changes.optimumMaxLeadMinutes !== undefined
    ) {
      await this.deps.heating.settingsChanged(companyId);
    }
    return toCompanyResponse(row, membership, this.agreements);
  }

  /** Setup step 2 "create": the caller becomes admin of a new company named `name` (trimmed). */
  async setup(userId: string, name: string): Promise<Company> {
    const row = await repo.createCompanyWithAdmin(this.db, name, userId);
    return toCompanyResponse(row, { companyId: row.id, userId, role: 'admin' }, this.agreements);
  }

  /** Admin only: the team screen's table, with each member's second factors (decision 0078). */
  async members(userId: string, companyId: string): Promise<Member[]> {
    await requireMember(this.db, userId, companyId, 'manage');
    const rows = await repo.listMembers(this.db, companyId);
    return rows.map(({ totp, passkeys, ...member }) => ({ ...member, factors: { totp, passkeys } }));
  }

  /** Admins read any member; every member reads their own membership. */
  async member(userId: string, companyId: string, memberId: string): Promise<Member> {
    await requireMember(this.db, userId, companyId, memberId === userId ? 'read' : 'manage');
    const member = await repo.findMember(this.db, companyId, memberId);
    if (!member) throw notFound('Member not found.');
    return member;
  }

  /**
   * Admins remove any member; every member may leave (remove themselves). Access ends at once:
   * every company-scoped call checks the membership row. A removed member (not one who left)
   * gets a notice naming the company (`GET /api/me/`).
   * @throws 409 for the last admin (nothing changed), 404 for someone who is not a member.
   */
  async removeMember(userId: string, companyId: string, memberId: string): Promise<void> {
    await requireMember(this.db, userId, companyId, memberId === userId ? 'read' : 'manage');
    // Someone who leaves knows it; someone removed by an admin is told on their next visit.
    const outcome = await repo.removeMember(this.db, companyId, memberId, memberId !== userId);
    if (outcome === 'not-member') throw notFound('Member not found.');
    if (outcome === 'last-admin') throw conflict(LAST_ADMIN, { code: 'last_admin' });
  }

  /**
   * Admin only: gives a member another role; without a role it answers the member unchanged.
   * @throws 409 when it would demote the last admin, 404 for someone who is not a member.
   */
  async changeRole(userId: string, companyId: string, memberId: string, role?: Role): Promise<Member> {
    await requireMember(this.db, userId, companyId, 'manage');
    if (role === undefined) return this.member(userId, companyId, memberId);
    const outcome = await repo.changeRole(this.db, companyId, memberId, role);
    if (outcome === 'not-member') throw notFound('Member not found.');
    if (outcome === 'last-admin') throw conflict(LAST_ADMIN, { code: 'last_admin' });
    return outcome;
  }

  /**
   * Admin only (decision 0078): removes a member's TOTP, recovery codes and passkeys, ends their
   * sessions and mails them (their language; German when unknown). For a member who lost their
   * phone; the audit log records the call like every company change. Not for oneself: an admin
   * who lost their own factor asks another admin, so a stolen admin session cannot strip the
   * admin's factors without the password (OWASP ASVS 5.0 V6.4, factor lifecycle and recovery).
   * @throws 409 `second_factor_reset_self` for the caller themselves, 409 `accounts_external`
   *   with an external issuer, 404 for someone who is not a member.
   */
  async resetSecondFactor(userId: string, companyId: string, memberId: string): Promise<void> {
    await requireMember(this.db, userId, companyId, 'manage');
    if (memberId === userId) {
      throw conflict('Ask another admin to reset your own second factor.', {
        code: 'second_factor_reset_self',
      });
    }
    const member = await repo.findMemberContact(this.db, companyId, memberId);
    if (!member) throw notFound('Member not found.');
    if (this.deps.externalIssuer) throw conflict(EXTERNAL_ACCOUNTS, { code: 'accounts_external' });
    await this.deps.account.resetSecondFactors(memberId);
    const [admin, company] = await Promise.all([
      repo.findMember(this.db, companyId, userId),
      repo.findCompany(this.db, companyId),
    ]);
    const mail = secondFactorResetMail(member.lang ?? 'de', {
      name: member.name,
      admin: admin?.name || admin?.email || '',
      company: company?.name ?? '',
      link: `${this.deps.publicUrl}/settings/general`,
    });
    try {
      if (member.email) await this.deps.mailer.send(member.email, ...mail);
    } catch (error) {
      this.deps.log.warn({ err: error, memberId }, 'second-factor reset mail not sent');
    }
  }

  /** Admin only (checked by the inviter): invites `email` with the company's default role. */
  async inviteMember(userId: string, companyId: string, email: string): Promise<Invite> {
    return this.deps.inviter.create(userId, companyId, { email });
  }
}

/**
 * Invites (spec §3 "Invite", §4, §7; issue 4). Only company admins list, create and delete
 * invites, because a code lets anyone join with the invite's role. The code is the invite's
 * id: 24 random bytes (192 bits) in base64url, so it cannot be guessed. An invite with an
 * email is mailed to that address; it is deleted once used.
 */
import { randomBytes } from 'node:crypto';
import type { Company, Invite } from '@heizplan/contracts/account';
import type { FastifyBaseLogger } from 'fastify';
import type { Role } from '../../auth/membership.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import { type MemberGuard, requireAdmin } from '../companies/companies.service.ts';
import type { Mailer } from '../me/me.ports.ts';
import type { InviteRow, InvitesRepository } from './invites.repository.ts';

/** Shape of a code this server issues; anything else is rejected without a query. */
const INVITE_CODE = /^[A-Za-z0-9_-]{32}$/;

const INVALID_CODE = 'Invalid invite code.';

/** Reads a company as the given member sees it (companies service). */
export interface CompanyReader {
  get(userId: string, companyId: string): Promise<Company>;
}

export function newInviteCode(): string {
  return randomBytes(24).toString('base64url');
}

export function toInviteResponse(row: InviteRow): Invite {
  return {
    id: row.id,
    email: row.email,
    company: row.companyId,
    role: row.role,
    created_at: row.createdAt.toISOString(),
  };
}

export class InvitesService {
  constructor(
    private readonly repo: InvitesRepository,
    private readonly requireMember: MemberGuard,
    private readonly companies: CompanyReader,
    private readonly mailer: Mailer,
    private readonly publicUrl: string,
    private readonly log: Pick<FastifyBaseLogger, 'error'>,
  ) {}

  async list(userId: string, companyId: string): Promise<Invite[]> {
    requireAdmin(await this.requireMember(userId, companyId), 'see invites');
    return (await this.repo.listForCompany(companyId)).map(toInviteResponse);
  }

  /**
   * Admin only. When `email` is given the code is mailed there; if that mail fails the
   * invite is removed again and 502 is returned, so no unsent invite is left behind.
   */
  async create(userId: string, companyId: string, input: { email?: string; role?: Role }): Promise<Invite> {
    requireAdmin(await this.requireMember(userId, companyId), 'invite members');
    const company = await this.companies.get(userId, companyId);
    const row = await this.repo.insert({
      id: newInviteCode(),
      companyId,
      email: input.email ?? null,
      role: input.role ?? 'heating',
    });
    if (row.email) {
      try {
        await this.mailer.send(row.email, ...inviteMail(company.name, row.id, this.publicUrl));
      } catch (err) {
        this.log.error({ err, companyId }, 'invite mail failed; invite withdrawn');
        await this.repo.delete(companyId, row.id);
        throw new HttpError(502, 'Bad Gateway', 'The invitation mail could not be sent.');
      }
    }
    return toInviteResponse(row);
  }

  /** Admin only; an unknown code or another company's invite answers 404. */
  async remove(userId: string, code: string): Promise<void> {
    const invite = INVITE_CODE.test(code) ? await this.repo.find(code) : undefined;
    if (!invite) throw notFound('Invite not found.');
    requireAdmin(await this.requireMember(userId, invite.companyId), 'delete invites');
    await this.repo.delete(invite.companyId, code);
  }

  /**
   * Setup step 2 "join": the caller joins the invite's company with its role and the invite
   * is deleted, also when the caller already was a member.
   * @throws 404 "Invalid invite code." (shown by the setup screen) for an unknown code.
   */
  async join(userId: string, code: string): Promise<Company> {
    const invite = INVITE_CODE.test(code) ? await this.repo.redeem(code, userId) : undefined;
    if (!invite) throw notFound(INVALID_CODE);
    return this.companies.get(userId, invite.companyId);
  }
}

/** Subject and body (German and English: the invitee's language is unknown) of an invite mail. */
function inviteMail(companyName: string, code: string, publicUrl: string): [string, string] {
  // skipGuard keeps step 2 open for users who already belong to a company (spec §2 guards);
  // invite_code lets the setup screen fill in the code.
  const link = `${publicUrl}/setup/2?skipGuard=true&invite_code=${encodeURIComponent(code)}`;
  return [
    `Einladung zu ${companyName} bei Heizplan / Invitation to ${companyName} on Heizplan`,
    [
      `Sie wurden eingeladen, ${companyName} bei Heizplan beizutreten.`,
      `Melden Sie sich an und geben Sie im Einrichtungsschritt 2 diesen Einladungscode ein: ${code}`,
      link,
      '',
      `You have been invited to join ${companyName} on Heizplan.`,
      `Sign in and enter this invite code in setup step 2: ${code}`,
      link,
    ].join('\n'),
  ];
}

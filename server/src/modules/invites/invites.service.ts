/**
 * Invites (spec §3 "Invite", §4, §6, §7). Only company admins list, create
 * and delete invites, because a code lets anyone join with the invite's role. The code is the
 * invite's id: 24 random bytes (192 bits) in base64url, so it cannot be guessed. An invite
 * with an email is mailed to that address with a link that signs the person in (or registers
 * them) and joins; it is deleted once used. While the company's role choice is off, invites
 * carry no role and the member gets the company's default role.
 */
import { randomBytes } from 'node:crypto';
import type { Company, Invite } from '@heizplan/contracts/account';
import type { FastifyBaseLogger } from 'fastify';
import { type Role, requireMember } from '../../auth/membership.ts';
import {
  ACCOUNT_THRESHOLD,
  clearFailures,
  IP_THRESHOLD,
  inviteAccountKey,
  inviteIpKey,
  lockedUntil,
  recordFailures,
} from '../../auth/throttle.ts';
import type { Db } from '../../db/client.ts';
import { badRequest, HttpError, notFound, retryAfterSeconds, tooManyRequests } from '../../http/errors.ts';
import type { Mailer } from '../me/me.ports.ts';
import type { InviteRow } from './invites.repository.ts';
import * as repo from './invites.repository.ts';

/** Shape of a code this server issues; anything else is rejected without a query. */
const INVITE_CODE = /^[A-Za-z0-9_-]{32}$/;

const INVALID_CODE = 'Invalid invite code.';
const tooManyCodes = (until: Date) =>
  tooManyRequests(
    until,
    `Too many invalid invite codes. Try again in ${Math.ceil(retryAfterSeconds(until) / 60)} min.`,
  );

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

export interface InvitesServiceDeps {
  db: Db;
  companies: CompanyReader;
  mailer: Mailer;
  /** Base of the link an invite mail carries. */
  publicUrl: string;
  log: Pick<FastifyBaseLogger, 'error'>;
}

export class InvitesService {
  constructor(private readonly deps: InvitesServiceDeps) {}

  private get db() {
    return this.deps.db;
  }

  async list(userId: string, companyId: string): Promise<Invite[]> {
    await requireMember(this.db, userId, companyId, 'manage');
    return (await repo.listInvites(this.db, companyId)).map(toInviteResponse);
  }

  /**
   * Admin only. Without `role` the company's default role is used. When `email` is given the
   * code is mailed there; if that mail fails the invite is removed again and 502 is returned,
   * so no unsent invite is left behind.
   * @throws 400 for a role while the company's role choice is off.
   */
  async create(userId: string, companyId: string, input: { email?: string; role?: Role }): Promise<Invite> {
    await requireMember(this.db, userId, companyId, 'manage');
    const company = await this.deps.companies.get(userId, companyId);
    if (!company.invite_role_choice && input.role !== undefined) {
      const message = 'This company gives every new member its default role; invites carry no role.';
      throw badRequest(message, [{ field: 'body.role', message, code: 'invite_role_choice_off' }], {
        code: 'invite_role_choice_off',
      });
    }
    const row = await repo.insertInvite(this.db, {
      id: newInviteCode(),
      companyId,
      email: input.email ?? null,
      role: company.invite_role_choice ? (input.role ?? company.default_invite_role) : null,
    });
    if (row.email) {
      try {
        await this.deps.mailer.send(row.email, ...inviteMail(company.name, row.id, this.deps.publicUrl));
      } catch (err) {
        this.deps.log.error({ err, companyId }, 'invite mail failed; invite withdrawn');
        await repo.deleteInvite(this.db, companyId, row.id);
        throw new HttpError(502, 'Bad Gateway', 'The invitation mail could not be sent.');
      }
    }
    return toInviteResponse(row);
  }

  /** Admin only; an unknown code or another company's invite answers 404. */
  async remove(userId: string, code: string): Promise<void> {
    const invite = INVITE_CODE.test(code) ? await repo.findInvite(this.db, code) : undefined;
    if (!invite) throw notFound('Invite not found.');
    await requireMember(this.db, userId, invite.companyId, 'manage');
    await repo.deleteInvite(this.db, invite.companyId, code);
  }

  /**
   * Setup step 2 "join": the caller joins the invite's company with its role (or the company's
   * default role for an invite without one) and the invite is deleted, also when the caller
   * already was a member. Wrong codes are throttled like
   * sign-ins, per account and per client IP `ip` (auth/throttle.ts): codes cannot be guessed,
   * but an unlimited endpoint would let anyone try.
   * @throws 404 "Invalid invite code." (shown by the setup screen) for an unknown code;
   * 429 with Retry-After from the failure that reaches a threshold until the lock ends.
   */
  async join(userId: string, code: string, ip: string): Promise<Company> {
    const limits = [
      { key: inviteAccountKey(userId), threshold: ACCOUNT_THRESHOLD },
      { key: inviteIpKey(ip), threshold: IP_THRESHOLD },
    ];
    const locked = await lockedUntil(
      this.db,
      limits.map((l) => l.key),
    );
    if (locked) throw tooManyCodes(locked);
    const invite = INVITE_CODE.test(code) ? await repo.redeemInvite(this.db, code, userId) : undefined;
    if (!invite) {
      const lockedNow = await recordFailures(this.db, limits);
      throw lockedNow ? tooManyCodes(lockedNow) : notFound(INVALID_CODE, { code: 'invite_code_invalid' });
    }
    await clearFailures(this.db, inviteAccountKey(userId));
    return this.deps.companies.get(userId, invite.companyId);
  }
}

/** Subject and body (German and English: the invitee's language is unknown) of an invite mail. */
function inviteMail(companyName: string, code: string, publicUrl: string): [string, string] {
  // skipGuard keeps step 2 open for users who already belong to a company (spec §2 guards);
  // invite_code lets the setup screen fill in the code, or join at once for an existing account.
  // Opening the link signs the person in first, or lets them register.
  const link = `${publicUrl}/setup/2?skipGuard=true&invite_code=${encodeURIComponent(code)}`;
  return [
    `Einladung zu ${companyName} bei Heizplan / Invitation to ${companyName} on Heizplan`,
    [
      `Sie wurden eingeladen, ${companyName} bei Heizplan beizutreten.`,
      'Öffnen Sie diesen Link, melden Sie sich an oder registrieren Sie sich, und Sie treten bei:',
      link,
      `Ihr Einladungscode, falls Sie ihn von Hand eingeben möchten: ${code}`,
      '',
      `You have been invited to join ${companyName} on Heizplan.`,
      'Open this link, sign in or register, and you join:',
      link,
      `Your invite code, should you want to enter it by hand: ${code}`,
    ].join('\n'),
  ];
}

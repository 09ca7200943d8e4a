/**
 * The caller's own profile (spec §3 "User", §4, §5, §7). Name and email are
 * trimmed before saving (by the contract schema); a changed email is unverified again and
 * becomes the sign-in email of an embedded-provider account (409 when another account has it).
 * Password changes, verification mails and the second factor go to the identity provider's account store,
 * which only exists in embedded mode: with an external issuer they answer 409. A change of the
 * sign-in factors (TOTP on or off, a passkey added or removed) ends the account's other sessions
 * (decision 0074): whoever holds one of them must sign in again under the new rules; a password
 * change ends all of them, this one too.
 */
import type { Language, UpdateMeBody, User } from '@heizplan/contracts/account';
import type {
  Passkey,
  PasskeyList,
  PasskeyRegisterBody,
  PasskeyRegistrationOptions,
} from '@heizplan/contracts/passkeys';
import type { SecondFactorStatus, TotpEnrolment } from '@heizplan/contracts/second-factor';
import type { SessionList } from '@heizplan/contracts/sessions';
import { anySecondFactorMissing } from '../../auth/auth.repository.ts';
import { type Clock, systemClock } from '../../clock.ts';
import type { Db } from '../../db/client.ts';
import { conflict, notFound } from '../../http/errors.ts';
import type { AccountPorts } from './me.ports.ts';
import type { NoticeRow, UserRow } from './me.repository.ts';
import * as repo from './me.repository.ts';

/** Days between a deletion request and the removal of the account's data (spec §4). */
export const DELETION_GRACE_DAYS = 30;

const DAY_MS = 86_400_000;

/**
 * How recent a sign-in must be to add a factor without the password again (decision 0078): 10
 * minutes, as long as a sign-in form and an enrolment right after it take.
 */
export const STEP_UP_MAX_AGE_S = 600;

/** The step-up's proof: the password, or when the caller's session signed in (s). */
export interface StepUpProof {
  password?: string | undefined;
  authTime?: number | undefined;
}

const EXTERNAL_ACCOUNTS = 'Accounts are managed by the external identity provider; change this there.';

export function toUserResponse(
  row: UserRow,
  companyIds: string[],
  notices: NoticeRow[] = [],
  secondFactorRequired = false,
): User {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    email_verified: row.emailVerified,
    lang: row.lang,
    created_at: row.createdAt.toISOString(),
    last_login: row.lastLogin?.toISOString() ?? null,
    company_ids: companyIds,
    notices: notices.map((notice) => ({
      id: notice.id,
      kind: notice.kind,
      company_name: notice.companyName,
      created_at: notice.createdAt.toISOString(),
    })),
    second_factor_required: secondFactorRequired,
  };
}

export class MeService {
  constructor(
    private readonly db: Db,
    private readonly ports: AccountPorts,
    /** `now`: when a deletion is requested, and so when it is due; default the machine's clock. */
    private readonly mode: { externalIssuer: boolean; now?: Clock },
  ) {}

  async get(userId: string): Promise<User> {
    return this.respond(await repo.findUser(this.db, userId));
  }

  async update(userId: string, body: UpdateMeBody): Promise<User> {
    const current = await repo.findUser(this.db, userId);
    if (!current) throw notFound('User not found.');
    const emailChanged = current.email.toLowerCase() !== body.email.toLowerCase();
    const row = await repo.updateProfile(this.db, userId, {
      name: body.name,
      email: body.email,
      emailChanged,
    });
    if (row === 'email-taken')
      throw conflict('This email address is already used by another account.', { code: 'email_taken' });
    return this.respond(row);
  }

  async setLanguage(userId: string, lang: Language): Promise<User> {
    return this.respond(await repo.setUserLanguage(this.db, userId, lang));
  }

  /** @throws 409 with an external issuer, which owns the password. */
  async setPassword(userId: string, currentPassword: string, password: string): Promise<void> {
    if (this.mode.externalIssuer) throw conflict(EXTERNAL_ACCOUNTS, { code: 'accounts_external' });
    await this.ports.account.setPassword(userId, currentPassword, password);
  }

  /** Whether a confirmed TOTP guards the sign-in (decision 0072). @throws 409 with an external issuer. */
  async secondFactor(userId: string): Promise<SecondFactorStatus> {
    this.refuseExternal();
    return this.ports.account.secondFactorStatus(userId);
  }

  /**
   * Starts a TOTP enrolment after the step-up (decision 0078: a sign-in of the last 10 minutes
   * or the password in the body).
   * @throws 403 `step_up_required`, 400 on `body.password`, 409 with an external issuer or while
   *   a confirmed TOTP exists.
   */
  async startTotp(userId: string, proof: StepUpProof): Promise<TotpEnrolment> {
    this.refuseExternal();
    await this.stepUp(userId, proof);
    return this.ports.account.startTotp(userId);
  }

  /** Confirms the started TOTP. @returns the ten recovery codes, shown once. @throws 400 on `body.code`, 409. */
  async confirmTotp(userId: string, code: string, currentSid?: string): Promise<{ recoveryCodes: string[] }> {
    this.refuseExternal();
    const recoveryCodes = await this.ports.account.confirmTotp(userId, code);
    await this.ports.account.endOtherSessions(userId, currentSid);
    return { recoveryCodes };
  }

  /** Disables the TOTP after password and code. @throws 400 naming the wrong field, 409, 429. */
  async disableTotp(userId: string, password: string, code: string, currentSid?: string): Promise<void> {
    this.refuseExternal();
    await this.ports.account.disableTotp(userId, password, code);
    await this.ports.account.endOtherSessions(userId, currentSid);
  }

  /** The caller's passkeys (decision 0074). @throws 409 with an external issuer. */
  async passkeys(userId: string): Promise<PasskeyList> {
    this.refuseExternal();
    return { results: await this.ports.account.listPasskeys(userId) };
  }

  /**
   * Options for registering a passkey after the step-up (decision 0078: a sign-in of the last 10
   * minutes or the password in the body); the challenge is valid 5 minutes, once, and binds the registration to this step-up.
   * @throws 403 `step_up_required`, 400 on `body.password`, 409 with an external issuer.
   */
  async passkeyRegistrationOptions(userId: string, proof: StepUpProof): Promise<PasskeyRegistrationOptions> {
    this.refuseExternal();
    await this.stepUp(userId, proof);
    return this.ports.account.passkeyRegistrationOptions(userId);
  }

  /** Stores a passkey from the browser's answer. @throws 400 on `body.response`, 409. */
  async registerPasskey(userId: string, body: PasskeyRegisterBody, currentSid?: string): Promise<Passkey> {
    this.refuseExternal();
    const passkey = await this.ports.account.registerPasskey(userId, body);
    await this.ports.account.endOtherSessions(userId, currentSid);
    return passkey;
  }

  /** One passkey. @throws 404 when the caller has no such passkey, 409. */
  async passkey(userId: string, id: string): Promise<Passkey> {
    this.refuseExternal();
    return this.ports.account.renamePasskey(userId, id, undefined);
  }

  /** Renames a passkey (no name: as it is). @throws 404 when the caller has no such passkey, 409. */
  async renamePasskey(userId: string, id: string, name: string | undefined): Promise<Passkey> {
    this.refuseExternal();
    return this.ports.account.renamePasskey(userId, id, name);
  }

  /** Removes a passkey. @throws 404 when the caller has no such passkey, 409. */
  async removePasskey(userId: string, id: string, currentSid?: string): Promise<void> {
    this.refuseExternal();
    await this.ports.account.removePasskey(userId, id);
    await this.ports.account.endOtherSessions(userId, currentSid);
  }

  /** The caller's sign-in sessions, `currentSid` marked (decision 0074). @throws 409 with an external issuer. */
  async sessions(userId: string, currentSid: string | undefined): Promise<SessionList> {
    this.refuseExternal();
    return { results: await this.ports.account.listSessions(userId, currentSid) };
  }

  /** Ends one of the caller's sessions. @throws 404 when there is no such live session, 409. */
  async endSession(userId: string, sessionId: string): Promise<void> {
    this.refuseExternal();
    await this.ports.account.endSession(userId, sessionId);
  }

  /** Ends every session of the caller but `currentSid`. @throws 409 with an external issuer. */
  async endOtherSessions(userId: string, currentSid: string | undefined): Promise<void> {
    this.refuseExternal();
    await this.ports.account.endOtherSessions(userId, currentSid);
  }

  private refuseExternal() {
    if (this.mode.externalIssuer) throw conflict(EXTERNAL_ACCOUNTS, { code: 'accounts_external' });
  }

  /** @throws 409 when the email is already verified or accounts are external. */
  async requestVerification(userId: string): Promise<void> {
    if (this.mode.externalIssuer) throw conflict(EXTERNAL_ACCOUNTS, { code: 'accounts_external' });
    const user = await repo.findUser(this.db, userId);
    if (!user) throw notFound('User not found.');
    if (user.emailVerified)
      throw conflict('The email address is already verified.', { code: 'email_already_verified' });
    await this.ports.account.requestVerification(userId);
  }

  /**
   * Spec §4: deactivates the account at once (its tokens are refused from now on), tells
   * billing to cancel at the end of the period, and schedules the data removal
   * `DELETION_GRACE_DAYS` later (carried out by `purgeDueAccounts`).
   */
  async requestDeletion(userId: string, now = (this.mode.now ?? systemClock)()): Promise<void> {
    await repo.requestDeletion(this.db, userId, now, new Date(now.getTime() + DELETION_GRACE_DAYS * DAY_MS));
    await this.ports.billing.onAccountDeletion(userId);
  }

  /** Dismisses one of the caller's notices. @throws 404 when the caller has no such notice. */
  async dismissNotice(userId: string, noticeId: string): Promise<void> {
    if (!(await repo.deleteNotice(this.db, userId, noticeId))) throw notFound('Notice not found.');
  }

  /**
   * The step-up before a factor is added (decision 0078): a sign-in of the last
   * STEP_UP_MAX_AGE_S seconds (the token's `auth_time`, read against the app's clock; one in the
   * future does not count) or the password. @throws what `AccountPort.stepUp` throws.
   */
  private async stepUp(userId: string, proof: StepUpProof): Promise<void> {
    const nowS = (this.mode.now ?? systemClock)().getTime() / 1000;
    const age = proof.authTime === undefined ? Number.NaN : nowS - proof.authTime;
    if (proof.password === undefined && age >= 0 && age <= STEP_UP_MAX_AGE_S) return;
    await this.ports.account.stepUp(userId, proof.password);
  }

  private async respond(row: UserRow | undefined): Promise<User> {
    if (!row) throw notFound('User not found.');
    return toUserResponse(
      row,
      await repo.companyIdsOf(this.db, row.id),
      await repo.noticesOf(this.db, row.id),
      await anySecondFactorMissing(this.db, row.id),
    );
  }
}

/**
 * The account API's ports (re-exported with their defaults by modules/me/me.ports.ts) and their
 * connection to this server's mail transport and, in embedded mode, to the local account store:
 * `POST /me/request-verification` → `sendVerificationMail`, `PUT /me/password` → `setPassword`,
 * `/me/second-factor…` → auth/second-factor.service.ts, `/me/passkeys…` → auth/passkeys.service.ts.
 * With an external issuer the account port stays unset (the account API answers 409 itself).
 * The types live here, not in the me module, because authentication implements them and sits
 * below the modules.
 */
import type { Passkey, PasskeyRegisterBody, PasskeyRegistrationOptions } from '@heizplan/contracts/passkeys';
import type { SecondFactorStatus, TotpEnrolment } from '@heizplan/contracts/second-factor';
import type { Session } from '@heizplan/contracts/sessions';
import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import { type Clock, systemClock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { createMailer, type MailAttachment, type MailLogger } from '../mail/mailer.ts';
import { sendVerificationMail, setPassword } from './accounts.service.ts';
import {
  listPasskeys,
  passkeyRegistrationOptions,
  registerPasskey,
  removePasskey,
  renamePasskey,
} from './passkeys.service.ts';
import {
  confirmTotpEnrolment,
  disableTotp,
  requireStepUp,
  resetSecondFactors,
  secondFactorStatus,
  startTotpEnrolment,
} from './second-factor.service.ts';
import { endOtherSessions, endSession, listSessions } from './sessions.service.ts';

export interface Mailer {
  /** Sends a plain-text mail, with files attached when given. @throws when the transport rejects it. */
  send(to: string, subject: string, text: string, attachments?: MailAttachment[]): Promise<void>;
}

export interface AccountPort {
  /** Sends the user a mail with an email-verification link. */
  requestVerification(userId: string): Promise<void>;
  /**
   * Replaces the user's sign-in password (already validated: ≥ 10 characters) once
   * `currentPassword` matches, and signs the account out everywhere.
   * @throws HttpError 400 (`currentPassword` wrong) or 429 (too many wrong ones).
   */
  setPassword(userId: string, currentPassword: string, password: string): Promise<void>;
  /** Whether a confirmed TOTP guards the user's sign-in, and their unused recovery codes. */
  secondFactorStatus(userId: string): Promise<SecondFactorStatus>;
  /**
   * The step-up before a factor is added (decision 0078): the password must match.
   * @throws HttpError 403 `step_up_required` without one, 400 on `body.password`, 429 while locked.
   */
  stepUp(userId: string, password: string | undefined): Promise<void>;
  /** Starts a TOTP enrolment. @throws HttpError 409 `totp_already_enabled` while one is confirmed. */
  startTotp(userId: string): Promise<TotpEnrolment>;
  /**
   * Confirms the started TOTP with a current code. @returns ten new recovery codes (shown once).
   * @throws HttpError 400 on `body.code`, 409 without a started enrolment.
   */
  confirmTotp(userId: string, code: string): Promise<string[]>;
  /**
   * Removes the TOTP and recovery codes once the password and a TOTP or recovery code match.
   * @throws HttpError 400 on `body.password` or `body.code`, 429 while locked, 409 when none is set up.
   */
  disableTotp(userId: string, password: string, code: string): Promise<void>;
  /** The user's passkeys, oldest first (decision 0074). */
  listPasskeys(userId: string): Promise<Passkey[]>;
  /** Options for the browser's `navigator.credentials.create`; the challenge is valid 5 minutes, once. */
  passkeyRegistrationOptions(userId: string): Promise<PasskeyRegistrationOptions>;
  /**
   * Checks the browser's answer to the registration challenge and stores the passkey.
   * @throws HttpError 400 on `body.response`, 409 `passkey_exists`.
   */
  registerPasskey(userId: string, body: PasskeyRegisterBody): Promise<Passkey>;
  /**
   * Renames one of the user's passkeys; without `name` @returns it as it is.
   * @throws HttpError 404 when the user has no such passkey.
   */
  renamePasskey(userId: string, id: string, name: string | undefined): Promise<Passkey>;
  /** Removes one of the user's passkeys. @throws HttpError 404 when the user has no such passkey. */
  removePasskey(userId: string, id: string): Promise<void>;
  /** The user's live provider sessions; `currentSid` (the token's `sid`) is marked current. */
  listSessions(userId: string, currentSid: string | undefined): Promise<Session[]>;
  /** Ends one of the user's sessions. @throws HttpError 404 when the user has no such live session. */
  endSession(userId: string, sessionId: string): Promise<void>;
  /** Ends every session of the user but `currentSid`. */
  endOtherSessions(userId: string, currentSid: string | undefined): Promise<void>;
  /**
   * An admin's reset (decision 0078): removes the user's TOTP, recovery codes and passkeys and
   * ends all their sessions, refusing the access tokens issued until now.
   */
  resetSecondFactors(userId: string): Promise<void>;
}

export interface BillingHooks {
  /**
   * Called once when a user requests account deletion (spec §4): cancels, at the end of the
   * billing period, the subscriptions of the companies the user is the only admin of
   * (by default `BillingService.cancelForAccountDeletion`, wired in services.ts).
   */
  onAccountDeletion(userId: string): Promise<void>;
}

export interface AccountPorts {
  mailer: Mailer;
  account: AccountPort;
  billing: BillingHooks;
}

/**
 * The ports this server implements: always mail, the account store only with the embedded issuer.
 * `now`: what the second factor reads as now (TOTP steps, throttle); default the machine's clock.
 */
export function identityAccountPorts(
  config: Config,
  db: Db,
  log: MailLogger,
  now: Clock = systemClock,
): Partial<AccountPorts> {
  const mailer = createMailer(config, log);
  const deps = { db, config, log, now };
  return {
    mailer: {
      send: async (to, subject, text, attachments) => {
        await mailer.send({ to, subject, text, ...(attachments ? { attachments } : {}) });
      },
    },
    ...(config.oidc.issuer
      ? {}
      : {
          account: {
            requestVerification: (userId) => sendVerificationMail(deps, userId),
            setPassword: (userId, currentPassword, password) =>
              setPassword(deps, userId, currentPassword, password),
            secondFactorStatus: (userId) => secondFactorStatus(deps, userId),
            stepUp: (userId, password) => requireStepUp(deps, userId, password),
            startTotp: (userId) => startTotpEnrolment(deps, userId),
            confirmTotp: (userId, code) => confirmTotpEnrolment(deps, userId, code),
            disableTotp: (userId, password, code) => disableTotp(deps, userId, password, code),
            listPasskeys: (userId) => listPasskeys(deps, userId),
            passkeyRegistrationOptions: (userId) => passkeyRegistrationOptions(deps, userId),
            // The contract checked the answer's shape; the library checks its content (§7.1).
            registerPasskey: (userId, body) =>
              registerPasskey(deps, userId, body.name, body.response as unknown as RegistrationResponseJSON),
            renamePasskey: (userId, id, name) => renamePasskey(deps, userId, id, name),
            removePasskey: (userId, id) => removePasskey(deps, userId, id),
            listSessions: (userId, currentSid) => listSessions(deps, userId, currentSid),
            endSession: (userId, sessionId) => endSession(deps, userId, sessionId),
            endOtherSessions: (userId, currentSid) => endOtherSessions(deps, userId, currentSid),
            resetSecondFactors: (userId) => resetSecondFactors(deps, userId),
          },
        }),
  };
}

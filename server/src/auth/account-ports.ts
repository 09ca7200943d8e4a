/**
 * The account API's ports (re-exported with their defaults by modules/me/me.ports.ts) and their
 * connection to this server's mail transport and, in embedded mode, to the local account store:
 * `POST /me/request-verification` → `sendVerificationMail`, `PUT /me/password` → `setPassword`.
 * With an external issuer the account port stays unset (the account API answers 409 itself).
 * The types live here, not in the me module, because authentication implements them and sits
 * below the modules.
 */
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { createMailer, type MailAttachment, type MailLogger } from '../mail/mailer.ts';
import { sendVerificationMail, setPassword } from './accounts.service.ts';

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

/** The ports this server implements: always mail, the account store only with the embedded issuer. */
export function identityAccountPorts(config: Config, db: Db, log: MailLogger): Partial<AccountPorts> {
  const mailer = createMailer(config, log);
  const deps = { db, config, log };
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
          },
        }),
  };
}

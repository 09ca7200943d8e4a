/**
 * Ports the account calls need from other parts of the system, handed to `createServices`
 * (services.ts) so the composition root and tests supply the implementations:
 * - `Mailer` sends plain-text mail (invite codes, invoices with their PDF, alert mails);
 * - `AccountPort` reaches the embedded identity provider's account store (verification
 *   mail, password change);
 * - `BillingHooks` lets billing react to an account deletion.
 * Missing ports fall back to the defaults below.
 */
import type { FastifyBaseLogger } from 'fastify';
import { HttpError } from '../../http/errors.ts';
import type { MailAttachment } from '../../mail/mailer.ts';

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

const unavailable = () =>
  new HttpError(503, 'Service Unavailable', 'Account management is not available on this server.');

/**
 * Fills unset ports: mail is only logged (no transport configured), account-store calls
 * answer 503, billing does nothing (services.ts supplies the billing service's own hook).
 */
export function resolveAccountPorts(
  ports: Partial<AccountPorts> | undefined,
  log: FastifyBaseLogger,
): AccountPorts {
  return {
    mailer: ports?.mailer ?? {
      send: async (to, subject) => {
        log.warn({ to, subject }, 'no mail transport configured; mail not sent');
      },
    },
    account: ports?.account ?? {
      requestVerification: async () => {
        throw unavailable();
      },
      setPassword: async () => {
        throw unavailable();
      },
    },
    billing: ports?.billing ?? { onAccountDeletion: async () => {} },
  };
}

/**
 * Ports the account calls need from other parts of the system, handed to `createServices`
 * (services.ts) so the composition root and tests supply the implementations:
 * - `Mailer` sends plain-text mail (invite codes, invoices with their PDF, alert mails);
 * - `AccountPort` reaches the embedded identity provider's account store (verification
 *   mail, password change, second factor, passkeys);
 * - `BillingHooks` lets billing react to an account deletion.
 * Missing ports fall back to the defaults below. The port types are declared in
 * auth/account-ports.ts, which implements two of them: authentication sits below the modules and
 * must not import from them.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { AccountPorts } from '../../auth/account-ports.ts';
import { HttpError } from '../../http/errors.ts';

export type { AccountPort, AccountPorts, BillingHooks, Mailer } from '../../auth/account-ports.ts';

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
      secondFactorStatus: async () => {
        throw unavailable();
      },
      stepUp: async () => {
        throw unavailable();
      },
      startTotp: async () => {
        throw unavailable();
      },
      confirmTotp: async () => {
        throw unavailable();
      },
      disableTotp: async () => {
        throw unavailable();
      },
      listPasskeys: async () => {
        throw unavailable();
      },
      passkeyRegistrationOptions: async () => {
        throw unavailable();
      },
      registerPasskey: async () => {
        throw unavailable();
      },
      renamePasskey: async () => {
        throw unavailable();
      },
      removePasskey: async () => {
        throw unavailable();
      },
      listSessions: async () => {
        throw unavailable();
      },
      endSession: async () => {
        throw unavailable();
      },
      endOtherSessions: async () => {
        throw unavailable();
      },
      resetSecondFactors: async () => {
        throw unavailable();
      },
    },
    billing: ports?.billing ?? { onAccountDeletion: async () => {} },
  };
}

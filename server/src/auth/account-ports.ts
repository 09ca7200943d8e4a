/**
 * Connects the account API's ports (modules/me/me.ports.ts) to this server's mail transport
 * and, in embedded mode, to the local account store: `POST /me/request-verification` →
 * `sendVerificationMail`, `PUT /me/password` → `setPassword`. With an external issuer the
 * account port stays unset (the account API answers 409 itself).
 */
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { createMailer, type MailLogger } from '../mail/mailer.ts';
import type { AccountPorts } from '../modules/me/me.ports.ts';
import { sendVerificationMail, setPassword } from './accounts.service.ts';

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

/**
 * Outgoing mail (docs/architecture.md "mail"): SMTP through nodemailer when SMTP_URL is set,
 * otherwise each message is written as an RFC 5322 `.eml` file to `$DATA_DIR/outbox/` and its
 * path is logged, so a fresh install can read its verification links without a mail server.
 * Every mail counts in `heizplan_mails_total` by transport and result (metrics.ts).
 */
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Config } from '../config.ts';
import { mails } from '../metrics.ts';

/** A file sent with a mail, e.g. an invoice PDF. */
export interface MailAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
}

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  attachments?: MailAttachment[];
}

export interface MailLogger {
  info(obj: object, msg: string): void;
}

export interface Mailer {
  /** Sends or stores the message; resolves to the outbox file path in outbox mode. */
  send(message: MailMessage): Promise<{ outboxPath?: string }>;
}

/** Sender address; a no-reply at the public host unless MAIL_FROM is configured. */
export function senderAddress(config: Config): string {
  return config.mailFrom ?? `Heizplan <no-reply@${new URL(config.publicUrl).hostname}>`;
}

export function outboxDir(config: Config): string {
  return path.join(config.dataDir, 'outbox');
}

export function createMailer(config: Config, log?: MailLogger): Mailer {
  const mailer = config.smtpUrl ? smtpMailer(config, config.smtpUrl, log) : outboxMailer(config, log);
  const transport = config.smtpUrl ? 'smtp' : 'outbox';
  return {
    async send(message) {
      try {
        const result = await mailer.send(message);
        mails.inc({ transport, result: 'sent' });
        return result;
      } catch (err) {
        mails.inc({ transport, result: 'failed' });
        throw err;
      }
    },
  };
}

function smtpMailer(config: Config, smtpUrl: string, log?: MailLogger): Mailer {
  const from = senderAddress(config);
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send(message) {
      await transport.sendMail({ from, ...message });
      log?.info({ to: message.to, subject: message.subject }, 'mail sent via SMTP');
      return {};
    },
  };
}

function outboxMailer(config: Config, log?: MailLogger): Mailer {
  const from = senderAddress(config);
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(message) {
      const info = await transport.sendMail({ from, ...message });
      const dir = outboxDir(config);
      await mkdir(dir, { recursive: true });
      // Sortable by time, unique within the same millisecond.
      const name = `${new Date().toISOString().replaceAll(':', '-')}-${randomBytes(4).toString('hex')}.eml`;
      const outboxPath = path.join(dir, name);
      await writeFile(outboxPath, info.message as Buffer);
      log?.info({ to: message.to, subject: message.subject, path: outboxPath }, 'mail written to outbox');
      return { outboxPath };
    },
  };
}

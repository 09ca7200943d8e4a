/**
 * Alert mails: each member chooses per kind `immediate`, `digest` or `off` (default by
 * role: admins and heating immediate, ems a digest). Immediate mails gather what opened since the
 * member's last one into one mail per run, and repeat open alerts nobody acknowledged after the
 * company's repeat hours; a digest goes out at most once per 24 hours with what opened and
 * resolved since the last. Muted alerts are left out. One run at a time across instances (an
 * advisory lock); mails go through the existing mailer (the outbox by default), in the member's
 * language (German unless they chose English).
 */
import type { AlertKind } from '@heizplan/contracts/alerts';
import { faultText } from '@heizplan/contracts/device-faults';
import type { Db } from '../../db/client.ts';
import type { Mailer } from '../me/me.ports.ts';
import {
  dueAlertMails,
  type MailRow,
  recordAlertMail,
  recordAlertMailed,
  tryAlertMailLock,
} from './alerts.repository.ts';

export type { MailRow };

const DIGEST_MS = 24 * 3_600_000;

/** Mail texts (server-side, like the invite mail) in the two languages of the product. */
const TEXT = {
  de: {
    kinds: {
      device_offline: 'Gerät meldet sich nicht',
      gateway_offline: 'Gateway meldet sich nicht',
      low_battery: 'Batterie schwach',
      device_fault: 'Gerätefehler',
      open_window: 'Fenster offen',
      frost: 'Frostgefahr im Raum',
      not_warming: 'Raum wird nicht warm',
      far_from_setpoint: 'Raum weit von der Solltemperatur',
      setpoint_not_delivered: 'Solltemperatur nicht angekommen',
      setpoints_stalled: 'Solltemperaturen werden nicht übertragen',
      booking_feed_stale: 'Buchungskalender nicht aktuell',
      efficiency_target_missed: 'Effizienz-Zielwert verfehlt',
      generator_write_failed: 'Wärmeerzeuger nimmt die Vorgabe nicht an',
    },
    digestSubject: (company: string) => `Heizplan: Tagesübersicht der Meldungen – ${company}`,
    subject: (count: number, company: string) =>
      `Heizplan: ${count} ${count === 1 ? 'Meldung' : 'Meldungen'} – ${company}`,
    digestIntro: 'Meldungen der letzten 24 Stunden:',
    intro: 'Neue oder weiterhin offene Meldungen:',
    resolved: 'behoben',
    repeat: 'weiterhin offen',
  },
  en: {
    kinds: {
      device_offline: 'Device offline',
      gateway_offline: 'Gateway offline',
      low_battery: 'Low battery',
      device_fault: 'Device fault',
      open_window: 'Open window',
      frost: 'Risk of frost in the room',
      not_warming: 'Room not warming',
      far_from_setpoint: 'Room far from setpoint',
      setpoint_not_delivered: 'Setpoint not delivered',
      setpoints_stalled: 'Setpoints are not being sent',
      booking_feed_stale: 'Booking calendar out of date',
      efficiency_target_missed: 'Efficiency target missed',
      generator_write_failed: 'Heat generator does not take the command',
    },
    digestSubject: (company: string) => `Heizplan: daily alert digest – ${company}`,
    subject: (count: number, company: string) =>
      `Heizplan: ${count} ${count === 1 ? 'alert' : 'alerts'} – ${company}`,
    digestIntro: 'Alerts of the last 24 hours:',
    intro: 'New or still open alerts:',
    resolved: 'resolved',
    repeat: 'still open',
  },
} satisfies Record<'de' | 'en', { kinds: Record<AlertKind, string> } & Record<string, unknown>>;

/** One line of a mail for an alert; a device fault is named in words, never by its raw code. */
export function alertMailLine(row: MailRow, lang: 'de' | 'en'): string {
  const text = TEXT[lang];
  const where = [row.subject_name, row.unit_name].filter(Boolean).join(', ');
  const state =
    row.event === 'resolved' ? ` – ${text.resolved}` : row.event === 'repeat' ? ` – ${text.repeat}` : '';
  const head = `- ${text.kinds[row.kind]}: ${where}${state}`;
  if (!row.code) return head;
  const fault = faultText(row.code, lang);
  return `${head}\n  ${fault.text} ${fault.action}`;
}

/**
 * Sends the alert mails due at `now`. @returns how many mails went out (0 when another instance
 * is sending right now).
 */
export async function sendAlertMails(
  db: Db,
  mailer: Mailer,
  publicUrl: string,
  now = new Date(),
): Promise<number> {
  const digestDue = new Date(now.getTime() - DIGEST_MS);
  return db.transaction(async (tx) => {
    if (!(await tryAlertMailLock(tx))) return 0;
    const rows = await dueAlertMails(tx, now, digestDue);
    const mails = new Map<string, typeof rows>();
    for (const row of rows) {
      const key = `${row.company_id}|${row.user_id}|${row.channel}`;
      mails.set(key, [...(mails.get(key) ?? []), row]);
    }
    let sent = 0;
    for (const group of mails.values()) {
      const first = group[0];
      if (!first) continue;
      const digest = first.channel === 'digest';
      const lang = first.lang === 'en' ? 'en' : 'de';
      const words = TEXT[lang];
      const subject = digest
        ? words.digestSubject(first.company_name)
        : words.subject(group.length, first.company_name);
      const text = [
        digest ? words.digestIntro : words.intro,
        ...group.map((row) => alertMailLine(row, lang)),
        '',
        `${publicUrl}/alerts`,
      ].join('\n');
      await mailer.send(first.email, subject, text);
      sent++;
      await recordAlertMail(tx, first, now);
      if (!digest) {
        for (const row of group) await recordAlertMailed(tx, row, now);
      }
    }
    return sent;
  });
}

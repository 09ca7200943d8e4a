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
import { type SQL, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import type { Mailer } from '../me/me.ports.ts';

const MAIL_LOCK = 715_002;
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

export interface MailRow {
  company_id: string;
  company_name: string;
  user_id: string;
  email: string;
  lang: 'de' | 'en' | null;
  alert_id: string;
  kind: AlertKind;
  subject_name: string;
  unit_name: string | null;
  code: string;
  event: 'opened' | 'resolved' | 'repeat';
}

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

/** Mode of `kind` for a member: their choice, else the default of their role. */
const mode = (kind: SQL) => sql`coalesce(
  (select p.mode from alert_preferences p where p.company_id = m.company_id and p.user_id = m.user_id and p.kind = ${kind}),
  case when m.role = 'ems' then 'digest' else 'immediate' end)`;

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
  const at = sql`${now.toISOString()}::timestamptz`;
  const digestDue = sql`${new Date(now.getTime() - DIGEST_MS).toISOString()}::timestamptz`;
  return db.transaction(async (tx) => {
    const [lock] = rowsOf<{ ok: boolean }>(
      await tx.execute(sql`select pg_try_advisory_xact_lock(${MAIL_LOCK}) as ok`),
    );
    if (!lock?.ok) return 0;
    const members = sql`
      select m.company_id, m.user_id, m.role, u.email, u.lang, c.name as company_name
      from memberships m join users u on u.id = m.user_id and u.active and u.email <> ''
      join companies c on c.id = m.company_id`;
    const subjectName = sql`case a.subject when 'unit' then coalesce(un.name, a.subject_id)
      when 'gateway' then coalesce((select g.name from gateways g where g.id::text = a.subject_id), a.subject_id)
      when 'booking_feed' then coalesce((select f.name from booking_feeds f where f.id::text = a.subject_id), a.subject_id)
      when 'building' then coalesce((select b.name from buildings b where b.id::text = a.subject_id), a.subject_id)
      else a.subject_id end`;
    const since = (
      channel: string,
      fallback: SQL,
    ) => sql`coalesce((select l.mailed_until from alert_mail_log l
      where l.company_id = m.company_id and l.user_id = m.user_id and l.channel = ${channel}), ${fallback})`;
    const rows = rowsOf<MailRow & { channel: 'immediate' | 'digest' }>(
      await tx.execute(sql`
        with m as (${members})
        select distinct on (m.user_id, m.company_id, a.id, channel) m.company_id, m.company_name, m.user_id, m.email, m.lang,
          a.id as alert_id, a.kind, a.code, ${subjectName} as subject_name, un.name as unit_name, x.event, x.channel
        from m
        join alerts a on a.company_id = m.company_id and (a.muted_until is null or a.muted_until <= ${at})
        left join units un on un.id = a.unit_id
        cross join lateral (
          select 'immediate' as channel, 'opened' as event
          where ${mode(sql`a.kind`)} = 'immediate' and a.state = 'open' and exists (
            select 1 from alert_events e where e.alert_id = a.id and e.type in ('opened', 'repeated')
              and e.at > ${since('immediate', sql`${at} - interval '10 minutes'`)} and e.at <= ${at})
          union all
          select 'immediate', 'repeat'
          where ${mode(sql`a.kind`)} = 'immediate' and a.state = 'open' and a.acknowledged_at is null
            and exists (select 1 from alert_mailed d where d.alert_id = a.id and d.user_id = m.user_id
              and d.at <= ${at} - make_interval(hours => coalesce(
                (select (s.settings->>'repeatHours')::int from alert_settings s where s.company_id = a.company_id), 24)))
          union all
          select 'digest', e.type
          from alert_events e
          where ${mode(sql`a.kind`)} = 'digest' and e.alert_id = a.id and e.type in ('opened', 'resolved')
            and e.at > ${since('digest', digestDue)} and e.at <= ${at}
            and coalesce((select l.last_sent_at from alert_mail_log l where l.company_id = m.company_id
              and l.user_id = m.user_id and l.channel = 'digest'), ${digestDue}) <= ${digestDue}
        ) x
        order by m.user_id, m.company_id, a.id, channel, x.event desc`),
    );
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
      await tx.execute(sql`
        insert into alert_mail_log (company_id, user_id, channel, mailed_until, last_sent_at)
        values (${first.company_id}, ${first.user_id}, ${first.channel}, ${at}, ${at})
        on conflict (company_id, user_id, channel) do update set mailed_until = ${at}, last_sent_at = ${at}`);
      if (!digest) {
        for (const row of group) {
          await tx.execute(sql`
            insert into alert_mailed (alert_id, user_id, at) values (${row.alert_id}, ${row.user_id}, ${at})
            on conflict (alert_id, user_id) do update set at = ${at}`);
        }
      }
    }
    return sent;
  });
}

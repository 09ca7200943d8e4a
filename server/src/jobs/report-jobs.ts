/**
 * The jobs behind the reports (decision 0061), safe on every instance:
 * - rollups every 5 minutes (`runRollups`: one company at a time under a skip-locked row);
 * - telemetry partitions ahead and raw data past TELEMETRY_RETENTION_MONTHS dropped, every 6 hours
 *   (both idempotent);
 * - from the 1st, each building with target values checked against last month's report, then
 *   the monthly PDF report mailed to members who subscribed: each building's and member's row is
 *   claimed by moving its month forward first, so no two instances do it twice.
 */
import type { Report } from '@heizplan/contracts/reports';
import { DateTime } from 'luxon';
import type { Clock } from '../clock.ts';
import type { Db } from '../db/client.ts';
import type { Logger } from '../logger.ts';
import type { Mailer } from '../modules/me/me.ports.ts';
import { buildReport } from '../modules/reports/report-build.ts';
import { formatters, renderReportPdf } from '../modules/reports/report-pdf.ts';
import { monthPeriod } from '../modules/reports/report-period.ts';
import {
  claimEfficiencyCheck,
  claimMonthlyMail,
  scopeName,
  storeMissedTargets,
} from '../modules/reports/reports.repository.ts';
import { runRollups } from '../modules/reports/rollups.repository.ts';
import {
  ensureTelemetryPartitions,
  purgeTelemetry,
} from '../modules/reports/telemetry-partitions.repository.ts';
import type { JobDefinition } from './registry.ts';

const ROLLUP_MS = 5 * 60_000;
const PARTITION_MS = 6 * 3_600_000;
const MAIL_MS = 3_600_000;

/**
 * Checks last month's report of every building with target values against them, once per month
 * and building (the row is claimed by moving `checked_month` forward), and records the targets
 * it missed: the alert evaluation opens `efficiency_target_missed` from them (GEG §71a points
 * 3–5: target values, efficiency losses detected, the person responsible informed).
 * @returns how many buildings were checked.
 */
export async function checkEfficiencyTargets(db: Db, now: Date = new Date()): Promise<number> {
  let checked = 0;
  for (;;) {
    const claim = await claimEfficiencyCheck(db, now);
    if (!claim) return checked;
    const report = await buildReport(
      db,
      { companyId: claim.company_id, timeZone: claim.time_zone },
      { kind: 'building', id: claim.building_id },
      claim.name,
      monthPeriod(claim.month),
    );
    await storeMissedTargets(db, claim.building_id, report.targets.missed);
    checked += 1;
  }
}

/**
 * Mails last month's company report as PDF to every subscribed member not yet sent it.
 * @returns how many mails went out.
 */
export async function mailMonthlyReports(db: Db, mailer: Mailer, now: Date = new Date()): Promise<number> {
  let sent = 0;
  // A company's members get the same report: built once a run, rendered once per language.
  const reports = new Map<string, Promise<{ name: string; report: Report }>>();
  const pdfs = new Map<string, Promise<Buffer>>();
  const reportOf = (companyId: string, timeZone: string, month: string) => {
    const key = `${companyId}|${month}`;
    let built = reports.get(key);
    if (!built) {
      built = (async () => {
        const scope = { kind: 'company' } as const;
        const name = (await scopeName(db, companyId, scope)) ?? '';
        return {
          name,
          report: await buildReport(db, { companyId, timeZone }, scope, name, monthPeriod(month)),
        };
      })();
      reports.set(key, built);
    }
    return built;
  };
  for (;;) {
    // Claim one member whose company's last month (in its zone) has not been mailed yet.
    const claim = await claimMonthlyMail(db, now);
    if (!claim) return sent;
    const lang = claim.lang ?? 'de';
    const { name, report } = await reportOf(claim.company_id, claim.time_zone, claim.month);
    const pdfKey = `${claim.company_id}|${claim.month}|${lang}`;
    let pdf = pdfs.get(pdfKey);
    if (!pdf) {
      pdf = renderReportPdf(report, lang);
      pdfs.set(pdfKey, pdf);
    }
    const label = formatters(lang).month(claim.month);
    await mailer.send(
      claim.email,
      lang === 'de'
        ? `Heizplan: Monatsbericht ${label} – ${name}`
        : `Heizplan: monthly report ${label} – ${name}`,
      lang === 'de'
        ? `Guten Tag,\n\nim Anhang finden Sie den Energie- und Komfortbericht für ${label} (${name}).\nSie erhalten ihn, weil Sie ihn unter „Berichte“ abonniert haben; dort können Sie ihn auch abbestellen.\n`
        : `Hello,\n\nattached is the energy and comfort report for ${label} (${name}).\nYou receive it because you subscribed under "Reports"; you can unsubscribe there.\n`,
      [
        {
          filename: `heizplan-report-${claim.month}.pdf`,
          content: await pdf,
          contentType: 'application/pdf',
        },
      ],
    );
    sent += 1;
  }
}

/** The report jobs, for the registry (jobs/registry.ts). */
export function reportJobs({
  db,
  log,
  mailer,
  retentionMonths,
  now,
}: {
  db: Db;
  log: Pick<Logger, 'info' | 'error'>;
  mailer: Mailer;
  retentionMonths: number;
  now: Clock;
}): JobDefinition[] {
  return [
    {
      name: 'telemetry rollups',
      periodMs: ROLLUP_MS,
      lock: 'skip locked rows',
      claims: 'one company at a time whose quarter-hour rollups are behind',
      run: async () => {
        const steps = await runRollups(db);
        if (steps > 1) log.info({ steps }, 'telemetry rolled up');
      },
    },
    {
      name: 'telemetry partitions and retention',
      periodMs: PARTITION_MS,
      lock: 'idempotent',
      claims: 'the telemetry partitions ahead, and those past the retention',
      run: async () => {
        const at = now();
        const created = await ensureTelemetryPartitions(db, at);
        const { dropped } = await purgeTelemetry(db, at, retentionMonths);
        if (created.length > 0 || dropped.length > 0)
          log.info({ created, dropped }, 'telemetry partitions changed');
      },
    },
    {
      name: 'monthly targets and report mail',
      periodMs: MAIL_MS,
      lock: 'skip locked rows',
      claims: 'buildings and subscribed members whose last month is not yet checked or mailed',
      run: async () => {
        const at = now();
        const checked = await checkEfficiencyTargets(db, at);
        if (checked > 0) log.info({ checked }, 'buildings checked against their efficiency targets');
        const sent = await mailMonthlyReports(db, mailer, at);
        if (sent > 0)
          log.info(
            { sent, month: DateTime.fromJSDate(at).minus({ months: 1 }).toFormat('yyyy-MM') },
            'monthly reports mailed',
          );
      },
    },
  ];
}

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
import { startPeriodic } from './periodic.ts';

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

/** Starts the report jobs; @returns the function that stops them. */
export function startReportJobs({
  db,
  log,
  mailer,
  retentionMonths,
}: {
  db: Db;
  log: Pick<Logger, 'info' | 'error'>;
  mailer: Mailer;
  retentionMonths: number;
}): () => void {
  const stops = [
    startPeriodic(
      'telemetry rollups',
      ROLLUP_MS,
      async () => {
        const steps = await runRollups(db);
        if (steps > 1) log.info({ steps }, 'telemetry rolled up');
      },
      log,
    ),
    startPeriodic(
      'telemetry partitions and retention',
      PARTITION_MS,
      async () => {
        const now = new Date();
        const created = await ensureTelemetryPartitions(db, now);
        const { dropped } = await purgeTelemetry(db, now, retentionMonths);
        if (created.length > 0 || dropped.length > 0)
          log.info({ created, dropped }, 'telemetry partitions changed');
      },
      log,
    ),
    startPeriodic(
      'monthly targets and report mail',
      MAIL_MS,
      async () => {
        const checked = await checkEfficiencyTargets(db);
        if (checked > 0) log.info({ checked }, 'buildings checked against their efficiency targets');
        const sent = await mailMonthlyReports(db, mailer);
        if (sent > 0)
          log.info(
            { sent, month: DateTime.now().minus({ months: 1 }).toFormat('yyyy-MM') },
            'monthly reports mailed',
          );
      },
      log,
    ),
  ];
  return () => {
    for (const stop of stops) stop();
  };
}

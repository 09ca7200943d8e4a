/**
 * The alert centre's periodic work: the time-based evaluation and the alert mails (every
 * ALERT_EVALUATION_SECONDS, default 60) and webhook deliveries (every 5 s). Each is safe on
 * several instances: the evaluation and the mails take an advisory lock and skip while another
 * instance holds it, deliveries are claimed with `skip locked`.
 */
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { Logger } from '../logger.ts';
import { alertEvaluationDuration } from '../metrics.ts';
import { evaluateAll } from '../modules/alerts/alert-evaluation.repository.ts';
import { sendAlertMails } from '../modules/alerts/alert-mail.ts';
import { webhookFetch } from '../modules/alerts/webhook-address.ts';
import { deliverDueWebhooks } from '../modules/alerts/webhook-delivery.ts';
import type { Mailer } from '../modules/me/me.ports.ts';
import { startPeriodic } from './periodic.ts';

const WEBHOOK_MS = 5_000;

export interface AlertJobsDeps {
  db: Db;
  log: Pick<Logger, 'info' | 'error'>;
  alerts: Config['alerts'];
  /** Base of the links in alert mails. */
  publicUrl: string;
  mailer: Mailer;
}

/** Starts the three jobs; @returns the function that stops them. */
export function startAlertJobs({ db, log, alerts, publicUrl, mailer }: AlertJobsDeps): () => void {
  const httpClient = webhookFetch(alerts.webhooksAllowPrivate);
  const stops = [
    startPeriodic(
      'alert evaluation',
      alerts.evaluationSeconds * 1000,
      async () => {
        const done = alertEvaluationDuration.startTimer();
        const result = await evaluateAll(db);
        if (result) done();
        if (result && result.opened + result.resolved > 0) log.info(result, 'alerts evaluated');
      },
      log,
    ),
    startPeriodic('webhook delivery', WEBHOOK_MS, () => deliverDueWebhooks(db, new Date(), httpClient), log),
    startPeriodic(
      'alert mail',
      alerts.evaluationSeconds * 1000,
      () => sendAlertMails(db, mailer, publicUrl),
      log,
    ),
  ];
  return () => {
    for (const stop of stops) stop();
  };
}

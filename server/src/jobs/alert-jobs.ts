/**
 * The alert centre's periodic work: the time-based evaluation and the alert mails (every
 * ALERT_EVALUATION_SECONDS, default 60) and webhook deliveries (every 5 s). Each is safe on
 * several instances: the evaluation and the mails take an advisory lock and skip while another
 * instance holds it, deliveries are claimed with `skip locked`.
 */
import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { Logger } from '../logger.ts';
import { alertEvaluationDuration } from '../metrics.ts';
import { evaluateAll } from '../modules/alerts/alert-evaluation.repository.ts';
import { sendAlertMails } from '../modules/alerts/alert-mail.ts';
import { webhookFetch } from '../modules/alerts/webhook-address.ts';
import { deliverDueWebhooks } from '../modules/alerts/webhook-delivery.ts';
import type { Mailer } from '../modules/me/me.ports.ts';
import type { JobDefinition } from './registry.ts';

const WEBHOOK_MS = 5_000;

export interface AlertJobsDeps {
  db: Db;
  log: Pick<Logger, 'info' | 'error'>;
  alerts: Config['alerts'];
  /** Base of the links in alert mails. */
  publicUrl: string;
  mailer: Mailer;
  now: Clock;
}

/** The three jobs, for the registry (jobs/registry.ts). */
export function alertJobs({ db, log, alerts, publicUrl, mailer, now }: AlertJobsDeps): JobDefinition[] {
  const httpClient = webhookFetch(alerts.webhooksAllowPrivate);
  return [
    {
      name: 'alert evaluation',
      periodMs: alerts.evaluationSeconds * 1000,
      lock: 'advisory lock',
      claims: 'every company’s time-based alert conditions (offline devices, low batteries, …)',
      run: async () => {
        const done = alertEvaluationDuration.startTimer();
        const result = await evaluateAll(db, now());
        if (result) done();
        if (result && result.opened + result.resolved > 0) log.info(result, 'alerts evaluated');
      },
    },
    {
      name: 'webhook delivery',
      periodMs: WEBHOOK_MS,
      lock: 'skip locked rows',
      claims: 'alert webhook deliveries whose next attempt is due',
      run: () => deliverDueWebhooks(db, now(), httpClient),
    },
    {
      name: 'alert mail',
      periodMs: alerts.evaluationSeconds * 1000,
      lock: 'advisory lock',
      claims: 'opened and resolved alerts not yet mailed to their subscribers',
      run: () => sendAlertMails(db, mailer, publicUrl, now()),
    },
  ];
}

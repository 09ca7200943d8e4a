/**
 * The alert centre's periodic work (issue 15): the time-based evaluation and the alert mails
 * (every ALERT_EVALUATION_SECONDS, default 60) and webhook deliveries (every 5 s). Each is safe on several instances: the evaluation and the mails take an advisory lock
 * and skip while another instance holds it, deliveries are claimed with `skip locked`.
 */
import type { FastifyInstance } from 'fastify';
import { alertEvaluationDuration } from '../metrics.ts';
import { evaluateAll } from '../modules/alerts/alert-evaluation.ts';
import { sendAlertMails } from '../modules/alerts/alert-mail.ts';
import { webhookFetch } from '../modules/alerts/webhook-address.ts';
import { deliverDueWebhooks } from '../modules/alerts/webhook-delivery.ts';
import { resolveAccountPorts } from '../modules/me/me.ports.ts';
import { startPeriodic } from './periodic.ts';

const WEBHOOK_MS = 5_000;

/** Starts the three jobs; @returns the function that stops them. */
export function startAlertJobs(app: FastifyInstance): () => void {
  const { database, config } = app.deps;
  const httpClient = webhookFetch(config.alerts.webhooksAllowPrivate);
  const stops = [
    startPeriodic(
      'alert evaluation',
      config.alerts.evaluationSeconds * 1000,
      async () => {
        const done = alertEvaluationDuration.startTimer();
        const result = await evaluateAll(database.db);
        if (result) done();
        if (result && result.opened + result.resolved > 0) app.log.info(result, 'alerts evaluated');
      },
      app.log,
    ),
    startPeriodic(
      'webhook delivery',
      WEBHOOK_MS,
      () => deliverDueWebhooks(database.db, new Date(), httpClient),
      app.log,
    ),
    startPeriodic(
      'alert mail',
      config.alerts.evaluationSeconds * 1000,
      () =>
        sendAlertMails(
          database.db,
          resolveAccountPorts(app.deps.accountPorts, app.log).mailer,
          config.publicUrl,
        ),
      app.log,
    ),
  ];
  return () => {
    for (const stop of stops) stop();
  };
}

/**
 * Prometheus metrics of this process (docs/architecture.md "observability"), on one prom-client
 * registry served at `/metrics` (http/metrics.routes.ts). Each instance reports its own; a
 * scrape of every instance adds them up. Counters and histograms are updated where the work
 * happens; gauges that describe the shared database (unpublished downlinks, scheduler lag) are
 * read when scraped.
 *
 * Names follow Prometheus conventions: seconds, `_total` for counters, `heizplan_` for the
 * application's own.
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

export const registry = new Registry();
// CPU, memory, event-loop lag, handles, GC (`process_*`, `nodejs_*`).
collectDefaultMetrics({ register: registry });

const registers = [registry];

/** Labels: method, route pattern (`unmatched` for 404s), status code. */
export const httpRequestDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'HTTP requests by method, route pattern and status code',
  labelNames: ['method', 'route', 'status_code'] as const,
  buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers,
});

/**
 * MQTT messages the ingest took, by result: `stored` (a new telemetry row), `duplicate` (a
 * redelivery the key absorbed), rejected as `malformed`, `unknown_device` or `undecodable`,
 * `status`/`downlink`/`gateway` events, `ignored` (topics without use).
 */
export const uplinkMessages = new Counter({
  name: 'heizplan_ingest_messages_total',
  help: 'MQTT messages taken by the uplink ingest, by result',
  labelNames: ['result'] as const,
  registers,
});

export const ingestCommitDuration = new Histogram({
  name: 'heizplan_ingest_commit_seconds',
  help: 'Time to commit one ingest batch to the database',
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers,
});

export const ingestCommitFailures = new Counter({
  name: 'heizplan_ingest_commit_failures_total',
  help: 'Ingest batches whose commit failed (retried; nothing acknowledged)',
  registers,
});

export const ingestBacklog = new Gauge({
  name: 'heizplan_ingest_backlog',
  help: 'MQTT messages taken but not yet committed and acknowledged',
  registers,
});

/** Downlinks this process recorded, published, failed to publish (retried), or found lost (sent again). */
export const downlinkEvents = new Counter({
  name: 'heizplan_downlinks_total',
  help: 'Setpoint downlinks by event: recorded, published, publish_failed, lost (no report while the device kept reporting)',
  labelNames: ['event'] as const,
  registers,
});

/** Delivery reports from the network server: sent (gateway txack), acknowledged, failed. */
export const downlinkReports = new Counter({
  name: 'heizplan_downlink_reports_total',
  help: 'Downlink delivery reports from the network server, by state',
  labelNames: ['state'] as const,
  registers,
});

export const downlinkBacklog = new Gauge({
  name: 'heizplan_downlink_backlog',
  help: 'Setpoint commands this instance took and has not yet recorded as downlinks',
  registers,
});

export const downlinkDeadLetters = new Counter({
  name: 'heizplan_downlinks_dead_lettered_total',
  help: 'Setpoint commands set aside after repeated refusals, by stage (record, publish)',
  labelNames: ['stage'] as const,
  registers,
});

export const downlinkOldestUnsent = new Gauge({
  name: 'heizplan_downlink_oldest_unsent_seconds',
  help: "Age of the oldest setpoint not yet handed to the broker (this instance's memory and all recorded ones); 0 when none waits",
  registers,
});

export const downlinksUnpublished = new Gauge({
  name: 'heizplan_downlinks_unpublished',
  help: 'Recorded downlinks not yet handed to the broker (all instances)',
  registers,
});

export const schedulerTickDuration = new Histogram({
  name: 'heizplan_scheduler_tick_seconds',
  help: 'Duration of one heating scheduler tick (due units and outbox)',
  buckets: [0.005, 0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30],
  registers,
});

export const schedulerUnits = new Counter({
  name: 'heizplan_scheduler_units_total',
  help: 'Units the scheduler evaluated, and of those the ones whose setpoint changed',
  labelNames: ['result'] as const,
  registers,
});

export const schedulerLag = new Gauge({
  name: 'heizplan_scheduler_lag_seconds',
  help: 'How long the most overdue unit has been due (0 when none is)',
  registers,
});

/** Runs of each background job of the registry (jobs/registry.ts), by outcome `ok` or `failed`. */
export const jobRuns = new Counter({
  name: 'heizplan_job_runs_total',
  help: 'Runs of each background job, by outcome',
  labelNames: ['job', 'outcome'] as const,
  registers,
});

export const jobDuration = new Histogram({
  name: 'heizplan_job_duration_seconds',
  help: 'Duration of one run of each background job',
  labelNames: ['job'] as const,
  buckets: [0.005, 0.05, 0.25, 1, 5, 30, 120],
  registers,
});

/** Unix time (s) of each job's last successful run in this process; absent before the first. */
export const jobLastSuccess = new Gauge({
  name: 'heizplan_job_last_success_timestamp_seconds',
  help: 'When each background job last ran without error in this instance (unix seconds)',
  labelNames: ['job'] as const,
  registers,
});

export const mails = new Counter({
  name: 'heizplan_mails_total',
  help: 'Outgoing mails by transport (smtp, outbox) and result (sent, failed)',
  labelNames: ['transport', 'result'] as const,
  registers,
});

export const alertEvaluationDuration = new Histogram({
  name: 'heizplan_alert_evaluation_seconds',
  help: 'Duration of a periodic alert evaluation over every company',
  buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10],
  registers,
});

export const alertsOpen = new Gauge({
  name: 'heizplan_alerts_open',
  help: 'Open alerts by kind, in every company',
  labelNames: ['kind'] as const,
  registers,
});

export const webhookDeliveries = new Counter({
  name: 'heizplan_webhook_deliveries_total',
  help: 'Webhook delivery attempts by result (delivered, retry, failed = given up)',
  labelNames: ['result'] as const,
  registers,
});

export const webhookDeliveriesPending = new Gauge({
  name: 'heizplan_webhook_deliveries_pending',
  help: 'Webhook deliveries waiting for their next attempt',
  registers,
});

export const databaseUp = new Gauge({
  name: 'heizplan_database_up',
  help: '1 when the database answered the scrape, 0 otherwise',
  registers,
});

export const brokerUp = new Gauge({
  name: 'heizplan_mqtt_broker_up',
  help: "1 when this instance's connection to the MQTT broker is up",
  registers,
});

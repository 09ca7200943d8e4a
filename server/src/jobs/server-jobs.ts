/**
 * Every background job of a server instance, declared in one list for the registry
 * (jobs/registry.ts): `main.ts` adds these, the LoRaWAN side's (`Lorawan.jobs`) and the heating
 * scheduler's (`HeatingScheduler.job()`), then starts them with one call after the server listens
 * (after, since the demo's booking feed and weather are served by this server itself).
 *
 * | job | every | on several instances |
 * |---|---|---|
 * | heating scheduler | 15 s and on every change | due units and outbox rows claimed `skip locked` |
 * | downlink resend / reconcile / health | 30 s / 5 min / 10 s | rows claimed; health is per instance |
 * | alert evaluation, alert mail | ALERT_EVALUATION_SECONDS | advisory lock: one instance a round |
 * | webhook delivery | 5 s | deliveries claimed `skip locked` |
 * | telemetry rollups; partitions and retention; monthly targets and report mail | 5 min; 6 h; 1 h | companies, buildings and members claimed; partitions idempotent |
 * | booking feed sync, outdoor temperature sync | 30 s, 5 min | feeds and buildings claimed |
 * | warm-up learning | 15 min | units claimed by their learned-at time |
 * | heating circuit steps (and writes in mode on); their readings' and writes' retention | 1 min (each circuit every 5 min); 6 h | circuits claimed `skip locked` by their next step; idempotent deletes |
 * | subscription renewal, account purge | 10 min, 1 h | subscriptions and accounts claimed |
 * | audit log purge, sign-in state purge | 6 h, 1 h | idempotent deletes |
 */

import { purgeExpiredIdentityState } from '../auth/oidc-adapter.repository.ts';
import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { learnWarmUpModels } from '../heating/warm-up-learning.ts';
import type { Logger } from '../logger.ts';
import { purgeAuditLog } from '../modules/audit/audit.repository.ts';
import type { BillingService } from '../modules/billing/billing.service.ts';
import type { BookingFeedsService } from '../modules/booking-feeds/booking-feeds.service.ts';
import type { HeatingCircuitsService } from '../modules/heating-circuits/heating-circuits.service.ts';
import type { Mailer } from '../modules/me/me.ports.ts';
import { PURGE_INTERVAL_MS, purgeDueAccounts } from '../modules/me/me.purge.ts';
import { OUTDOOR_SYNC_TICK_MS, type ProviderFor, syncOutdoorDue } from '../weather/outdoor-sync.ts';
import { alertJobs } from './alert-jobs.ts';
import { billingRenewalJob } from './billing-renewal.ts';
import { bookingFeedSyncJob } from './booking-feed-sync.ts';
import type { JobDefinition } from './registry.ts';
import { reportJobs } from './report-jobs.ts';

/** How often the warm-up learning looks for units due (each unit is learned at most hourly). */
const WARM_UP_LEARNING_MS = 15 * 60_000;
/** How often the circuits are looked at; each steps every 5 minutes by its own next-step time. */
const CIRCUIT_STEP_TICK_MS = 60_000;
/** How often entries past the audit log's retention are deleted. */
const AUDIT_PURGE_MS = 6 * 3_600_000;
/** How often the embedded sign-in's expired state is deleted. */
const IDENTITY_PURGE_MS = 60 * 60_000;

export interface ServerJobsDeps {
  config: Pick<Config, 'alerts' | 'publicUrl' | 'auditRetentionDays' | 'telemetryRetentionMonths'>;
  db: Db;
  log: Pick<Logger, 'info' | 'warn' | 'error'>;
  now: Clock;
  mailer: Mailer;
  billing: BillingService;
  bookingFeeds: Pick<BookingFeedsService, 'syncDue'>;
  heatingCircuits: Pick<HeatingCircuitsService, 'stepDue' | 'purgeReadings'>;
  /** The weather provider of each building (the demo's own stand-in for its buildings). */
  weatherFor: ProviderFor;
  /** Whether this server runs the embedded sign-in, whose expired state needs purging. */
  embeddedIdentity: boolean;
}

/** The jobs besides the scheduler's and the LoRaWAN side's, in the order they are reported. */
export function serverJobs(deps: ServerJobsDeps): JobDefinition[] {
  const { config, db, log, now } = deps;
  return [
    ...alertJobs({
      db,
      log,
      alerts: config.alerts,
      publicUrl: config.publicUrl,
      mailer: deps.mailer,
      now,
    }),
    ...reportJobs({
      db,
      log,
      mailer: deps.mailer,
      retentionMonths: config.telemetryRetentionMonths,
      now,
    }),
    bookingFeedSyncJob({ bookingFeeds: deps.bookingFeeds, log }),
    {
      name: 'outdoor temperature sync',
      periodMs: OUTDOOR_SYNC_TICK_MS,
      lock: 'skip locked rows',
      claims: 'buildings whose outdoor temperature is due to be fetched',
      run: async () => {
        const result = await syncOutdoorDue(db, deps.weatherFor, log, now());
        if (result.synced > 0 || result.failed > 0) log.info(result, 'outdoor temperatures synced');
      },
    },
    // Each room's warm-up from its own history (decision 0056).
    {
      name: 'warm-up learning',
      periodMs: WARM_UP_LEARNING_MS,
      lock: 'skip locked rows',
      claims: 'units never learned or last learned over an hour ago',
      run: async () => {
        const learned = await learnWarmUpModels(db, now());
        if (learned > 0) log.info({ units: learned }, 'warm-up models learned');
      },
    },
    // Each heating circuit's demand and recommended supply temperature (ASHRAE G36 trim and respond),
    // written to its heat generator in mode `on` (decision 0077).
    {
      name: 'heating circuit steps',
      periodMs: CIRCUIT_STEP_TICK_MS,
      lock: 'skip locked rows',
      claims: 'heating circuits in shadow or on mode whose 5-minute step is due',
      run: () => deps.heatingCircuits.stepDue(),
    },
    {
      name: 'heating circuit readings purge',
      periodMs: AUDIT_PURGE_MS,
      lock: 'idempotent',
      claims: 'heating circuit readings and write records older than 30 days',
      run: () => deps.heatingCircuits.purgeReadings(),
    },
    billingRenewalJob({ billing: deps.billing, log, now }),
    // Accounts 30 days after their deletion request (spec §4).
    {
      name: 'account purge',
      periodMs: PURGE_INTERVAL_MS,
      lock: 'skip locked rows',
      claims: 'accounts whose deletion request is 30 days old',
      run: async () => {
        const purged = await purgeDueAccounts(db, now());
        if (purged.length > 0) log.info({ count: purged.length }, 'purged deleted accounts');
      },
    },
    // The audit log keeps AUDIT_RETENTION_DAYS (decision 0059).
    {
      name: 'audit log purge',
      periodMs: AUDIT_PURGE_MS,
      lock: 'idempotent',
      claims: 'audit log entries past the retention',
      run: async () => {
        const before = new Date(now().getTime() - config.auditRetentionDays * 86_400_000);
        const purged = await purgeAuditLog(db, before);
        if (purged > 0) log.info({ purged }, 'audit log entries past retention deleted');
      },
    },
    ...(deps.embeddedIdentity
      ? [
          {
            name: 'sign-in state purge',
            periodMs: IDENTITY_PURGE_MS,
            lock: 'idempotent',
            claims: 'expired sign-in sessions and grants, used or expired mail links, old failed sign-ins',
            run: () => purgeExpiredIdentityState(db),
          } satisfies JobDefinition,
        ]
      : []),
  ];
}

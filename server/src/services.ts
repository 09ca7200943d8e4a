/**
 * Every service, built once at start (main.ts; tests through server/test/helpers.ts) and handed
 * to the route plugins and jobs that use them. What exists only once the server runs — the
 * heating scheduler — comes in as a port; the services never reach for the HTTP app.
 */

import { type Clock, systemClock } from './clock.ts';
import type { Config } from './config.ts';
import type { Db } from './db/client.ts';
import type { QueueDownlink } from './generators/outputs.ts';
import { inputsChanged } from './heating/inputs-changed.ts';
import type { HeatingServiceDeps, SetpointWaker } from './heating/services.ts';
import type { Logger } from './logger.ts';
import { AgreementsService } from './modules/agreements/agreements.service.ts';
import { AlertsService } from './modules/alerts/alerts.service.ts';
import { ApiTokensService } from './modules/api-tokens/api-tokens.service.ts';
import { AuditService } from './modules/audit/audit.service.ts';
import { BillingService } from './modules/billing/billing.service.ts';
import { createBillingProvider } from './modules/billing/billing.wiring.ts';
import { licencePolicy } from './modules/billing/licences.ts';
import { BookingFeedsService } from './modules/booking-feeds/booking-feeds.service.ts';
import type { FeedFetchOptions } from './modules/booking-feeds/feed-fetch.ts';
import { BuildingDaysService } from './modules/buildings/building-days.service.ts';
import { BuildingsService } from './modules/buildings/buildings.service.ts';
import { CalendarLayersService } from './modules/calendar-layers/calendar-layers.service.ts';
import { ClosuresService } from './modules/closures/closures.service.ts';
import { CompaniesService } from './modules/companies/companies.service.ts';
import { DeviceCommandsService } from './modules/device-commands/device-commands.service.ts';
import { DeviceProfilesService } from './modules/device-profiles/device-profiles.service.ts';
import { type AppKeyCipher, createAppKeyCipher, loadDeviceKey } from './modules/devices/app-key-cipher.ts';
import { DevicesService } from './modules/devices/devices.service.ts';
import { EventsService } from './modules/events/events.service.ts';
import { GatewaysService } from './modules/gateways/gateways.service.ts';
import { GettingStartedService } from './modules/getting-started/getting-started.service.ts';
import { GroupsService } from './modules/groups/groups.service.ts';
import { HeatingCircuitsService } from './modules/heating-circuits/heating-circuits.service.ts';
import { HeatingLogService } from './modules/heating-log/heating-log.service.ts';
import { ImportsService } from './modules/imports/imports.service.ts';
import { InvitesService } from './modules/invites/invites.service.ts';
import {
  type AccountPort,
  type BillingHooks,
  type Mailer,
  resolveAccountPorts,
} from './modules/me/me.ports.ts';
import { MeService } from './modules/me/me.service.ts';
import { OccupantFeedbackService } from './modules/occupant-feedback/occupant-feedback.service.ts';
import { PlansService } from './modules/plans/plans.service.ts';
import { PreviewService } from './modules/plans/preview.service.ts';
import { PublicHeatingViewService } from './modules/public-heating-view/public-heating-view.service.ts';
import { QrCodesService } from './modules/qr-codes/qr-codes.service.ts';
import { ReportsService } from './modules/reports/reports.service.ts';
import { UnitSeriesService } from './modules/unit-series/unit-series.service.ts';
import { UnitsService } from './modules/units/units.service.ts';
import { WarmUpService } from './modules/warm-up/warm-up.service.ts';

/** What the services need from outside; each unset one has a safe default. */
export interface ServicePorts {
  /** Sends mail (invites, invoices, alert mails); unset: each mail is only logged. */
  mailer?: Mailer;
  /** The embedded provider's account store; unset: password and verification calls answer 503. */
  account?: AccountPort;
  /** Billing's reaction to an account deletion request; unset: `BillingService.cancelForAccountDeletion`. */
  billing?: BillingHooks;
  /** Wakes the heating scheduler after a change queued setpoints; unset: nothing is woken. */
  setpointWaker?: SetpointWaker;
  /** Sends the unit's setpoint to devices that just got a unit; unset: the next reconcile does. */
  devicesAssigned?: (deviceIds: string[]) => void;
  /**
   * Queues a heating circuit's LoRaWAN relay downlink through the devices' downlink queue
   * (bound once the LoRaWAN side runs); without it a relay output's writes fail.
   */
  queueDownlink?: QueueDownlink;
}

export interface Services {
  /** The clock the services read; request handling outside them (API token expiry) reads it too. */
  readonly now: Clock;
  /** The mail port every service sends through (alert mails use it too). */
  readonly mailer: Mailer;
  readonly units: UnitsService;
  readonly groups: GroupsService;
  readonly plans: PlansService;
  readonly previews: PreviewService;
  readonly events: EventsService;
  readonly closures: ClosuresService;
  readonly buildings: BuildingsService;
  readonly apiTokens: ApiTokensService;
  readonly deviceProfiles: DeviceProfilesService;
  readonly deviceCommands: DeviceCommandsService;
  readonly audit: AuditService;
  readonly reports: ReportsService;
  readonly buildingDays: BuildingDaysService;
  readonly bookingFeeds: BookingFeedsService;
  /** The events calendar's background: closures, holidays, own days and bookings in a window. */
  readonly calendarLayers: CalendarLayersService;
  readonly publicHeatingView: PublicHeatingViewService;
  /** Occupants' "Zu warm" / "Zu kalt" (decision 0070): recorded by the public page, read by staff. */
  readonly occupantFeedback: OccupantFeedbackService;
  readonly heatingLog: HeatingLogService;
  readonly unitSeries: UnitSeriesService;
  readonly warmUp: WarmUpService;
  readonly devices: DevicesService;
  /** Bulk import of units and devices from CSV or XLSX (decision 0063). */
  readonly imports: ImportsService;
  readonly gateways: GatewaysService;
  readonly heatingCircuits: HeatingCircuitsService;
  /** A new company's getting-started checklist, read from what it has. */
  readonly gettingStarted: GettingStartedService;
  readonly qrCodes: QrCodesService;
  readonly alerts: AlertsService;
  readonly billing: BillingService;
  readonly companies: CompaniesService;
  readonly invites: InvitesService;
  /** The agreements a company accepts (AVV, licence terms, privacy), not device licences. */
  readonly agreements: AgreementsService;
  readonly me: MeService;
}

export interface ServicesOptions {
  config: Config;
  db: Db;
  log: Logger;
  ports?: ServicePorts;
  /** What every service reads as now (UTC); default the machine's clock. Tests fix it. */
  clock?: Clock;
}

/**
 * What booking feeds may fetch (decision 0053): public addresses, the app's own origin (the demo's
 * calendar), and with FEEDS_ALLOW_PRIVATE every address.
 */
export function feedFetchOptions(config: Config): FeedFetchOptions {
  return { allowPrivate: config.feeds.allowPrivate, ownOrigin: new URL(config.publicUrl).origin };
}

/** Builds every service on `db`; @returns them in a frozen object. */
export function createServices({
  config,
  db,
  log,
  ports = {},
  clock = systemClock,
}: ServicesOptions): Services {
  const now = clock;
  const wake = () => ports.setpointWaker?.wake();
  const heating: HeatingServiceDeps = { db, now, wake };
  const account = resolveAccountPorts(ports, log);
  const licences = licencePolicy(config.billing.provider);

  const billing = new BillingService({
    db,
    config: config.billing,
    provider: createBillingProvider(config, db, account.mailer, now),
    publicUrl: config.publicUrl,
    log,
    now,
  });
  const units = new UnitsService(heating);
  const occupantFeedback = new OccupantFeedbackService({ db, now });
  const closures = new ClosuresService(heating);
  // Companies and invites use each other: a team invite is an invite, an invite reads its company.
  const companies: CompaniesService = new CompaniesService({
    db,
    agreements: config.agreements,
    externalIssuer: Boolean(config.oidc.issuer),
    account: account.account,
    mailer: account.mailer,
    publicUrl: config.publicUrl,
    log,
    inviter: { create: (userId, companyId, input) => invites.create(userId, companyId, input) },
    heating: {
      settingsChanged: async (companyId) => {
        // A new time zone moves the last occurrence of recurring closures.
        await closures.zoneChanged(companyId);
        await inputsChanged(db, { companyId, all: true }, now());
        wake();
      },
    },
  });
  const invites = new InvitesService({
    db,
    companies,
    mailer: account.mailer,
    publicUrl: config.publicUrl,
    log,
  });
  // The device key may be read from DATA_DIR; only the first AppKey (or feed password) needs it.
  let cipher: AppKeyCipher | undefined;
  const loadCipher = async () => {
    cipher ??= createAppKeyCipher(await loadDeviceKey(config));
    return cipher;
  };

  return Object.freeze({
    now,
    mailer: account.mailer,
    units,
    groups: new GroupsService(heating),
    plans: new PlansService(heating),
    previews: new PreviewService(heating),
    events: new EventsService(heating),
    closures,
    buildings: new BuildingsService(heating),
    apiTokens: new ApiTokensService({ db, now }),
    deviceCommands: new DeviceCommandsService({ db, now, requested: ports.devicesAssigned }),
    deviceProfiles: new DeviceProfilesService({
      db,
      airtimeBudgetMs: config.lorawan.airtimeBudgetMs,
      changed: ports.devicesAssigned,
    }),
    audit: new AuditService({ db }),
    reports: new ReportsService({ db, now }),
    buildingDays: new BuildingDaysService(heating),
    bookingFeeds: new BookingFeedsService({
      ...heating,
      cipher: loadCipher,
      fetch: feedFetchOptions(config),
    }),
    calendarLayers: new CalendarLayersService({ db, now }),
    publicHeatingView: new PublicHeatingViewService(heating, units, occupantFeedback),
    occupantFeedback,
    heatingLog: new HeatingLogService(db),
    unitSeries: new UnitSeriesService({ db, now }),
    warmUp: new WarmUpService({ db }),
    devices: new DevicesService({
      db,
      cipher: loadCipher,
      licences,
      assigned: ports.devicesAssigned,
      airtimeBudgetMs: config.lorawan.airtimeBudgetMs,
      now,
    }),
    imports: new ImportsService({
      db,
      now,
      cipher: loadCipher,
      licences,
      wake,
      assigned: ports.devicesAssigned,
    }),
    gateways: new GatewaysService({ db, now }),
    heatingCircuits: new HeatingCircuitsService({
      db,
      now,
      cipher: loadCipher,
      queueDownlink: ports.queueDownlink,
    }),
    gettingStarted: new GettingStartedService({
      db,
      licences: (tx, companyId) => licences.usable(tx, companyId),
    }),
    qrCodes: new QrCodesService({
      db,
      now,
      allowance: (tx, companyId) => licences.usable(tx, companyId),
      publicUrl: config.publicUrl,
    }),
    alerts: new AlertsService(db, config.alerts.webhooksAllowHttp, config.alerts.webhooksAllowPrivate, now),
    billing,
    companies,
    invites,
    agreements: new AgreementsService(db, config.agreements),
    me: new MeService(
      db,
      {
        ...account,
        // Spec §4: an account deletion request cancels the subscription at the end of the period.
        billing: ports.billing ?? { onAccountDeletion: (userId) => billing.cancelForAccountDeletion(userId) },
      },
      { externalIssuer: Boolean(config.oidc.issuer), now },
    ),
  });
}

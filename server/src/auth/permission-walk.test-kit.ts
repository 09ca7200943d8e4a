/**
 * The permission walk's world (decision 0022): an app, a company with one of everything built
 * through the API, and for each operation its URL, body and preparation. The walk itself is in
 * `permission-matrix.test.ts` (a stranger and the roles without the capability are refused) and
 * `permission-success.test.ts` (the roles with it succeed), two files so they run side by side.
 */
import { randomBytes } from 'node:crypto';
import type { Role } from '@heizplan/contracts/account';
import { CAPABILITIES, type Capability } from '@heizplan/contracts/permissions';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll } from 'vitest';
import { testClock, testInstant } from '../../test/clock.ts';
import { buildTestApp, type TestApp } from '../../test/helpers.ts';
import { alerts, subscriptions } from '../db/schema.ts';
import { addMember, createCompany } from '../modules/me/account.fixtures.ts';
import { winterPlan } from '../modules/units/heating-test-fixtures.ts';
import { identityAccountPorts } from './account-ports.ts';
import { PERMISSION_MATRIX } from './permission-matrix.ts';

// A Wednesday noon: the running event, upcoming closures and days count from here.
const clock = testClock(testInstant('2026-12-02T12:00:00+01:00'));
let t: TestApp;
let operations: string[];

/**
 * Registers the walk's app in the calling test file: a fresh app with a stranger's company, and
 * the OpenAPI document's operations. Hooks, not module code: the server's test files share one
 * module graph per worker, so this module is imported once for several files.
 */
export function useWalkApp() {
  beforeAll(async () => {
    t = await buildTestApp({}, { clock: clock.now });
    // The embedded account store: an admin's reset of a member's second factor reaches it.
    t.ports.account = identityAccountPorts(t.config, t.database.db, t.app.log, clock.now).account;
    const doc = t.app.swagger() as { paths: Record<string, Record<string, unknown>> };
    operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`),
    );
    await createCompany(t, 'pm-stranger', 'Fremdfirma');
  });
  afterAll(() => t.close());
}

/** The app of the current file's walk. */
export const walkApp = () => t;

/** The operations of the OpenAPI document, as `METHOD /path`. */
export const allOperations = () => operations;

export const MEMBERS: Record<Role, string> = { admin: 'pm-admin', heating: 'pm-heating', ems: 'pm-ems' };
const TARGET_MEMBER = 'pm-target';

/** A company with one of everything, built through the API as its admin. */
interface World {
  companyId: string;
  unitId: string;
  groupedUnitId: string;
  looseUnitId: string;
  groupId: string;
  planId: string;
  eventId: string;
  closureId: string;
  buildingId: string;
  dayId: string;
  feedId: string;
  tokenId: string;
  profileId: string;
  deviceId: string;
  gatewayId: string;
  circuitId: string;
  inviteId: string;
  invoiceId: string;
  checkoutId: string;
  alertId: string;
  webhookId: string;
}

async function ok<T>(res: Promise<{ statusCode: number; json(): unknown; body: string }>): Promise<T> {
  const r = await res;
  if (r.statusCode >= 300) throw new Error(`world setup failed: ${r.statusCode} ${r.body}`);
  return r.json() as T;
}

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

/** A billing address: the checkout operation below pays by invoice, which needs one. */
const BILLING_ADDRESS = {
  name: 'Welt GmbH',
  street: 'Weg 1',
  postcode: '12345',
  city: 'Stadt',
  country: 'DE',
};

export async function buildWorld(): Promise<World> {
  const admin = MEMBERS.admin;
  const company = await createCompany(t, admin, `Welt ${hex(3)}`);
  const base = `/api/companies/${company.id}`;
  for (const role of ['heating', 'ems'] as const) await addMember(t, company.id, MEMBERS[role], role);
  await addMember(t, company.id, TARGET_MEMBER, 'heating');
  const call = <T>(method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, payload?: object) =>
    ok<T>(t.call(method, `${base}${url}`, payload, admin));
  const group = await call<{ id: string }>('POST', '/groups', { name: 'Nordflügel' });
  const unit = await call<{ id: string }>('POST', '/units', { name: 'Raum 1' });
  const grouped = await call<{ id: string }>('POST', '/units', { name: 'Raum 2', groupId: group.id });
  const loose = await call<{ id: string }>('POST', '/units', { name: 'Raum 3' });
  const plan = await call<{ id: string }>('POST', `/units/${unit.id}/plans`, winterPlan());
  const now = clock.now().getTime();
  const event = await call<{ id: string }>('POST', '/events', {
    title: 'Elternabend',
    start: new Date(now - 60_000).toISOString(),
    end: new Date(now + 2 * 3600_000).toISOString(),
    temperature: 21,
    units: [unit.id],
  });
  const closure = await call<{ id: string }>('POST', '/closures', {
    name: 'Betriebsurlaub',
    start: new Date(now + 7 * 86_400_000).toISOString(),
    end: new Date(now + 14 * 86_400_000).toISOString(),
    mode: 'economy',
    exceptions: [loose.id],
  });
  const building = await call<{ id: string }>('POST', '/buildings', {
    name: 'Hauptgebäude',
    state: 'BY',
    floors: ['EG'],
    publicHolidays: 'closure',
  });
  await call('PATCH', `/units/${grouped.id}`, { buildingId: building.id, floor: 'EG' });
  await call('PUT', `/buildings/${building.id}/meter-readings`, {
    month: '2026-10',
    carrier: 'gas',
    kwh: 17_000,
  });
  const day = await call<{ id: string }>('POST', `/buildings/${building.id}/days`, {
    date: new Date(now + 30 * 86_400_000).toISOString().slice(0, 10),
    name: 'Brückentag',
  });
  // Its address does not resolve: a sync records the failure, which is all the walk needs.
  const apiToken = await call<{ id: string }>('POST', '/api-tokens', { name: 'EMS', role: 'ems' });
  const profile = await call<{ id: string }>('POST', '/device-profiles', {
    name: 'Schule',
    model: 'mclimate-vicki',
    config: VICKI_CONFIG,
    places: { company: false, buildingIds: [building.id], groupIds: [], unitIds: [] },
  });
  const feed = await call<{ id: string }>('POST', '/booking-feeds', {
    name: 'Raumbuchung',
    unitId: unit.id,
    linkedUnitIds: [loose.id],
    url: 'https://calendar.example.test/raum-1.ics',
  });
  await call('PUT', '/billing/address', BILLING_ADDRESS);
  const { checkoutId } = await call<{ checkoutId: string }>('POST', '/billing/checkout', {
    interval: 'yearly',
    licences: 5,
    paymentMethod: 'immediate',
  });
  const invoices = await ok<{ results: { id: string }[] }>(
    t.call('GET', `${base}/billing/invoices`, undefined, admin),
  );
  const deviceId = hex(8);
  for (const id of [deviceId, hex(8)]) {
    await call('POST', '/devices', { id, model: 'micropelt-mlr003', unitId: unit.id });
  }
  const gateway = await call<{ id: string }>('POST', '/gateways', { gatewayEui: hex(8), name: 'Dach' });
  const circuit = await call<{ id: string }>('POST', '/heating-circuits', {
    name: 'Heizkreis Nord',
    buildingId: building.id,
    generatorType: 'heat_pump_air',
    unitIds: [grouped.id],
  });
  const invite = await ok<{ id: string }>(t.call('POST', `/api/invite/?company_id=${company.id}`, {}, admin));
  await call('POST', `/units/${unit.id}/qr-code`);
  const webhook = await call<{ id: string }>('POST', '/webhooks', { url: 'https://hooks.example.test/a' });
  const [alert] = await t.database.db
    .insert(alerts)
    .values({
      companyId: company.id,
      kind: 'device_offline',
      subject: 'device',
      subjectId: deviceId,
      unitId: unit.id,
      openedAt: clock.now(),
      lastSeenAt: clock.now(),
    })
    .returning({ id: alerts.id });
  return {
    companyId: company.id,
    unitId: unit.id,
    groupedUnitId: grouped.id,
    looseUnitId: loose.id,
    groupId: group.id,
    planId: plan.id,
    eventId: event.id,
    closureId: closure.id,
    buildingId: building.id,
    dayId: day.id,
    feedId: feed.id,
    tokenId: apiToken.id,
    profileId: profile.id,
    deviceId,
    gatewayId: gateway.id,
    circuitId: circuit.id,
    inviteId: invite.id,
    invoiceId: invoices.results[0]?.id ?? '',
    checkoutId,
    alertId: alert?.id ?? '',
    webhookId: webhook.id,
  };
}

/** A device profile's configuration for a Vicki. */
const VICKI_CONFIG = {
  keepAliveMinutes: 15,
  openWindow: { enabled: true, durationMinutes: 30, deltaK: 1.5 },
  childLock: true,
  temperatureRange: { min: 16, max: 26 },
  temperatureOffset: 0,
};

/** The calendar layers' window: the next four weeks. */
const WINDOW = {
  from: clock.now().toISOString(),
  to: new Date(clock.now().getTime() + 28 * 86_400_000).toISOString(),
};

/** A week after the window's start. */
const WEEK_AFTER = new Date(clock.now().getTime() + 7 * 86_400_000).toISOString();

/** A request's query and body: JSON, or a file's text with its content type. */
interface Payload {
  query?: string;
  payload?: object;
  file?: { body: string; type: string };
}

/** A device list as an import takes it (decision 0063): a new DevEUI in the world's first unit. */
const importFile = () => ({ body: `dev_eui;model;unit\n${hex(8)};elsys-ers;Raum 1\n`, type: 'text/csv' });

/** Bodies and queries of the operations that need them; the rest is sent without a body. */
function payloadFor(operation: string, w: World): Payload {
  const payloads: Record<string, Payload> = {
    'PATCH /api/companies/{id}/': { payload: { name: 'Neuer Name' } },
    'PATCH /api/companies/{id}/members/{sub}': { payload: { role: 'ems' } },
    'GET /api/invite/': { query: `company_id=${w.companyId}` },
    'POST /api/invite/': { query: `company_id=${w.companyId}`, payload: {} },
    'POST /api/companies/{companyId}/units': { payload: { name: 'Raum 9' } },
    'PATCH /api/companies/{companyId}/units/{unitId}': { payload: { name: 'Raum 1a' } },
    'POST /api/companies/{companyId}/units/bulk': { payload: { pattern: 'Büro {n}', count: 2 } },
    'POST /api/companies/{companyId}/units/bulk-update': {
      payload: { unitIds: [w.unitId, w.looseUnitId], changes: { wallControlMin: 18, wallControlMax: 22 } },
    },
    'POST /api/companies/{companyId}/units/bulk-delete': { payload: { unitIds: [w.looseUnitId] } },
    'POST /api/companies/{companyId}/units/bulk-qr-code': {
      payload: { unitIds: [w.unitId, w.groupedUnitId], enabled: false },
    },
    'POST /api/companies/{companyId}/units/{unitId}/setpoint': { payload: { setpoint: 20 } },
    'POST /api/companies/{companyId}/units/{unitId}/preview': {
      payload: { planId: w.planId, plan: winterPlan() },
    },
    'POST /api/companies/{companyId}/groups': { payload: { name: 'Südflügel' } },
    'PATCH /api/companies/{companyId}/groups/{groupId}': { payload: { name: 'Nord' } },
    'POST /api/companies/{companyId}/groups/{groupId}/units': { payload: { unitIds: [w.looseUnitId] } },
    'POST /api/companies/{companyId}/units/{unitId}/plans': { payload: winterPlan({ active: false }) },
    'POST /api/companies/{companyId}/groups/{groupId}/plans': { payload: winterPlan() },
    'PATCH /api/companies/{companyId}/plans/{planId}': { payload: { name: 'Winter neu' } },
    'POST /api/companies/{companyId}/events': {
      payload: {
        start: new Date(clock.now().getTime() + 86_400_000).toISOString(),
        temperature: 19,
        units: [w.unitId],
      },
    },
    'PATCH /api/companies/{companyId}/events/{eventId}': { payload: { title: 'Sprechtag' } },
    'POST /api/companies/{companyId}/closures': {
      payload: {
        name: 'Weihnachtsferien',
        start: new Date(clock.now().getTime() + 20 * 86_400_000).toISOString(),
        end: new Date(clock.now().getTime() + 30 * 86_400_000).toISOString(),
        scope: 'groups',
        groups: [w.groupId],
      },
    },
    'PATCH /api/companies/{companyId}/closures/{closureId}': { payload: { mode: 'frost' } },
    'POST /api/companies/{companyId}/buildings': { payload: { name: 'Turnhalle', state: 'BE' } },
    'PATCH /api/companies/{companyId}/buildings/{buildingId}': { payload: { holidayMode: 'economy' } },
    'GET /api/companies/{companyId}/buildings/{buildingId}/holidays': { query: 'year=2026' },
    'GET /api/companies/{companyId}/buildings/{buildingId}/days': { query: 'year=2026' },
    'GET /api/companies/{companyId}/calendar-layers': {
      query: `from=${encodeURIComponent(WINDOW.from)}&to=${encodeURIComponent(WINDOW.to)}`,
    },
    'GET /api/companies/{companyId}/units/{unitId}/feedback': {
      query: `from=${encodeURIComponent(WINDOW.from)}&to=${encodeURIComponent(WINDOW.to)}`,
    },
    'GET /api/companies/{companyId}/heating-log/export': {
      query: `from=${encodeURIComponent(WINDOW.from)}&to=${encodeURIComponent(WINDOW.to)}`,
    },
    'POST /api/companies/{companyId}/buildings/{buildingId}/days': {
      payload: {
        date: new Date(clock.now().getTime() + 40 * 86_400_000).toISOString().slice(0, 10),
        name: 'Inventur',
      },
    },
    'POST /api/companies/{companyId}/buildings/{buildingId}/days/import': {
      payload: { ics: 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n' },
    },
    'POST /api/companies/{companyId}/booking-feeds': {
      payload: { name: 'Turnhalle', unitId: w.looseUnitId, url: 'webcal://calendar.example.test/halle.ics' },
    },
    'PATCH /api/companies/{companyId}/booking-feeds/{feedId}': { payload: { preheatMinutes: 60 } },
    'POST /api/companies/{companyId}/api-tokens': { payload: { name: 'Leitsystem', role: 'heating' } },
    'POST /api/companies/{companyId}/devices/recalibrate': { payload: { deviceIds: [w.deviceId] } },
    'POST /api/companies/{companyId}/device-profiles': {
      payload: { name: `Profil ${hex(3)}`, model: 'mclimate-vicki', config: VICKI_CONFIG },
    },
    'PATCH /api/companies/{companyId}/device-profiles/{profileId}': {
      payload: { config: { ...VICKI_CONFIG, childLock: false } },
    },
    'GET /api/companies/{companyId}/reports': { query: 'month=2026-11' },
    'GET /api/companies/{companyId}/reports/export': { query: 'month=2026-11&format=pdf' },
    'GET /api/companies/{companyId}/reports/rollups': {
      query: `from=${encodeURIComponent(WINDOW.from)}&to=${encodeURIComponent(WINDOW.to)}&format=csv`,
    },
    'GET /api/companies/{companyId}/reports/telemetry': {
      query: `from=${encodeURIComponent(WINDOW.from)}&to=${encodeURIComponent(WINDOW.to)}`,
    },
    'PUT /api/companies/{companyId}/reports/subscription': { payload: { subscribed: true } },
    'PUT /api/companies/{companyId}/buildings/{buildingId}/report-settings': {
      payload: { heatedAreaM2: 950, maxHeatingHoursPerDegreeDay: null, maxBelowComfortShare: 0.1 },
    },
    'POST /api/companies/{companyId}/buildings/{buildingId}/meter-readings/import': {
      payload: { csv: 'Monat;Energieträger;Verbrauch\n12.2026;Gas;1.250,5\n' },
    },
    'PUT /api/companies/{companyId}/buildings/{buildingId}/meter-readings': {
      payload: { month: '2026-11', carrier: 'district_heating', kwh: 21_000 },
    },
    'POST /api/companies/{companyId}/devices': { payload: { id: hex(8), model: 'milesight-wt101' } },
    'PATCH /api/companies/{companyId}/devices/{deviceId}': { payload: { unitId: null } },
    'POST /api/companies/{companyId}/gateways': { payload: { gatewayEui: hex(8), name: 'Keller' } },
    'PATCH /api/companies/{companyId}/gateways/{gatewayId}': { payload: { name: 'Dach Ost' } },
    'POST /api/companies/{companyId}/heating-circuits': {
      payload: { name: `Heizkreis ${hex(3)}`, buildingId: w.buildingId, generatorType: 'condensing_boiler' },
    },
    'PATCH /api/companies/{companyId}/heating-circuits/{circuitId}': { payload: { curveSupply: 62 } },
    'GET /api/companies/{companyId}/heating-circuits/{circuitId}/readings': {
      // A week: one request covers at most 14 days.
      query: `from=${encodeURIComponent(WINDOW.from)}&to=${encodeURIComponent(WEEK_AFTER)}`,
    },
    'POST /api/companies/{companyId}/billing/quote': { payload: { interval: 'monthly', licences: 3 } },
    'POST /api/companies/{companyId}/billing/checkout': {
      payload: { interval: 'monthly', licences: 4, paymentMethod: 'invoice' },
    },
    'PATCH /api/companies/{companyId}/billing/subscription': { payload: { licences: 7 } },
    'PUT /api/companies/{companyId}/billing/address': { payload: BILLING_ADDRESS },
    'POST /api/companies/{companyId}/alerts/{alertId}/acknowledge': {
      payload: { note: 'Techniker bestellt' },
    },
    'POST /api/companies/{companyId}/alerts/{alertId}/mute': { payload: { hours: 8 } },
    'PATCH /api/companies/{companyId}/alert-settings': { payload: { clearMinutes: 5 } },
    'PATCH /api/companies/{companyId}/alert-preferences': { payload: { low_battery: 'digest' } },
    'POST /api/companies/{companyId}/webhooks': { payload: { url: 'https://hooks.example.test/heizplan' } },
    'PATCH /api/companies/{companyId}/webhooks/{webhookId}': { payload: { enabled: false } },
    'PUT /api/companies/{companyId}/imports/{kind}/mapping': {
      payload: { mapping: { devEui: 'dev_eui', unit: 'unit' }, defaults: { model: 'elsys-ers' } },
    },
    'POST /api/companies/{companyId}/imports/preview': { file: importFile() },
    'POST /api/companies/{companyId}/imports/{kind}/dry-run': { file: importFile() },
    'POST /api/companies/{companyId}/imports/{kind}/commit': { file: importFile() },
  };
  return payloads[operation] ?? {};
}

/** The operation's path with the world's ids filled in. */
function urlFor(operation: string, w: World): string {
  const [method, path = ''] = operation.split(' ');
  // Removing a unit from a group needs a unit of that group.
  const unitId = path.includes('/groups/{groupId}/units/{unitId}') ? w.groupedUnitId : w.unitId;
  const filled = path
    .replace('{companyId}', w.companyId)
    .replace('{id}', path.startsWith('/api/invite/') ? w.inviteId : w.companyId)
    .replace('{unitId}', unitId)
    .replace('{groupId}', w.groupId)
    .replace('{planId}', w.planId)
    .replace('{eventId}', w.eventId)
    .replace('{closureId}', w.closureId)
    .replace('{buildingId}', w.buildingId)
    .replace('{dayId}', w.dayId)
    .replace('{feedId}', w.feedId)
    .replace('{tokenId}', w.tokenId)
    .replace('{profileId}', w.profileId)
    .replace('{deviceId}', w.deviceId)
    .replace('{devEui}', w.deviceId)
    .replace('{gatewayId}', w.gatewayId)
    .replace('{circuitId}', w.circuitId)
    .replace('{invoiceId}', w.invoiceId)
    .replace('{checkoutId}', w.checkoutId)
    .replace('{alertId}', w.alertId)
    .replace('{webhookId}', w.webhookId)
    .replace('{month}', '2026-10')
    .replace('{carrier}', 'gas')
    .replace('{kind}', 'devices')
    .replace('{sub}', TARGET_MEMBER)
    .replace('{email}', 'neu@example.test');
  const { query } = payloadFor(`${method} ${path}`, w);
  return query ? `${filled}?${query}` : filled;
}

/** A new subscription needs the previous one to have ended. */
export async function prepare(operation: string, w: World) {
  if (operation === 'POST /api/companies/{companyId}/billing/checkout') {
    await t.database.db
      .update(subscriptions)
      .set({ status: 'cancelled' })
      .where(eq(subscriptions.companyId, w.companyId));
  }
}

export async function send(operation: string, w: World, user: string) {
  const method = operation.split(' ')[0] as 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  const { payload, file } = payloadFor(operation, w);
  if (!file) return t.call(method, urlFor(operation, w), payload, user);
  return t.app.inject({
    method,
    url: urlFor(operation, w),
    payload: file.body,
    headers: { ...(await t.as(user)), 'content-type': file.type },
  });
}

/** The company-scoped operations with the capability each needs. */
export const companyScoped = () =>
  operations.flatMap((operation) => {
    const access = PERMISSION_MATRIX[operation];
    return (CAPABILITIES as readonly string[]).includes(access ?? '')
      ? [{ operation, capability: access as Capability }]
      : [];
  });

/**
 * The refusal walk shares one world: a refused call changes nothing (which it checks), so the next
 * operation finds the world as built. The success walk builds a fresh world per changing call
 * and shares one among the reading ones. About 75 s alone, 214 s beside the rest of the suite on
 * a 2-core machine and over 300 s in a CI run under heavy load, so the limit is generous.
 */
export const WALK_TIMEOUT_MS = 600_000;

/**
 * Changing calls that are upserts of their own rows (a member's subscription, a building's report
 * settings and meter readings, an import's mapping): called again they succeed the same, and no
 * other operation depends on what they write, so they share the reading world instead of building
 * one each; so do the POSTs that write nothing (an import's preview and dry run).
 */
export const SHARES_WORLD = new Set([
  'PUT /api/companies/{companyId}/reports/subscription',
  'PUT /api/companies/{companyId}/buildings/{buildingId}/report-settings',
  'PUT /api/companies/{companyId}/buildings/{buildingId}/meter-readings',
  'POST /api/companies/{companyId}/buildings/{buildingId}/meter-readings/import',
  // An import's remembered mapping is an upsert; a preview and a dry run write nothing.
  'PUT /api/companies/{companyId}/imports/{kind}/mapping',
  'POST /api/companies/{companyId}/imports/preview',
  'POST /api/companies/{companyId}/imports/{kind}/dry-run',
]);

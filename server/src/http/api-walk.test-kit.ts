/**
 * Walks the API's own OpenAPI document: lists every operation with its path, query
 * and body schemas, seeds one of each resource so every path parameter has a real value, and
 * holds a valid sample body per operation that takes one. Tests that must hold for every route
 * (bad input answers 400, PATCH changes only what it is given) build on it, and fail when a new
 * route has no sample instead of silently skipping it.
 */
import { type SQL, sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { TestApp } from '../../test/helpers.ts';
import { alerts, webauthnCredentials } from '../db/schema.ts';
import { addMember } from '../modules/me/account.fixtures.ts';
import { seedCompanies } from '../modules/units/heating-test-fixtures.ts';

/** The part of a JSON Schema (as @fastify/swagger emits it) the walkers read. */
/** A device profile's configuration for a Vicki (decision 0062). */
const VICKI_CONFIG = {
  keepAliveMinutes: 15,
  openWindow: { enabled: true, durationMinutes: 30, deltaK: 1.5 },
  childLock: true,
  temperatureRange: { min: 16, max: 26 },
  temperatureOffset: 0,
};

export interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  required?: string[];
  enum?: unknown[];
}

export interface Operation {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** OpenAPI path, e.g. `/api/companies/{companyId}/units/{unitId}`. */
  path: string;
  pathParams: string[];
  query: { name: string; required: boolean; schema: JsonSchema }[];
  body?: JsonSchema;
}

interface OpenApiOperation {
  parameters?: { in: string; name: string; required?: boolean; schema: JsonSchema }[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
}

export function operations(app: TestApp['app']): Operation[] {
  const doc = app.swagger() as { paths: Record<string, Record<string, OpenApiOperation>> };
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => {
      const parameters = op.parameters ?? [];
      return {
        method: method.toUpperCase() as Operation['method'],
        path,
        pathParams: parameters.filter((p) => p.in === 'path').map((p) => p.name),
        query: parameters
          .filter((p) => p.in === 'query')
          .map((p) => ({ name: p.name, required: p.required === true, schema: p.schema })),
        body: op.requestBody?.content['application/json']?.schema,
      };
    }),
  );
}

export const operationKey = (op: Pick<Operation, 'method' | 'path'>) => `${op.method} ${op.path}`;

/** `path` with each `{name}` replaced by `values[name]`, URL-encoded. */
export function fillPath(path: string, values: Record<string, string>): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`no value for path parameter {${name}} of ${path}`);
    return encodeURIComponent(value);
  });
}

export const winterSwitchPoints = [1, 2, 3, 4, 5, 6, 7].flatMap((day) => [
  { day, hour: 6, minute: 0, temperature: 21, ignoreWallControl: false },
  { day, hour: 22, minute: 0, temperature: 17, ignoreWallControl: false },
]);

export interface WalkFixture {
  companyId: string;
  /** A value for every path parameter name of the document. */
  pathValues: Record<string, string>;
  /** A valid body per `METHOD /path` that takes one. */
  bodies: Record<string, object>;
  /** Valid values of required query parameters, by name. */
  requiredQuery: Record<string, string>;
  /** A second unit (no group, no plan) and a second group (empty), for changes that need another target. */
  otherUnitId: string;
  otherGroupId: string;
}

async function created(res: { statusCode: number; json(): unknown }) {
  expect(res.statusCode, JSON.stringify(res.json())).toBe(201);
  return res.json() as { id: string };
}

/**
 * A company of `alice` (admin) with a billing address and a subscription, a unit in a group, a
 * unit plan, a device, a gateway, an upcoming event, an upcoming closure of the company (the
 * other unit excepted), a building with two floors (no units), a booking feed of the unit (never
 * fetched; its address does not resolve), an enabled QR code and an invite,
 * plus a
 * unit and a group without anything; `bob` is a second member. "Upcoming" counts from the app's
 * clock (`t.now`), so a test with a fixed clock gets the same fixture at any hour.
 */
export async function seedWalkFixture(t: TestApp): Promise<WalkFixture> {
  const { companyId } = await seedCompanies(t.database.db, { minTemperature: 5, maxTemperature: 26 });
  await addMember(t, companyId, 'bob');
  const base = `/api/companies/${companyId}`;
  const group = await created(await t.call('POST', `${base}/groups`, { name: 'Schule' }));
  const unit = await created(await t.call('POST', `${base}/units`, { name: 'Raum 1', groupId: group.id }));
  const plan = await created(
    await t.call('POST', `${base}/units/${unit.id}/plans`, {
      name: 'Winter',
      kind: 'seasonal',
      validFrom: '10-01',
      validTo: '04-30',
      switchPoints: winterSwitchPoints,
    }),
  );
  // Kept first: switching the subscription to paying by invoice needs it.
  const address = await t.call('PUT', `${base}/billing/address`, {
    name: 'Stadtwerke GmbH',
    street: 'Am Markt 1',
    postcode: '10115',
    city: 'Berlin',
    country: 'DE',
  });
  expect(address.statusCode, address.body).toBe(200);
  const bought = await t.call('POST', `${base}/billing/checkout`, {
    interval: 'yearly',
    licences: 10,
    paymentMethod: 'immediate',
  });
  expect(bought.statusCode, bought.body).toBe(200);
  const invoices = (await t.call('GET', `${base}/billing/invoices`)).json() as { results: { id: string }[] };
  const device = await created(
    await t.call('POST', `${base}/devices`, {
      id: '70b3d57ed005a1b2',
      model: 'mclimate-vicki',
      appKey: '0123456789abcdef0123456789abcdef',
      unitId: unit.id,
    }),
  );
  const gateway = await created(
    await t.call('POST', `${base}/gateways`, { gatewayEui: 'aa555a0000000101', name: 'Dach' }),
  );
  const now = t.now().getTime();
  const start = new Date(now + 7 * 24 * 3600_000);
  const eventBody = {
    title: 'Konzert',
    note: 'Aula',
    start: start.toISOString(),
    end: new Date(start.getTime() + 3 * 3600_000).toISOString(),
    temperature: 22,
    units: [unit.id],
  };
  const event = await created(await t.call('POST', `${base}/events`, eventBody));
  const qr = await t.call('POST', `${base}/units/${unit.id}/qr-code`);
  expect(qr.statusCode, qr.body).toBeLessThan(300);
  const token = (qr.json() as { code: { token: string } }).code.token;
  const invite = await created(await t.call('POST', `/api/invite/?company_id=${companyId}`, {}));
  const webhook = await created(
    await t.call('POST', `${base}/webhooks`, { url: 'https://hooks.example.test/walk' }),
  );
  const [alert] = await t.database.db
    .insert(alerts)
    .values({
      companyId,
      kind: 'device_offline',
      subject: 'device',
      subjectId: device.id,
      unitId: unit.id,
      openedAt: new Date(now),
      lastSeenAt: new Date(now),
    })
    .returning({ id: alerts.id });
  const otherUnit = await created(await t.call('POST', `${base}/units`, { name: 'Raum 9' }));
  const otherGroup = await created(await t.call('POST', `${base}/groups`, { name: 'Aula' }));
  const closureStart = new Date(now + 14 * 24 * 3600_000);
  const closureBody = {
    name: 'Betriebsurlaub',
    note: 'Sommer',
    start: closureStart.toISOString(),
    end: new Date(closureStart.getTime() + 7 * 24 * 3600_000).toISOString(),
    mode: 'frost',
    scope: 'company',
    exceptions: [otherUnit.id],
  };
  const closure = await created(await t.call('POST', `${base}/closures`, closureBody));
  const buildingBody = {
    name: 'Hauptgebäude',
    street: 'Am Markt 1',
    postcode: '86150',
    city: 'Augsburg',
    state: 'BY',
    floors: ['EG', '1. OG'],
  };
  const building = await created(await t.call('POST', `${base}/buildings`, buildingBody));
  const day = await created(
    await t.call('POST', `${base}/buildings/${building.id}/days`, { date: '2027-05-07', name: 'Brückentag' }),
  );
  const circuit = await created(
    await t.call('POST', `${base}/heating-circuits`, {
      name: 'Heizkreis Nord',
      buildingId: building.id,
      generatorType: 'heat_pump_air',
    }),
  );
  const feedBody = { name: 'Raumbuchung', unitId: unit.id, url: 'https://calendar.example.test/raum-1.ics' };
  const feed = await created(await t.call('POST', `${base}/booking-feeds`, feedBody));
  const apiToken = await created(await t.call('POST', `${base}/api-tokens`, { name: 'EMS', role: 'ems' }));
  const profileBody = { name: 'Schule', model: 'mclimate-vicki', config: VICKI_CONFIG };
  const profile = await created(await t.call('POST', `${base}/device-profiles`, profileBody));
  const reading = { month: '2026-10', carrier: 'gas', kwh: 17_000 };
  expect((await t.call('PUT', `${base}/buildings/${building.id}/meter-readings`, reading)).statusCode).toBe(
    200,
  );

  // A passkey of alice's (decision 0074), as a registration stores it; the key is not used here.
  const [passkey] = await t.database.db
    .insert(webauthnCredentials)
    .values({
      userId: 'alice',
      credentialId: 'd2Fsay1wYXNza2V5',
      publicKey: 'cHVibGljLWtleQ',
      name: 'Laptop',
    })
    .returning({ id: webauthnCredentials.id });

  const plan2 = { name: 'Sommer', kind: 'seasonal', validFrom: '05-01', validTo: '09-30', switchPoints: [] };
  return {
    companyId,
    pathValues: {
      id: companyId,
      passkeyId: passkey?.id ?? '',
      // No such session: the walk's calls answer 404 or change nothing.
      sessionId: 'walk-session',
      companyId,
      unitId: unit.id,
      groupId: group.id,
      planId: plan.id,
      deviceId: device.id,
      devEui: device.id,
      gatewayId: gateway.id,
      circuitId: circuit.id,
      eventId: event.id,
      closureId: closure.id,
      buildingId: building.id,
      dayId: day.id,
      feedId: feed.id,
      tokenId: apiToken.id,
      profileId: profile.id,
      month: '2026-10',
      carrier: 'gas',
      token,
      invite_code: invite.id,
      email: 'carol@example.test',
      sub: 'bob',
      invoiceId: invoices.results[0]?.id ?? '',
      checkoutId: (bought.json() as { checkoutId: string }).checkoutId,
      company: companyId,
      alertId: alert?.id ?? '',
      webhookId: webhook.id,
      kind: 'devices',
    },
    requiredQuery: {
      company_id: companyId,
      company_name: 'Neue Firma',
      others: 'true',
      lang: 'de',
      year: '2026',
      month: '2026-11',
      // The calendar layers' window: the next four weeks (with the fixture's upcoming closure).
      from: new Date(now).toISOString(),
      to: new Date(now + 28 * 24 * 3600_000).toISOString(),
    },
    otherUnitId: otherUnit.id,
    otherGroupId: otherGroup.id,
    bodies: {
      'PUT /api/me/': { name: 'Alice', email: 'alice@example.test' },
      'PUT /api/me/password': { currentPassword: 'old horse battery', password: 'correct horse battery' },
      'POST /api/me/second-factor/totp': { password: 'correct horse battery' },
      'POST /api/me/second-factor/totp/confirm': { code: '123456' },
      'POST /api/me/passkeys/registration-options': { password: 'correct horse battery' },
      'DELETE /api/me/second-factor/totp': { password: 'correct horse battery', code: '123456' },
      'POST /api/me/passkeys': {
        name: 'Laptop',
        response: {
          id: 'Y3JlZGVudGlhbA',
          rawId: 'Y3JlZGVudGlhbA',
          type: 'public-key',
          response: { clientDataJSON: 'e30', attestationObject: 'oA', transports: ['internal'] },
          clientExtensionResults: {},
        },
      },
      'PATCH /api/me/passkeys/{passkeyId}': { name: 'Büro' },
      'PATCH /api/companies/{id}/': { name: 'Stadtwerke Süd', time_zone: 'Europe/Berlin' },
      'PATCH /api/companies/{id}/members/{sub}': { role: 'heating' },
      'POST /api/invite/': { email: 'dave@example.test', role: 'heating' },
      'POST /api/companies/{companyId}/units': { name: 'Raum 2' },
      'PATCH /api/companies/{companyId}/units/{unitId}': { name: 'Raum 1a' },
      'POST /api/companies/{companyId}/units/bulk': { pattern: 'Flur {n}', count: 2 },
      'POST /api/companies/{companyId}/units/bulk-update': { unitIds: [unit.id], changes: { groupId: null } },
      'POST /api/companies/{companyId}/units/bulk-delete': { unitIds: [otherUnit.id] },
      'POST /api/companies/{companyId}/units/bulk-qr-code': { unitIds: [unit.id], enabled: false },
      'POST /api/companies/{companyId}/units/{unitId}/setpoint': { setpoint: 20 },
      'POST /api/companies/{companyId}/groups': { name: 'Turnhalle' },
      'PATCH /api/companies/{companyId}/groups/{groupId}': { name: 'Grundschule' },
      'POST /api/companies/{companyId}/groups/{groupId}/units': { unitIds: [unit.id] },
      'POST /api/companies/{companyId}/units/{unitId}/plans': plan2,
      'POST /api/companies/{companyId}/groups/{groupId}/plans': plan2,
      'PATCH /api/companies/{companyId}/plans/{planId}': { name: 'Winter 2' },
      'POST /api/companies/{companyId}/units/{unitId}/preview': { plan: plan2 },
      'POST /api/companies/{companyId}/devices': { id: '70b3d57ed005a1b3', model: 'elsys-ers' },
      'PATCH /api/companies/{companyId}/devices/{deviceId}': { model: 'milesight-wt101' },
      'POST /api/companies/{companyId}/device-profiles': { ...profileBody, name: 'Verwaltung' },
      'POST /api/companies/{companyId}/devices/recalibrate': { deviceIds: [device.id] },
      'PATCH /api/companies/{companyId}/device-profiles/{profileId}': { name: 'Schule Nord' },
      'POST /api/companies/{companyId}/gateways': { gatewayEui: 'aa555a0000000102', name: 'Keller' },
      'PATCH /api/companies/{companyId}/gateways/{gatewayId}': { name: 'Dach Nord' },
      'POST /api/companies/{companyId}/heating-circuits': {
        name: 'Heizkreis Süd',
        buildingId: building.id,
        generatorType: 'condensing_boiler',
      },
      'PATCH /api/companies/{companyId}/heating-circuits/{circuitId}': { curveSupply: 60 },
      'POST /api/companies/{companyId}/events': { ...eventBody, title: 'Elternabend' },
      'PATCH /api/companies/{companyId}/events/{eventId}': { title: 'Konzert 2' },
      'POST /api/companies/{companyId}/closures': { ...closureBody, name: 'Winterpause' },
      'PATCH /api/companies/{companyId}/closures/{closureId}': { name: 'Betriebsferien' },
      'POST /api/companies/{companyId}/buildings': { ...buildingBody, name: 'Turnhalle', region: 'A' },
      'PATCH /api/companies/{companyId}/buildings/{buildingId}': { name: 'Altbau' },
      'POST /api/companies/{companyId}/buildings/{buildingId}/days': { date: '2027-05-08', name: 'Inventur' },
      'POST /api/companies/{companyId}/buildings/{buildingId}/days/import': {
        ics: 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n',
      },
      'POST /api/companies/{companyId}/booking-feeds': {
        ...feedBody,
        name: 'Aula',
        linkedUnitIds: [otherUnit.id],
      },
      'PATCH /api/companies/{companyId}/booking-feeds/{feedId}': { name: 'Raumbuchung neu' },
      'POST /api/companies/{companyId}/api-tokens': { name: 'Leitsystem', role: 'heating' },
      'PUT /api/companies/{companyId}/buildings/{buildingId}/report-settings': {
        heatedAreaM2: 1200,
        maxHeatingHoursPerDegreeDay: 0.5,
        maxBelowComfortShare: 0.1,
      },
      'PUT /api/companies/{companyId}/buildings/{buildingId}/meter-readings': {
        month: '2026-10',
        carrier: 'gas',
        kwh: 18_500,
      },
      'PUT /api/companies/{companyId}/reports/subscription': { subscribed: true },
      'POST /api/companies/{companyId}/buildings/{buildingId}/meter-readings/import': {
        csv: 'month,carrier,kwh\n2026-09,oil,900\n',
      },
      'POST /api/public/heating-view/{token}/setpoint': { setpoint: 20 },
      'POST /api/public/heating-view/{token}/feedback': { feeling: 'too_cold' },
      'POST /api/public/client-errors': {
        kind: 'error',
        message: 'TypeError: x is undefined',
        path: '/units',
      },
      'POST /api/companies/{companyId}/billing/quote': { interval: 'monthly', licences: 3 },
      'POST /api/companies/{companyId}/billing/checkout': {
        interval: 'monthly',
        licences: 3,
        paymentMethod: 'immediate',
      },
      'PATCH /api/companies/{companyId}/billing/subscription': { licences: 12 },
      'PUT /api/companies/{companyId}/billing/address': {
        name: 'Stadtwerke Süd GmbH',
        street: 'Hauptstraße 1',
        postcode: '80331',
        city: 'München',
        country: 'DE',
        vatId: 'DE123456789',
      },
      'POST /api/companies/{companyId}/alerts/{alertId}/acknowledge': { note: 'Techniker bestellt' },
      'POST /api/companies/{companyId}/alerts/{alertId}/mute': { hours: 4 },
      'PATCH /api/companies/{companyId}/alert-settings': { clearMinutes: 5 },
      'PATCH /api/companies/{companyId}/alert-preferences': { low_battery: 'digest' },
      'POST /api/companies/{companyId}/webhooks': { url: 'https://hooks.example.test/more' },
      'PATCH /api/companies/{companyId}/webhooks/{webhookId}': { enabled: false },
      'PUT /api/companies/{companyId}/imports/{kind}/mapping': {
        mapping: { devEui: 'dev_eui', appKey: 'app_key' },
        defaults: { model: 'mclimate-vicki' },
      },
    },
  };
}

/**
 * Tables a read may fill: a value derived from the data, computed when first read after its
 * inputs changed (decision 0069). Filling them changes no data, and a change is read before it is
 * made (the audit log's "before", decision 0059), so a refused change may fill them too.
 */
const READ_FILLED_CACHES = new Set(['building_heating_starts']);

/**
 * A fingerprint of every row of every table but the read-filled caches: equal fingerprints mean
 * no data changed.
 * One md5 per table over its rows as text, sorted, so it works the same on PGlite and PostgreSQL.
 */
export async function dataFingerprint(t: TestApp): Promise<Record<string, string>> {
  // Both drivers answer `{ rows }`; Drizzle's common type does not say so.
  const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;
  let query = fingerprintQueries.get(t.database);
  if (!query) {
    const tables = rowsOf<{ name: string }>(
      await t.database.db.execute(
        sql`select table_name as name from information_schema.tables
            where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
      ),
    ).filter(({ name }) => !READ_FILLED_CACHES.has(name));
    // One statement for every table: the walks take a fingerprint before and after each of
    // ~150 operations, and 80 round trips each cost more than the digests themselves.
    query = sql.join(
      tables.map(
        ({ name }) =>
          sql`select ${name}::text as name, md5(coalesce(string_agg(r::text, ',' order by r::text), '')) as digest from ${sql.identifier(name)} r`,
      ),
      sql` union all `,
    );
    fingerprintQueries.set(t.database, query);
  }
  const result: Record<string, string> = {};
  for (const row of rowsOf<{ name: string; digest: string }>(await t.database.db.execute(query))) {
    result[row.name] = row.digest ?? '';
  }
  return result;
}

const fingerprintQueries = new WeakMap<object, SQL>();

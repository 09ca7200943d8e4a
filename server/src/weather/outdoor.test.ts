/**
 * Outdoor temperature per building (decision 0057): coordinates on the buildings API, the sync
 * from a provider stand-in into hourly rows (observed replaces forecast, never the reverse; a
 * failed fetch keeps what was stored and is retried; each building once an hour), the building's
 * current outdoor temperature, a move that forgets the old place's weather, and the demo's
 * stand-in endpoint speaking Bright Sky.
 */
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replayedOutdoorAt } from '../../../tools/simulator/outdoor-winter.ts';
import { testClock, testInstant } from '../../test/clock.ts';
import { buildTestApp, type TestApp } from '../../test/helpers.ts';
import { buildingOutdoorTemperatures, buildings } from '../db/schema.ts';
import { seedCompanies } from '../modules/units/heating-test-fixtures.ts';
import { saveOutdoorHours } from './outdoor-store.repository.ts';
import { syncOutdoorDue } from './outdoor-sync.ts';
import { brightSky } from './providers.ts';
import { startWeatherStandIn, type WeatherStandIn } from './weather-stand-in.test-kit.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const quiet = { warn: () => {} };

describe('outdoor temperature per building', () => {
  let t: TestApp;
  let c: string;
  let companyId: string;
  let standIn: WeatherStandIn;
  // The app's clock; the sync's runs 2 h ahead of it, so the app's "now" is an observed hour.
  const clock = testClock(testInstant('2026-12-02T12:00:00+01:00'));
  const startHour = Math.floor(clock.now().getTime() / HOUR) * HOUR + 2 * HOUR;
  let now = new Date(startHour + 20 * 60_000);
  const call: TestApp['call'] = (...args) => t.call(...args);
  const rowsOf = (buildingId: string) =>
    t.database.db
      .select()
      .from(buildingOutdoorTemperatures)
      .where(eq(buildingOutdoorTemperatures.buildingId, buildingId))
      .orderBy(asc(buildingOutdoorTemperatures.at));
  const sync = () => syncOutdoorDue(t.database.db, () => brightSky(standIn.url), quiet, now);

  beforeAll(async () => {
    t = await buildTestApp({}, { clock: clock.now });
    standIn = await startWeatherStandIn(() => now);
    ({ companyId } = await seedCompanies(t.database.db));
    c = `/api/companies/${companyId}`;
  });
  afterAll(async () => {
    await standIn.close();
    await t.close();
  });

  it('takes coordinates only as a pair within their ranges', async () => {
    for (const [body, field] of [
      [{ name: 'Halle', state: 'BY', latitude: 48.1 }, 'body.longitude'],
      [{ name: 'Halle', state: 'BY', latitude: 91, longitude: 11 }, 'body.latitude'],
      [{ name: 'Halle', state: 'BY', latitude: 48, longitude: -181 }, 'body.longitude'],
    ] as const) {
      const res = await call('POST', `${c}/buildings`, body);
      expect(res.statusCode).toBe(400);
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect(res.json().errors[0].field).toBe(field);
    }
    const plain = (await call('POST', `${c}/buildings`, { name: 'Halle', state: 'BY' })).json();
    const half = await call('PATCH', `${c}/buildings/${plain.id}`, { latitude: 48.1 });
    expect(half.statusCode).toBe(400);
    expect(half.json().errors[0].field).toBe('body.longitude');
  });

  it('fetches 30 days back and 8 ahead once an hour, observed up to now, and shows the current value', async () => {
    const building = (
      await call('POST', `${c}/buildings`, {
        name: 'Schule',
        state: 'BY',
        latitude: 48.1598,
        longitude: 11.5856,
      })
    ).json();
    expect(building).toMatchObject({ latitude: 48.1598, longitude: 11.5856, outdoor: null });

    // Only the building with coordinates is fetched ("Halle" has none).
    expect(await sync()).toEqual({ synced: 1, failed: 0 });
    const rows = await rowsOf(building.id);
    const first = Math.floor((now.getTime() - 30 * DAY) / HOUR) * HOUR;
    const last = Math.floor((now.getTime() + 8 * DAY) / HOUR) * HOUR - HOUR;
    expect(rows.length).toBe((last - first) / HOUR + 1);
    expect(rows[0]?.at.getTime()).toBe(first);
    expect(rows.at(-1)?.at.getTime()).toBe(last);
    expect(new Set(rows.map((r) => r.companyId))).toEqual(new Set([companyId]));
    const observed = rows.filter((r) => r.kind === 'observed');
    expect(observed.at(-1)?.at).toEqual(new Date(startHour));
    expect(rows.find((r) => r.at.getTime() === observed.length * HOUR + first)?.kind).toBe('forecast');
    // Within the hour nothing is due again: one request series, not two.
    const requests = standIn.requests.length;
    expect(await sync()).toEqual({ synced: 0, failed: 0 });
    expect(standIn.requests.length).toBe(requests);

    const read = (await call('GET', `${c}/buildings/${building.id}`)).json();
    const at = Date.parse(read.outdoor.at);
    expect(clock.now().getTime() - at).toBeLessThan(HOUR);
    expect(read.outdoor).toEqual({
      temperature: Math.round(replayedOutdoorAt(at) * 10) / 10,
      at: new Date(at).toISOString(),
      kind: 'observed',
      provider: 'brightsky',
    });
    expect((await call('GET', `${c}/buildings/${building.id}`, undefined, 'mallory')).statusCode).toBe(404);
  });

  it('replaces a forecast by the observation of its hour, never an observation by a forecast', async () => {
    const [building] = await t.database.db.select().from(buildings).where(eq(buildings.name, 'Schule'));
    const id = building?.id as string;
    const at = new Date(startHour + HOUR);
    const hour = async () =>
      (
        await t.database.db
          .select()
          .from(buildingOutdoorTemperatures)
          .where(and(eq(buildingOutdoorTemperatures.buildingId, id), eq(buildingOutdoorTemperatures.at, at)))
      )[0];
    expect((await hour())?.kind).toBe('forecast');
    now = new Date(startHour + HOUR + 40 * 60_000);
    await t.database.db.update(buildings).set({ outdoorSyncAt: null }).where(eq(buildings.id, id));
    expect(await sync()).toEqual({ synced: 1, failed: 0 });
    // The second run asked only from 3 hours before the last observation on.
    expect((standIn.requests.at(-1) as URL).searchParams.get('date')).toBe(
      new Date(startHour - 3 * HOUR).toISOString(),
    );
    expect((await hour())?.kind).toBe('observed');
    await saveOutdoorHours(t.database.db, { id, companyId }, 'brightsky', [
      { at, temperature: 30, kind: 'forecast' },
    ]);
    expect(await hour()).toMatchObject({
      kind: 'observed',
      temperature: Math.round(replayedOutdoorAt(at.getTime()) * 10) / 10,
    });
  });

  it('keeps what it has when the provider fails and tries again after 15 minutes', async () => {
    const [building] = await t.database.db.select().from(buildings).where(eq(buildings.name, 'Schule'));
    const id = building?.id as string;
    const before = (await rowsOf(id)).length;
    await t.database.db.update(buildings).set({ outdoorSyncAt: null }).where(eq(buildings.id, id));
    standIn.status = 503;
    expect(await sync()).toEqual({ synced: 0, failed: 1 });
    standIn.status = null;
    expect((await rowsOf(id)).length).toBe(before);
    const [after] = await t.database.db.select().from(buildings).where(eq(buildings.id, id));
    expect(after?.outdoorSyncAt?.getTime()).toBe(now.getTime() + 15 * 60_000);
  });

  it('forgets the weather of the old place when the building moves and fetches the new one', async () => {
    const [building] = await t.database.db.select().from(buildings).where(eq(buildings.name, 'Schule'));
    const id = building?.id as string;
    const moved = await call('PATCH', `${c}/buildings/${id}`, { latitude: 52.52, longitude: 13.405 });
    expect(moved.json()).toMatchObject({ latitude: 52.52, longitude: 13.405, outdoor: null });
    expect(await rowsOf(id)).toEqual([]);
    expect(await sync()).toEqual({ synced: 1, failed: 0 });
    expect((standIn.requests.at(-1) as URL).searchParams.get('lat')).toBe('52.52');
    // Other fields leave the weather alone.
    const count = (await rowsOf(id)).length;
    await call('PATCH', `${c}/buildings/${id}`, { name: 'Schule Mitte' });
    expect((await rowsOf(id)).length).toBe(count);
  });

  it("serves the demo's stand-in in Bright Sky's format and refuses a range over 31 days", async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/public/demo/weather?lat=48.16&lon=11.59&date=2026-11-26T06:00:00%2B00:00&last_date=2026-11-26T08:00:00%2B00:00',
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.weather.map((w: { timestamp: string }) => w.timestamp)).toEqual([
      '2026-11-26T06:00:00+00:00',
      '2026-11-26T07:00:00+00:00',
    ]);
    expect(body.sources.map((s: { observation_type: string }) => s.observation_type)).toEqual([
      'historical',
      'forecast',
    ]);
    const long = await t.app.inject({
      method: 'GET',
      url: '/api/public/demo/weather?lat=48&lon=11&date=2026-01-01&last_date=2026-03-01',
    });
    expect(long.statusCode).toBe(400);
    expect(long.json().errors[0].field).toBe('querystring.last_date');
  });
});

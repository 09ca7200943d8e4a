/**
 * Booking feeds API and sync (decision 0053) against a local calendar stand-in: CRUD with the
 * password kept secret, rooms of another company, strangers and readers; the feeds of a
 * building's rooms; the address guard (private addresses refused unless FEEDS_ALLOW_PRIVATE, the
 * app's own origin allowed); syncs that succeed (rules applied, rooms due, scheduler woken), fail
 * (HTTP 500, too large, a private address, no iCalendar — each with its code and params, cleared
 * by the next success) or read CalDAV; a stale feed's bookings left out of the preview with an
 * alert, both undone when it is fresh again; the scheduler sending a booking's setpoint; each due
 * feed claimed once. Times are relative to the real clock because
 * the API uses it.
 */
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { testClock, testInstant } from '../../../test/clock.ts';
import { buildTestApp, type TestApp } from '../../../test/helpers.ts';
import { alerts, bookingFeeds, bookings, devices, heatingLog, units } from '../../db/schema.ts';
import { databaseDeviceDirectory } from '../../heating/device-directory.ts';
import { HeatingScheduler } from '../../heating/scheduler.ts';
import type { SetpointCommand } from '../../heating/setpoint-sink.ts';
import { evaluateAll } from '../alerts/alert-evaluation.repository.ts';
import { addMember, expectProblem } from '../me/account.fixtures.ts';
import { allYearPlan, seedCompanies } from '../units/heating-test-fixtures.ts';
import { claimDueFeeds } from './booking-feeds.repository.ts';
import {
  CALDAV_PASSWORD,
  type CalendarStandIn,
  icsOf,
  startCalendarStandIn,
} from './calendar-stand-in.test-kit.ts';
import { parseBookings, stableUuid } from './ics.ts';

const MINUTE = 60_000;
const FEED_FOR_DEMO = '00000000-0000-4000-8000-00000000d3e0';
const HOUR = 60 * MINUTE;

interface Step {
  at: string;
  setpoint: number;
  source: string;
  bookingId: string | null;
}

describe('booking feeds', () => {
  let t: TestApp;
  let cal: CalendarStandIn;
  let c: string;
  let companyId: string;
  let room: string;
  let corridor: string;
  let foreignUnit: string;
  let otherCompanyId: string;
  // A Wednesday noon: fetch windows, staleness, previews and the demo calendar read this clock.
  const clock = testClock(testInstant('2026-12-02T12:00:00+01:00'));
  /** Bookings relative to now: a meeting in 3 h, a 15-minute call and a cleaning slot later on. */
  const base = new Date(Math.ceil((clock.now().getTime() + 3 * HOUR) / MINUTE) * MINUTE);
  const meeting = { uid: 'meeting@test', title: 'Elternabend', start: base, end: new Date(+base + 2 * HOUR) };
  const call = {
    uid: 'call@test',
    title: 'Telefonat',
    start: new Date(+base + 5 * HOUR),
    end: new Date(+base + 5 * HOUR + 15 * MINUTE),
  };
  const cleaning = {
    uid: 'clean@test',
    title: 'Reinigung – nicht heizen',
    start: new Date(+base + 7 * HOUR),
    end: new Date(+base + 8 * HOUR),
  };
  const later = {
    uid: 'later@test',
    title: 'Jahresversammlung',
    start: new Date(+base + 20 * 24 * HOUR),
    end: new Date(+base + 20 * 24 * HOUR + HOUR),
  };
  const api: TestApp['call'] = (...args) => t.call(...args);
  const feedBody = (name: string, extra: object = {}) => ({
    name: 'Raumbuchung',
    unitId: room,
    url: `${cal.origin}/cal/${name}.ics`,
    ...extra,
  });
  const create = async (body: object) => {
    const res = await api('POST', `${c}/booking-feeds`, body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: string };
  };
  const sync = async (feedId: string) => {
    const res = await api('POST', `${c}/booking-feeds/${feedId}/sync`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const preview = async (unitId: string) => {
    const res = await api('GET', `${c}/units/${unitId}/preview?days=1`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { initial: Step; changes: Step[]; bookings: { id: string; title: string }[] };
  };
  const bookingSteps = (p: { changes: Step[] }) => p.changes.filter((s) => s.source === 'booking');
  const dueUnits = async () =>
    (await t.database.db.select({ id: units.id, next: units.nextChangeAt }).from(units))
      .filter((u) => u.next !== null)
      .map((u) => u.id);

  beforeAll(async () => {
    cal = await startCalendarStandIn();
    t = await buildTestApp({ FEEDS_ALLOW_PRIVATE: 'true' }, { clock: clock.now });
    ({ companyId, otherCompanyId } = await seedCompanies(t.database.db));
    c = `/api/companies/${companyId}`;
    room = (await api('POST', `${c}/units`, { name: 'Aula' })).json().id;
    corridor = (await api('POST', `${c}/units`, { name: 'Flur' })).json().id;
    for (const id of [room, corridor])
      expect((await api('POST', `${c}/units/${id}/plans`, allYearPlan(18))).statusCode).toBe(201);
    foreignUnit = (
      await api('POST', `/api/companies/${otherCompanyId}/units`, { name: 'Fremd' }, 'mallory')
    ).json().id;
    await addMember(t, companyId, 'erin', 'ems');
  });
  afterAll(async () => {
    await t.close();
    await cal.close();
  });

  it('creates a feed with the defaults, pending, its linked rooms without duplicates or its own room', async () => {
    const res = await api('POST', `${c}/booking-feeds`, {
      ...feedBody('room'),
      linkedUnitIds: [corridor, corridor, room],
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toEqual({
      id: expect.any(String),
      name: 'Raumbuchung',
      kind: 'ics',
      unit: { id: room, name: 'Aula' },
      linkedUnits: [{ id: corridor, name: 'Flur' }],
      url: `${cal.origin}/cal/room.ics`,
      username: '',
      hasPassword: false,
      minDurationMinutes: 0,
      ignoreKeyword: 'nicht heizen',
      preheatMinutes: 30,
      temperature: null,
      status: 'pending',
      lastSyncAt: null,
      lastSuccessAt: null,
      lastError: null,
      lastErrorCode: null,
      lastErrorParams: null,
      bookingCount: 0,
      createdAt: expect.any(String),
      createdBy: { id: 'alice', name: 'Alice' },
    });
  });

  it('keeps a CalDAV password encrypted and never answers it; a password in the URL is shown as ***', async () => {
    const feed = await create({
      ...feedBody('room'),
      kind: 'caldav',
      url: `http://bob:geheimes-url-wort@127.0.0.1:1/remote.php/dav/calendars/bob/raum/`,
      username: 'alice',
      password: 'sehr-geheim',
    });
    const read = await api('GET', `${c}/booking-feeds/${feed.id}`);
    expect(read.json()).toMatchObject({
      url: 'http://bob:***@127.0.0.1:1/remote.php/dav/calendars/bob/raum/',
      username: 'alice',
      hasPassword: true,
    });
    expect(read.body).not.toContain('sehr-geheim');
    expect(read.body).not.toContain('geheimes-url-wort');
    const [row] = await t.database.db.select().from(bookingFeeds).where(eq(bookingFeeds.id, feed.id));
    expect(row?.password).toMatch(/^v1:/);
    expect(row?.password).not.toContain('sehr-geheim');
    // The masked URL sent back unchanged keeps the stored one (and the feed's status).
    const patched = await api('PATCH', `${c}/booking-feeds/${feed.id}`, {
      url: read.json().url,
      name: 'CalDAV',
    });
    expect(patched.statusCode, patched.body).toBe(200);
    const [after] = await t.database.db.select().from(bookingFeeds).where(eq(bookingFeeds.id, feed.id));
    expect(after?.url).toBe(row?.url);
    expect(after?.password).toBe(row?.password);
    expect((await api('DELETE', `${c}/booking-feeds/${feed.id}`)).statusCode).toBe(204);
  });

  it('lists the feeds of a room (own or linked), patches only the fields given, deletes', async () => {
    const feed = await create({ ...feedBody('room'), name: 'Zum Löschen', linkedUnitIds: [corridor] });
    const ofCorridor = (await api('GET', `${c}/booking-feeds?unitId=${corridor}`)).json();
    expect(ofCorridor.results.map((f: { id: string }) => f.id)).toContain(feed.id);
    const before = (await api('GET', `${c}/booking-feeds/${feed.id}`)).json();
    const patched = await api('PATCH', `${c}/booking-feeds/${feed.id}`, { preheatMinutes: 45 });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toEqual({ ...before, preheatMinutes: 45 });
    expect((await api('DELETE', `${c}/booking-feeds/${feed.id}`)).statusCode).toBe(204);
    expect(expectProblem(await api('GET', `${c}/booking-feeds/${feed.id}`), 404)).toMatchObject({
      code: 'unknown_booking_feed',
    });
    const left = (await api('GET', `${c}/booking-feeds?unitId=${corridor}`)).json();
    expect(left.results.map((f: { id: string }) => f.id)).not.toContain(feed.id);
  });

  it("lists a building's feeds: its rooms as own or linked room; 404 unknown_building for another company's", async () => {
    const building = async (name: string) =>
      (await api('POST', `${c}/buildings`, { name, state: 'BY', floors: [] })).json().id as string;
    const main = await building('Hauptgebäude');
    const annex = await building('Nebengebäude');
    const unit = async (name: string, buildingId?: string) =>
      (await api('POST', `${c}/units`, { name, ...(buildingId ? { buildingId } : {}) })).json().id as string;
    const hall = await unit('Saal', main);
    const wc = await unit('WC', main);
    const shed = await unit('Werkstatt', annex);
    const outside = await unit('Container');
    const feeds = {
      hall: (await create({ ...feedBody('room'), name: 'Saal', unitId: hall })).id,
      shed: (await create({ ...feedBody('room'), name: 'Werkstatt', unitId: shed, linkedUnitIds: [wc] })).id,
      outside: (
        await create({ ...feedBody('room'), name: 'Container', unitId: outside, linkedUnitIds: [shed] })
      ).id,
      nowhere: (await create({ ...feedBody('room'), name: 'Nirgends', unitId: outside })).id,
    };
    const listed = async (buildingId: string) => {
      const page = (await api('GET', `${c}/booking-feeds?buildingId=${buildingId}`)).json();
      const names = page.results.map((f: { id: string }) =>
        Object.keys(feeds).find((k) => feeds[k as keyof typeof feeds] === f.id),
      );
      return { count: page.count, names };
    };
    // By name: "Container", "Saal", "Werkstatt".
    expect(await listed(main)).toEqual({ count: 2, names: ['hall', 'shed'] });
    expect(await listed(annex)).toEqual({ count: 2, names: ['outside', 'shed'] });

    const foreign = (
      await api(
        'POST',
        `/api/companies/${otherCompanyId}/buildings`,
        { name: 'Fremd', state: 'BE', floors: [] },
        'mallory',
      )
    ).json().id;
    for (const buildingId of [foreign, '00000000-0000-4000-8000-000000000bad'])
      expect(
        expectProblem(await api('GET', `${c}/booking-feeds?buildingId=${buildingId}`), 404),
      ).toMatchObject({ code: 'unknown_building' });
    expect(
      expectProblem(
        await api(
          'GET',
          `/api/companies/${otherCompanyId}/booking-feeds?buildingId=${main}`,
          undefined,
          'mallory',
        ),
        404,
      ),
    ).toMatchObject({ code: 'unknown_building' });
    expectProblem(await api('GET', `${c}/booking-feeds?buildingId=${main}`, undefined, 'mallory'), 404);
    for (const id of Object.values(feeds)) await api('DELETE', `${c}/booking-feeds/${id}`);
  });

  it('answers 404 unknown_unit for a room of another company, 404 to a stranger and 403 to a reader', async () => {
    const n = async () => (await t.database.db.select({ n: count() }).from(bookingFeeds))[0]?.n;
    const before = await n();
    for (const body of [
      feedBody('room', { unitId: foreignUnit }),
      feedBody('room', { linkedUnitIds: [foreignUnit] }),
    ]) {
      expect(expectProblem(await api('POST', `${c}/booking-feeds`, body), 404)).toMatchObject({
        code: 'unknown_unit',
      });
    }
    expect(await n()).toBe(before);
    const feed = await create(feedBody('room'));
    expect(
      expectProblem(await api('PATCH', `${c}/booking-feeds/${feed.id}`, { unitId: foreignUnit }), 404),
    ).toMatchObject({ code: 'unknown_unit' });
    expectProblem(await api('GET', `${c}/booking-feeds/${feed.id}`, undefined, 'mallory'), 404);
    expectProblem(await api('POST', `${c}/booking-feeds/${feed.id}/sync`, undefined, 'mallory'), 404);
    expect((await api('GET', `${c}/booking-feeds/${feed.id}/bookings`, undefined, 'erin')).statusCode).toBe(
      200,
    );
    expectProblem(await api('POST', `${c}/booking-feeds/${feed.id}/sync`, undefined, 'erin'), 403);
    expectProblem(await api('POST', `${c}/booking-feeds`, feedBody('room'), 'erin'), 403);
    await api('DELETE', `${c}/booking-feeds/${feed.id}`);
  });

  it('syncs: bookings with the rules applied, the rooms marked due and the scheduler woken; the next 14 days listed', async () => {
    cal.calendars.set('rules', icsOf([meeting, call, cleaning, later]));
    const feed = await create({ ...feedBody('rules'), linkedUnitIds: [corridor], minDurationMinutes: 30 });
    await t.database.db.update(units).set({ nextChangeAt: null });
    const wake = vi.fn();
    t.ports.wake = wake;
    const synced = await sync(feed.id);
    expect(synced).toMatchObject({ status: 'ok', lastError: null, bookingCount: 2 });
    expect(synced.lastSuccessAt).toBe(synced.lastSyncAt);
    expect((await dueUnits()).sort()).toEqual([room, corridor].sort());
    expect(wake).toHaveBeenCalled();
    const listed = (await api('GET', `${c}/booking-feeds/${feed.id}/bookings`)).json();
    expect(listed.results).toEqual([
      {
        id: stableUuid(feed.id, 'meeting@test', ''),
        title: 'Elternabend',
        start: meeting.start.toISOString(),
        end: meeting.end.toISOString(),
        heats: true,
      },
      expect.objectContaining({ title: 'Telefonat', heats: false }),
      expect.objectContaining({ title: 'Reinigung – nicht heizen', heats: false }),
    ]);
    // The same calendar again changes nothing the engine reads: no room is marked due.
    await t.database.db.update(units).set({ nextChangeAt: null });
    await sync(feed.id);
    expect(await dueUnits()).toEqual([]);
    // New rules apply to the stored bookings at once.
    const patched = await api('PATCH', `${c}/booking-feeds/${feed.id}`, {
      minDurationMinutes: 0,
      ignoreKeyword: '',
    });
    expect(patched.json()).toMatchObject({ bookingCount: 4, status: 'ok' });
    await api('DELETE', `${c}/booking-feeds/${feed.id}`);
    t.ports.wake = undefined;
  });

  it('keeps a booking that ended when the calendar drops it, so the heating log still names it; open ones follow the calendar', async () => {
    const ended = {
      uid: 'ended@test',
      title: 'Chorprobe',
      start: new Date(clock.now().getTime() - 3 * HOUR),
      end: new Date(clock.now().getTime() - HOUR),
    };
    cal.calendars.set('history', icsOf([ended, meeting]));
    const feed = await create(feedBody('history'));
    await sync(feed.id);
    const endedId = stableUuid(feed.id, 'ended@test', '');
    await t.database.db.insert(heatingLog).values({
      companyId,
      unitId: room,
      kind: 'booking',
      oldSetpoint: 18,
      newSetpoint: 21,
      at: new Date(ended.start.getTime() - 30 * MINUTE),
      details: { bookingId: endedId },
    });
    // The calendar drops both: the one that ended stays as it heated, the coming one goes.
    cal.calendars.set('history', icsOf([]));
    await sync(feed.id);
    const stored = await t.database.db.select().from(bookings).where(eq(bookings.feedId, feed.id));
    expect(stored.map((b) => b.title)).toEqual(['Chorprobe']);
    // A rule that would no longer heat it leaves it as it was.
    await api('PATCH', `${c}/booking-feeds/${feed.id}`, { ignoreKeyword: 'Chorprobe' });
    const [kept] = await t.database.db.select().from(bookings).where(eq(bookings.id, endedId));
    expect(kept?.heats).toBe(true);
    const log = (await api('GET', `${c}/units/${room}/log`)).json() as {
      results: { booking?: { title: string; start: string } }[];
    };
    expect(log.results.find((e) => e.booking)?.booking).toMatchObject({
      title: 'Chorprobe',
      start: ended.start.toISOString(),
    });
    await api('DELETE', `${c}/booking-feeds/${feed.id}`);
  });

  it('records a failed fetch as stale with its code, keeping the last bookings: HTTP 500, too large, no iCalendar, a private address', async () => {
    cal.calendars.set('flaky', icsOf([meeting]));
    const feed = await create(feedBody('flaky'));
    const ok = await sync(feed.id);
    cal.statuses.set('flaky', 500);
    await t.database.db.update(units).set({ nextChangeAt: null });
    const failed = await sync(feed.id);
    expect(failed).toMatchObject({
      status: 'stale',
      lastError: 'The server answered HTTP 500 Internal Server Error',
      lastErrorCode: 'feed_http_status',
      lastErrorParams: { status: 500, statusText: 'Internal Server Error' },
      lastSuccessAt: ok.lastSuccessAt,
      bookingCount: 1,
    });
    // Its bookings stop counting: the room is evaluated again.
    expect(await dueUnits()).toEqual([room]);
    expect((await api('GET', `${c}/booking-feeds/${feed.id}/bookings`)).json().results).toHaveLength(1);
    // Answering a login page instead of the calendar is a failure of its own …
    cal.statuses.delete('flaky');
    cal.calendars.set('flaky', '<!doctype html><title>Anmelden</title>');
    expect(await sync(feed.id)).toMatchObject({
      status: 'stale',
      lastError: 'The answer is no iCalendar data (it does not begin with BEGIN:VCALENDAR).',
      lastErrorCode: 'feed_not_icalendar',
      lastErrorParams: {},
    });
    // … and the next success clears the reason with its code.
    cal.calendars.set('flaky', icsOf([meeting]));
    expect(await sync(feed.id)).toMatchObject({
      status: 'ok',
      lastError: null,
      lastErrorCode: null,
      lastErrorParams: null,
    });

    const big = await create({ ...feedBody('big'), url: `${cal.origin}/big.ics` });
    expect(await sync(big.id)).toMatchObject({
      status: 'stale',
      lastError: 'The answer is larger than 5 MB.',
      lastErrorCode: 'feed_too_large',
      lastErrorParams: { megabytes: 5 },
    });

    // Without FEEDS_ALLOW_PRIVATE a private address is refused when the feed is saved …
    const strict = await buildTestApp({}, { clock: clock.now });
    try {
      const { companyId: strictCompany } = await seedCompanies(strict.database.db);
      const sc = `/api/companies/${strictCompany}`;
      const unit = (await strict.call('POST', `${sc}/units`, { name: 'Saal' })).json().id;
      const refused = await strict.call('POST', `${sc}/booking-feeds`, {
        name: 'Intern',
        unitId: unit,
        url: `${cal.origin}/cal/flaky.ics`,
      });
      expect(expectProblem(refused, 400)).toMatchObject({
        code: 'booking_feed_address_private',
        params: { address: '127.0.0.1' },
      });
      // … the app's own origin (PUBLIC_URL) is allowed: the demo's calendar is served there …
      const own = await strict.call('POST', `${sc}/booking-feeds`, {
        name: 'Demo',
        unitId: unit,
        url: 'http://localhost:3000/api/public/demo/bookings.ics',
      });
      expect(own.statusCode, own.body).toBe(201);
      // … and a stored feed on a private address is refused when it is fetched.
      await strict.database.db
        .update(bookingFeeds)
        .set({ url: `${cal.origin}/cal/flaky.ics` })
        .where(eq(bookingFeeds.id, own.json().id));
      const hits = cal.hits.get('/cal/flaky.ics') ?? 0;
      const res = await strict.call('POST', `${sc}/booking-feeds/${own.json().id}/sync`);
      expect(res.json()).toMatchObject({
        status: 'stale',
        lastError: '127.0.0.1 is not a public address; only public addresses are fetched.',
        lastErrorCode: 'feed_private_address',
        lastErrorParams: { address: '127.0.0.1' },
      });
      expect(cal.hits.get('/cal/flaky.ics') ?? 0).toBe(hits);
    } finally {
      await strict.close();
    }
    await api('DELETE', `${c}/booking-feeds/${feed.id}`);
    await api('DELETE', `${c}/booking-feeds/${big.id}`);
  });

  it('a stale feed: its bookings leave the preview and an alert opens; fresh again: both undone', async () => {
    cal.calendars.set('alerting', icsOf([meeting]));
    const feed = await create({ ...feedBody('alerting'), linkedUnitIds: [corridor], temperature: 22 });
    await sync(feed.id);
    const bookingId = stableUuid(feed.id, 'meeting@test', '');
    const heatFrom = new Date(+meeting.start - 30 * MINUTE).toISOString();
    for (const unitId of [room, corridor]) {
      const p = await preview(unitId);
      expect(bookingSteps(p)).toEqual([
        {
          at: heatFrom,
          setpoint: 22,
          source: 'booking',
          ignoreWallControl: false,
          bookingId,
          planId: null,
          eventId: null,
          closureId: null,
        },
      ]);
      expect(p.changes).toContainEqual(
        expect.objectContaining({ at: meeting.end.toISOString(), setpoint: 18, source: 'regular_plan' }),
      );
      expect(p.bookings).toEqual([
        {
          id: bookingId,
          title: 'Elternabend',
          start: meeting.start.toISOString(),
          end: meeting.end.toISOString(),
        },
      ]);
    }

    cal.statuses.set('alerting', 500);
    await sync(feed.id);
    const stale = await preview(room);
    expect(bookingSteps(stale)).toEqual([]);
    expect(stale.bookings).toEqual([]);
    const now = clock.now();
    await evaluateAll(t.database.db, now);
    const listed = (await api('GET', `${c}/alerts?kind=booking_feed_stale&state=open`)).json();
    expect(listed.results).toEqual([
      expect.objectContaining({
        kind: 'booking_feed_stale',
        subject: 'booking_feed',
        subjectId: feed.id,
        subjectName: 'Raumbuchung',
        unitId: room,
        unitName: 'Aula',
        details: expect.objectContaining({
          lastError: 'The server answered HTTP 500 Internal Server Error',
          // Webhook receivers can tell the kind of failure from the code.
          lastErrorCode: 'feed_http_status',
        }),
      }),
    ]);

    cal.statuses.delete('alerting');
    await sync(feed.id);
    expect(bookingSteps(await preview(room))).toHaveLength(1);
    await evaluateAll(t.database.db, new Date(+now + MINUTE));
    await evaluateAll(t.database.db, new Date(+now + 12 * MINUTE));
    const [alert] = await t.database.db.select().from(alerts).where(eq(alerts.subjectId, feed.id));
    expect(alert?.state).toBe('resolved');

    // 24 hours without a successful fetch are stale too.
    await t.database.db
      .update(bookingFeeds)
      .set({ lastSuccessAt: new Date(+now - 25 * HOUR), lastSyncAt: new Date(+now - 25 * HOUR) })
      .where(eq(bookingFeeds.id, feed.id));
    expect((await api('GET', `${c}/booking-feeds/${feed.id}`)).json().status).toBe('stale');
    expect(bookingSteps(await preview(room))).toEqual([]);
    await api('DELETE', `${c}/booking-feeds/${feed.id}`);
  });

  it("sends the booking's setpoint through the scheduler from its pre-heat start, and the plan's after it", async () => {
    cal.calendars.set('scheduled', icsOf([meeting]));
    const feed = await create({ ...feedBody('scheduled'), linkedUnitIds: [corridor], temperature: 22 });
    await sync(feed.id);
    await t.database.db.insert(devices).values(
      [room, corridor].map((unitId, i) => {
        const id = `70b3d52dd50000b${i}`;
        return { id, devEui: id, companyId, model: 'test', unitId };
      }),
    );
    // The scheduler's own time, moved through the booking; the app's clock stays where it is.
    let at = clock.now();
    const sent: SetpointCommand[] = [];
    const scheduler = new HeatingScheduler({
      db: t.database.db,
      sink: { send: async (batch) => void sent.push(...batch) },
      devices: databaseDeviceDirectory(t.database.db),
      logger: { error: () => {} },
      now: () => at,
    });
    await t.database.db.update(units).set({ nextChangeAt: new Date(0) });
    await scheduler.tick();
    sent.length = 0;
    at = new Date(+meeting.start - 30 * MINUTE);
    await scheduler.tick();
    expect(sent.map((s) => [s.unitId, s.reason, s.setpoint]).sort()).toEqual(
      [
        [room, 'booking', 22],
        [corridor, 'booking', 22],
      ].sort(),
    );
    const [entry] = (await api('GET', `${c}/units/${room}/log?limit=1`)).json().results;
    expect(entry).toMatchObject({
      kind: 'booking',
      newSetpoint: 22,
      at: at.toISOString(),
      booking: { title: 'Elternabend', start: meeting.start.toISOString(), end: meeting.end.toISOString() },
    });
    sent.length = 0;
    at = meeting.end;
    await scheduler.tick();
    expect(sent.map((s) => [s.reason, s.setpoint])).toEqual([
      ['regular_plan', 18],
      ['regular_plan', 18],
    ]);
    await api('DELETE', `${c}/booking-feeds/${feed.id}`);
    await t.database.db.delete(devices);
  });

  it("reads a CalDAV collection with basic authentication, as Nextcloud answers; a wrong password is the server's refusal", async () => {
    cal.collections.set('raum', [icsOf([meeting]), icsOf([cleaning])]);
    const feed = await create({
      ...feedBody('raum'),
      kind: 'caldav',
      url: `${cal.origin}/remote.php/dav/calendars/alice/raum/`,
      username: 'alice',
      password: CALDAV_PASSWORD,
    });
    expect(await sync(feed.id)).toMatchObject({ status: 'ok', bookingCount: 1, lastError: null });
    const listed = (await api('GET', `${c}/booking-feeds/${feed.id}/bookings`)).json().results;
    expect(listed.map((b: { title: string; heats: boolean }) => [b.title, b.heats])).toEqual([
      ['Elternabend', true],
      ['Reinigung – nicht heizen', false],
    ]);
    // A new password is a new connection: the old bookings go, the feed is pending until fetched.
    const patched = (await api('PATCH', `${c}/booking-feeds/${feed.id}`, { password: 'falsch' })).json();
    expect(patched).toMatchObject({ status: 'pending', bookingCount: 0, lastSyncAt: null });
    const [{ n } = { n: -1 }] = await t.database.db
      .select({ n: count() })
      .from(bookings)
      .where(eq(bookings.feedId, feed.id));
    expect(Number(n)).toBe(0);
    expect(await sync(feed.id)).toMatchObject({
      status: 'stale',
      lastError: 'The CalDAV server answered 401 Unauthorized.',
      lastErrorCode: 'feed_http_status',
      lastErrorParams: { status: 401, statusText: 'Unauthorized' },
    });
    // The right password again is another new connection: the refusal goes with its code.
    const fixed = (await api('PATCH', `${c}/booking-feeds/${feed.id}`, { password: CALDAV_PASSWORD })).json();
    expect(fixed).toMatchObject({
      status: 'pending',
      lastError: null,
      lastErrorCode: null,
      lastErrorParams: null,
    });
    await api('DELETE', `${c}/booking-feeds/${feed.id}`);
  });

  it("serves the demo's meeting-room calendar without sign-in", async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/public/demo/bookings.ics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    const parsed = parseBookings(
      FEED_FOR_DEMO,
      [res.body],
      'Europe/Berlin',
      clock.now(),
      new Date(clock.now().getTime() + 14 * 24 * HOUR),
    );
    expect(parsed.map((b) => b.title)).toContain('Jour fixe Haustechnik');
    expect(parsed.map((b) => b.title)).toContain('Kundentermin Stadtwerke');
  });

  it('claims each due feed once, however many instances claim at the same time', async () => {
    const ids = await Promise.all([1, 2, 3, 4].map(async () => (await create(feedBody('room'))).id));
    const now = clock.now();
    const claims = await Promise.all([1, 2, 3].map(() => claimDueFeeds(t.database.db, now, 15 * MINUTE, 2)));
    const claimed = claims.flat().map((f) => f.id);
    expect(new Set(claimed).size).toBe(claimed.length);
    expect(claimed.filter((id) => ids.includes(id)).sort()).toEqual([...ids].sort());
    // Claimed once per interval: not again before it has passed.
    expect(await claimDueFeeds(t.database.db, new Date(+now + 14 * MINUTE), 15 * MINUTE, 10)).toEqual([]);
    for (const id of ids) await api('DELETE', `${c}/booking-feeds/${id}`);
  });
});

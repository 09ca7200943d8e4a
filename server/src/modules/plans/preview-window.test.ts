/**
 * The preview reads the engine's inputs as of now and evaluates them for the window asked for
 * ("as of" apart from "for when"): a booking three weeks ahead, of a feed fetched now, heats the
 * room in the preview of its week exactly as the scheduler will heat it then — the feed's 24-hour
 * freshness is measured from now, not from the window's start (decision 0053).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock } from '../../../test/clock.ts';
import { buildTestApp, type TestApp } from '../../../test/helpers.ts';
import {
  type CalendarStandIn,
  icsOf,
  startCalendarStandIn,
} from '../booking-feeds/calendar-stand-in.test-kit.ts';
import { allYearPlan, seedCompanies } from '../units/heating-test-fixtures.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
// Tuesday 1 December 2026, 10:00 in Berlin: the feed is fetched now.
const NOW = new Date('2026-12-01T09:00:00Z');
// Monday 21 December 2026, 17:00–19:00 in Berlin, three weeks ahead.
const concert = {
  uid: 'concert@test',
  title: 'Weihnachtskonzert',
  start: new Date('2026-12-21T16:00:00Z'),
  end: new Date('2026-12-21T18:00:00Z'),
};

interface Step {
  at: string;
  setpoint: number;
  source: string;
  bookingId: string | null;
}

describe('preview of a later week', () => {
  let t: TestApp;
  let cal: CalendarStandIn;
  let c: string;
  let room: string;
  const clock = testClock(NOW);

  beforeAll(async () => {
    cal = await startCalendarStandIn();
    t = await buildTestApp({ FEEDS_ALLOW_PRIVATE: 'true' }, { clock: clock.now });
    const { companyId } = await seedCompanies(t.database.db);
    c = `/api/companies/${companyId}`;
    room = (await t.call('POST', `${c}/units`, { name: 'Aula' })).json().id;
    const plan = await t.call('POST', `${c}/units/${room}/plans`, allYearPlan(16));
    expect(plan.statusCode, plan.body).toBe(201);
    cal.calendars.set('aula', icsOf([concert]));
    const feed = await t.call('POST', `${c}/booking-feeds`, {
      name: 'Raumbuchung',
      unitId: room,
      url: `${cal.origin}/cal/aula.ics`,
      temperature: 21,
    });
    expect(feed.statusCode, feed.body).toBe(201);
    const sync = await t.call('POST', `${c}/booking-feeds/${feed.json().id}/sync`);
    expect(sync.statusCode, sync.body).toBe(200);
  });
  afterAll(async () => {
    await t.close();
    await cal.close();
  });

  const preview = async (from: Date, days = 7) => {
    const res = await t.call('GET', `${c}/units/${room}/preview?from=${from.toISOString()}&days=${days}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { changes: Step[]; bookings: { id: string; title: string }[] };
  };
  const bookingSteps = (p: { changes: Step[] }) => p.changes.filter((s) => s.source === 'booking');

  it('heats for a booking three weeks ahead, pre-heat included, and names it', async () => {
    const week = await preview(new Date('2026-12-20T23:00:00Z'));
    const steps = bookingSteps(week);
    // The feed's default pre-heat: 30 minutes before the booking, at the feed's 21 °C.
    expect(steps).toEqual([
      expect.objectContaining({
        at: new Date(concert.start.getTime() - 30 * 60_000).toISOString(),
        setpoint: 21,
      }),
    ]);
    expect(week.bookings).toEqual([expect.objectContaining({ title: 'Weihnachtskonzert' })]);
    const back = week.changes.find((s) => s.at === concert.end.toISOString());
    expect(back).toMatchObject({ setpoint: 16 });
  });

  it('gives every window that contains the booking the same steps for it', async () => {
    const answers = await Promise.all(
      [14, 17, 19, 20].map(async (daysAhead) => {
        const p = await preview(new Date(NOW.getTime() + daysAhead * DAY), 7);
        return bookingSteps(p).map((s) => [s.at, s.setpoint]);
      }),
    );
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    expect(answers[0]).toHaveLength(1);
  });

  it('drops the booking once the feed has gone stale at the real now, whatever the window', async () => {
    clock.advance(25 * HOUR);
    try {
      expect(bookingSteps(await preview(new Date('2026-12-20T23:00:00Z')))).toEqual([]);
    } finally {
      clock.set(NOW);
    }
  });
});

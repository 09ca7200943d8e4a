/** Heating log (spec §2, §3): kinds translated, old → new setpoint, "you"/name/automatic/anonymous occupant, load more by cursor, company time zone. */
import type { LogEntry, LogPage } from '@heizplan/contracts/heating';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../app/i18n.ts';
import { routes } from '../../app/router.tsx';
import { fixedClock } from '../../test/clock.ts';
import { renderRoutes } from '../../test/render.tsx';
import { type FetchHandler, json, signIn, testCompany, testProfile } from '../../test/signed-in.ts';
import { heatingApi, testUnit } from '../../test/units-fixtures.ts';

/** The screens' clock: the log download's window ends on its day. */
const NOW = new Date('2026-11-24T09:00:00Z');

const unit = testUnit({ name: 'Aula' });
const logUrl = `/api/companies/c1/units/${unit.id}/log`;

const entry = (id: string, over: Partial<LogEntry>): LogEntry => ({
  id,
  kind: 'regular_plan',
  oldSetpoint: 17,
  newSetpoint: 21,
  at: '2026-11-22T05:00:00.000Z',
  actor: null,
  ...over,
});

const firstPage = {
  results: [
    entry('e1', {
      kind: 'web_change',
      oldSetpoint: 21,
      newSetpoint: 21.5,
      actor: { id: 'u1', name: 'Ada Lovelace' },
    }),
    entry('e2', { kind: 'paused', newSetpoint: 8, actor: { id: 'u2', name: 'Grace Hopper' } }),
  ],
  nextCursor: 'cursor-2',
};
const secondPage = {
  results: [
    entry('e3', { oldSetpoint: null }),
    entry('e4', { kind: 'qr_change', oldSetpoint: 21, newSetpoint: 22 }),
  ],
  nextCursor: null,
};

function open(company = testCompany(), lang: 'de' | 'en' = 'en', page: LogPage = firstPage) {
  const api: FetchHandler = (method, url) => {
    if (method === 'GET' && url === `/api/companies/c1/units/${unit.id}`) return json(200, unit);
    if (method === 'GET' && url === `${logUrl}?limit=20`) return json(200, page);
    if (method === 'GET' && url === `${logUrl}?cursor=cursor-2&limit=20`) return json(200, secondPage);
    return undefined;
  };
  const { session, fetchMock } = signIn({
    profile: testProfile({ lang }),
    extra: heatingApi([unit], api, company),
  });
  return { ...renderRoutes(routes, `/units/${unit.id}/log`, { session, clock: fixedClock(NOW) }), fetchMock };
}

describe('heating log', { timeout: 20_000 }, () => {
  beforeEach(async () => {
    localStorage.clear();
    await setLanguage('en');
  });
  afterEach(() => vi.unstubAllGlobals());

  it('shows "you" for the signed-in member, the name of another, and loads more until the end', async () => {
    open();
    expect(await screen.findByTestId('log-actor-e1')).toHaveTextContent('you');
    expect(screen.getByTestId('log-actor-e2')).toHaveTextContent('Grace Hopper');
    const first = within(screen.getByTestId('log-entry-e1'));
    expect(first.getByText('Web interface change')).toBeVisible();
    expect(screen.getByTestId('log-setpoints-e1')).toHaveTextContent('21.0 °C → 21.5 °C');
    expect(screen.queryByTestId('log-entry-e3')).toBeNull();

    await userEvent.click(screen.getByTestId('log-load-more'));
    // The scheduler's step says so instead of "anonymous"; an occupant on the QR page stays anonymous.
    expect(await screen.findByTestId('log-actor-e3')).toHaveTextContent('Automatically by Heizplan');
    expect(screen.getByTestId('log-actor-e4')).toHaveTextContent('An occupant via the QR code (anonymous)');
    expect(screen.getByTestId('log-setpoints-e3')).toHaveTextContent('— → 21.0 °C');
    expect(within(screen.getByTestId('log-list')).getAllByRole('listitem')).toHaveLength(4);
    expect(screen.queryByTestId('log-load-more')).toBeNull();
  });

  it("shows times in the company's time zone", async () => {
    open(testCompany({ time_zone: 'America/New_York' }));
    // 05:00 UTC is 00:00 in New York (EST, UTC−5) on 22 Nov 2026.
    expect(await screen.findByTestId('log-entry-e1')).toHaveTextContent('12:00 AM');
    expect(screen.getByText('Times in America/New_York')).toBeVisible();
  });

  it.each([
    { lang: 'de' as const, text: 'Buchung' },
    { lang: 'en' as const, text: 'Booking' },
  ])('names a change by a room booking ($lang)', async ({ lang, text }) => {
    await setLanguage(lang);
    open(testCompany(), lang, { results: [entry('e6', { kind: 'booking' })], nextCursor: null });
    expect(await screen.findByTestId('log-entry-e6')).toHaveTextContent(text);
  });

  it.each([
    { lang: 'de' as const, text: 'Ventil erhält 24,0 °C (Gerät stellt nur ganze Grad ein)' },
    { lang: 'en' as const, text: 'Valve gets 24.0 °C (device sets whole degrees only)' },
  ])(
    'says which setpoint the valves got where their model adjusted a change ($lang)',
    async ({ lang, text }) => {
      await setLanguage(lang);
      const adjusted = entry('e4', {
        newSetpoint: 23.5,
        delivered: [{ setpoint: 24, reason: 'step', step: 1, devices: 1 }],
      });
      open(testCompany(), lang, { results: [adjusted, entry('e5', {})], nextCursor: null });
      expect(await screen.findByTestId('log-delivered-e4')).toHaveTextContent(text);
      expect(screen.queryByTestId('log-delivered-e5')).toBeNull();
    },
  );

  it('names what decided each entry: the closure, the holiday, the booking with its times, the event', async () => {
    const named: LogPage = {
      results: [
        entry('n1', {
          kind: 'closure',
          newSetpoint: 8,
          closure: { id: 'c9', name: 'Betriebsurlaub', mode: 'frost', kind: 'closure' },
        }),
        entry('n2', {
          kind: 'closure',
          newSetpoint: 8,
          closure: {
            id: 'school:b1:2026-12-24',
            name: 'Weihnachtsferien (Bayern)',
            mode: 'frost',
            kind: 'school_holiday',
          },
        }),
        entry('n3', {
          kind: 'booking',
          newSetpoint: 21,
          booking: {
            id: 'b1',
            title: 'Elternabend',
            start: '2026-11-26T18:00:00.000Z',
            end: '2026-11-26T20:00:00.000Z',
          },
        }),
        entry('n4', { kind: 'one_time_start', newSetpoint: 23, event: { id: 'e1', title: 'Sommerfest' } }),
        entry('n5', { kind: 'regular_plan' }),
      ],
      nextCursor: null,
    };
    open(testCompany(), 'de', named);
    await setLanguage('de');
    expect(await screen.findByTestId('log-source-n1')).toHaveTextContent(
      'Schließzeit: Betriebsurlaub — Frostschutz',
    );
    expect(screen.getByTestId('log-source-n2')).toHaveTextContent('Weihnachtsferien (Bayern) — Frostschutz');
    // The booking's own times in the company's zone (Berlin: UTC+1 in November).
    expect(screen.getByTestId('log-source-n3')).toHaveTextContent('Buchung: Elternabend 19:00–21:00');
    expect(screen.getByTestId('log-source-n4')).toHaveTextContent('Termin: Sommerfest');
    expect(screen.queryByTestId('log-source-n5')).toBeNull();
  });
});

/** Heating log (spec §2, §3): kinds translated, old → new setpoint, "you"/name/anonymous, load more by cursor, company time zone. */
import type { LogEntry, LogPage } from '@heizplan/contracts/heating';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../app/i18n.ts';
import { routes } from '../../app/router.tsx';
import { renderRoutes } from '../../test/render.tsx';
import { type FetchHandler, json, signIn, testCompany, testProfile } from '../../test/signed-in.ts';
import { heatingApi, testUnit } from '../../test/units-fixtures.ts';

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
const secondPage = { results: [entry('e3', { oldSetpoint: null })], nextCursor: null };

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
  return { ...renderRoutes(routes, `/units/${unit.id}/log`, { session }), fetchMock };
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
    expect(await screen.findByTestId('log-actor-e3')).toHaveTextContent('anonymous');
    expect(screen.getByTestId('log-setpoints-e3')).toHaveTextContent('— → 21.0 °C');
    expect(within(screen.getByTestId('log-list')).getAllByRole('listitem')).toHaveLength(3);
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
});

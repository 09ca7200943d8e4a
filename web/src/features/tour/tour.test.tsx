/**
 * The first-run tour: it starts once by itself for a newcomer who opens the demo, can be skipped
 * (Esc, "Skip tour") and does not come back, walks from the units table into a room in German or
 * English, and starts again on request from settings → help — also for other accounts, which it
 * leaves alone otherwise.
 */
import { DEMO_EMAIL } from '@heizplan/contracts/demo';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../app/i18n.ts';
import { routes } from '../../app/router.tsx';
import { renderRoutes } from '../../test/render.tsx';
import { type FetchHandler, json, signIn, testProfile } from '../../test/signed-in.ts';
import { heatingApi, testUnit } from '../../test/units-fixtures.ts';

const room = testUnit({ name: 'Büro 1.01', downlinks: { pending: 2, failed: 0, delivered: [] } });
const demo = testProfile({ id: 'demo-sub', email: DEMO_EMAIL });
const seenKey = 'heizplan.tourSeen.demo-sub';

function open(profile = demo, path = '/units') {
  const unitApi: FetchHandler = (method, url) => {
    const p = url.split('?')[0];
    if (method === 'GET' && p === `/api/companies/c1/units/${room.id}`) return json(200, room);
    if (method === 'GET' && p === `/api/companies/c1/units/${room.id}/plans`)
      return json(200, { results: [] });
    return undefined;
  };
  const { session } = signIn({ profile, extra: heatingApi([room], unitApi) });
  return renderRoutes(routes, path, { session });
}

const step = () => screen.findByTestId('tour', {}, { timeout: 10_000 });

describe('first-run tour', { timeout: 30_000 }, () => {
  beforeEach(async () => {
    localStorage.clear();
    await setLanguage('de');
  });
  afterEach(() => {
    // A tour left open would cover the next test's screen.
    document.querySelector<HTMLButtonElement>('[data-testid="tour-close"]')?.click();
    vi.unstubAllGlobals();
  });

  it("leaves the highlighted control's own popup state alone: the rooms dialog's button stays closed", async () => {
    // Without rooms the one step points at "Räume anlegen", the trigger of a dialog.
    const { session } = signIn({ profile: demo, extra: heatingApi([]) });
    renderRoutes(routes, '/units', { session });
    await step();
    const create = await screen.findByTestId('create-units');
    // driver.js marks it as the opener of the tour's step (expanded, controlling the popover).
    await waitFor(() => expect(create).toHaveAttribute('aria-expanded', 'false'));
    expect(create).toHaveAttribute('aria-haspopup', 'dialog');
    expect(create).not.toHaveAttribute('aria-controls');
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByTestId('tour')).toBeNull());
    expect(create).toHaveAttribute('aria-haspopup', 'dialog');
    expect(create).toHaveAttribute('aria-expanded', 'false');
  });

  it('starts once for a newcomer in the demo, in German, and Esc skips it for good', async () => {
    open();
    const popover = await step();
    expect(popover).toHaveAttribute('role', 'dialog');
    expect(popover).toHaveTextContent('Ihre Räume');
    expect(popover).toHaveTextContent('1 von 6');
    expect(within(popover).getByTestId('tour-close')).toHaveAccessibleName('Rundgang überspringen');
    // Focus moves into the step, onto "Weiter".
    await waitFor(() => expect(within(popover).getByTestId('tour-next')).toHaveFocus());
    expect(within(popover).getByTestId('tour-next')).toHaveTextContent('Weiter');
    expect(localStorage.getItem(seenKey)).not.toBeNull();

    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByTestId('tour')).toBeNull());

    // The next visit: the table, no tour. The launcher decides when the screen has the account:
    // it reads that this one has seen the tour, and starts nothing.
    const read = vi.spyOn(Storage.prototype, 'getItem');
    open();
    await screen.findByText('Büro 1.01');
    await waitFor(() => expect(read).toHaveBeenCalledWith(seenKey));
    expect(screen.queryByTestId('tour')).toBeNull();
  });

  it('walks from the units table into the room, in English, and "Skip tour" ends it', async () => {
    await setLanguage('en');
    const view = open(testProfile({ id: 'demo-sub', email: DEMO_EMAIL, lang: 'en' }));
    expect(await step()).toHaveTextContent('Your rooms');
    await userEvent.click(screen.getByTestId('tour-next'));
    await waitFor(() => expect(view.router.location().pathname).toBe(`/units/${room.id}`));
    await waitFor(() => expect(screen.getByTestId('tour')).toHaveTextContent('The heating plan'));
    expect(document.querySelector('.driver-active-element')).toBe(screen.getByTestId('unit-plans'));
    await userEvent.click(screen.getByTestId('tour-next'));
    await waitFor(() => expect(screen.getByTestId('tour')).toHaveTextContent('The next 7 days'));
    await userEvent.click(screen.getByTestId('tour-next'));
    await waitFor(() => expect(screen.getByTestId('tour')).toHaveTextContent('On its way to the valve'));
    expect(document.querySelector('.driver-active-element')).toBe(screen.getByTestId('unit-setpoint'));
    expect(screen.getByTestId('unit-setpoint')).toHaveTextContent('Pending on 2 devices');
    await userEvent.click(screen.getByTestId('tour-skip'));
    await waitFor(() => expect(screen.queryByTestId('tour')).toBeNull());
    expect(localStorage.getItem(seenKey)).not.toBeNull();
  });

  it('leaves other accounts alone, and starts from settings → help on request', async () => {
    const read = vi.spyOn(Storage.prototype, 'getItem');
    const view = open(testProfile());
    await screen.findByText('Büro 1.01');
    // The launcher has the account once the table shows, and does not even ask whether a
    // non-demo account saw the tour: nothing is loading that could start it later.
    expect(read).not.toHaveBeenCalledWith('heizplan.tourSeen.u1');
    expect(screen.queryByTestId('tour')).toBeNull();

    await view.router.navigate('/settings/help');
    const start = await screen.findByTestId('help-tour-start');
    expect(start).toHaveTextContent('Rundgang starten');
    await userEvent.click(start);
    await waitFor(() => expect(view.router.location().pathname).toBe('/units'));
    expect(await step()).toHaveTextContent('Ihre Räume');
    await userEvent.click(screen.getByTestId('tour-close'));
    await waitFor(() => expect(screen.queryByTestId('tour')).toBeNull());
  });
});

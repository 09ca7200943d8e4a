/**
 * The public page as an occupant uses it: −/+ from a setpoint outside the allowed
 * range go to the nearest allowed value, every message is in the page's language (server
 * refusals by code), the help words the gap the right way round, and the wall thermostat
 * statement shows whenever a device reported its setpoint.
 */
import type { PublicHeatingView } from '@heizplan/contracts/public-heating-view';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DateTime } from 'luxon';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fixedClock, testNow } from '../test/clock.ts';
import { FEEDBACK_PAUSE_MS } from './feedback-cooldown.ts';
import { HeatingViewApp } from './heating-view-app.tsx';

const TOKEN = 'Tq3bU0mJ1c2Vx8sY4kLw7A';
/** The page's clock (HEIZPLAN_TEST_NOW runs it at night or on a DST change); times today read without a weekday. */
const NOW = testNow('2026-11-26T10:00:00+01:00');
const clock = fixedClock(NOW);

const view = (over: Partial<PublicHeatingView> = {}): PublicHeatingView => ({
  unitName: 'Büro 1',
  roomTemperature: 19.6,
  setpoint: 17,
  valveOpening: 0,
  lastReadingAt: new Date(NOW.getTime() - 5 * 60_000).toISOString(),
  wallControlOverride: false,
  wallControlReported: false,
  deliveryPending: false,
  setpointSource: 'regular_plan',
  min: 18,
  max: 23,
  step: 0.5,
  paused: false,
  occupantChange: null,
  nextChange: null,
  timeZone: 'Europe/Berlin',
  ...over,
});

const answer = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': status >= 400 ? 'application/problem+json' : 'application/json' },
  });

/** Renders the page for `initial`; POSTs answer with `onPost(body)` (default: accepted). */
function open(initial: PublicHeatingView, lang: 'de' | 'en' = 'de', onPost?: (setpoint: number) => Response) {
  const posted: number[] = [];
  const fetchMock = vi.fn(async (_url: string, init: RequestInit = {}) => {
    if (init.method === 'POST') {
      const { setpoint } = JSON.parse(String(init.body)) as { setpoint: number };
      posted.push(setpoint);
      return onPost ? onPost(setpoint) : answer(200, { ...initial, setpoint });
    }
    return answer(200, initial);
  });
  vi.stubGlobal('fetch', fetchMock);
  render(<HeatingViewApp token={TOKEN} lang={lang} clock={clock} />);
  return { posted };
}

afterEach(() => vi.unstubAllGlobals());

describe('public heating view page', () => {
  it('links the Impressum, the privacy notice and the accessibility statement at its foot, in the page’s language', async () => {
    open(view(), 'en');
    const legal = await screen.findByRole('navigation', { name: 'Legal' });
    expect(within(legal).getByRole('link', { name: 'Legal notice (Impressum)' })).toHaveAttribute(
      'href',
      '/legal/impressum.html',
    );
    expect(within(legal).getByRole('link', { name: 'Privacy notice (German)' })).toHaveAttribute(
      'href',
      '/legal/datenschutz.html',
    );
    expect(within(legal).getByRole('link', { name: 'Accessibility' })).toHaveAttribute(
      'href',
      '/legal/accessibility.html',
    );
  });

  it('links the German accessibility statement from a German page', async () => {
    open(view(), 'de');
    const legal = await screen.findByRole('navigation', { name: 'Rechtliches' });
    expect(within(legal).getByRole('link', { name: 'Barrierefreiheit' })).toHaveAttribute(
      'href',
      '/legal/barrierefreiheit.html',
    );
  });

  it('raises a setpoint below the allowed range to the minimum in one step, and never lowers it further', async () => {
    const { posted } = open(view({ setpoint: 17 }));
    const raise = await screen.findByTestId('hv-raise');
    expect(screen.getByTestId('hv-lower')).toBeDisabled();
    expect(raise).toBeEnabled();
    await userEvent.click(raise);
    await waitFor(() => expect(posted).toEqual([18]));
  });

  it('lowers a setpoint above the allowed range to the maximum', async () => {
    const { posted } = open(view({ setpoint: 24.5 }));
    const lower = await screen.findByTestId('hv-lower');
    expect(screen.getByTestId('hv-raise')).toBeDisabled();
    await userEvent.click(lower);
    await waitFor(() => expect(posted).toEqual([23]));
  });

  it("shows the server's refusal in the page's language, not the server's English sentence", async () => {
    const detail = 'Choose a temperature between 18 °C and 23 °C.';
    open(view({ setpoint: 20 }), 'de', () =>
      answer(400, {
        type: 'about:blank',
        title: 'Bad Request',
        status: 400,
        detail,
        code: 'setpoint_outside_limits',
        params: { min: 18, max: 23 },
      }),
    );
    await userEvent.click(await screen.findByTestId('hv-raise'));
    const notice = await screen.findByTestId('hv-notice');
    expect(notice).toHaveTextContent('Wählen Sie eine Temperatur zwischen 18,0 °C und 23,0 °C.');
    expect(document.body.textContent).not.toContain(detail);
  });

  it('falls back to its own words for a refusal it has no text for', async () => {
    open(view({ setpoint: 20 }), 'de', () =>
      answer(409, { type: 'about:blank', title: 'Conflict', status: 409, detail: 'Something new.' }),
    );
    await userEvent.click(await screen.findByTestId('hv-raise'));
    expect(await screen.findByTestId('hv-notice')).toHaveTextContent('Die Änderung wurde nicht angenommen.');
    expect(document.body.textContent).not.toContain('Something new.');
  });

  it('says the room is warmer than the setpoint when it is, with the right gap', async () => {
    open(view({ setpoint: 17, roomTemperature: 19.6 }));
    const help = await screen.findByTestId('hv-help');
    expect(help).toHaveTextContent('Der Raum ist 2,6 °C wärmer als die Solltemperatur');
    expect(help).not.toHaveTextContent('unter der Solltemperatur');
  });

  it('states whether a wall thermostat overrides the setpoint whenever a device reported one', async () => {
    open(view({ wallControlReported: true, wallControlOverride: false }), 'en');
    expect(await screen.findByTestId('hv-wall-control')).toHaveTextContent(
      'No wall thermostat is overriding the setpoint.',
    );
  });

  it('says the setpoint is on its way to the valve while its downlink is pending', async () => {
    open(view({ deliveryPending: true }));
    expect(await screen.findByTestId('hv-delivering')).toHaveTextContent(
      'Die Solltemperatur wird an das Ventil übertragen.',
    );
    expect(screen.queryByTestId('hv-wall-control')).toBeNull();
  });

  it('offers no change while a closure holds the room, and says why', async () => {
    open(view({ setpointSource: 'closure', setpoint: 8 }));
    expect(await screen.findByTestId('hv-closed')).toHaveTextContent(
      'Für diesen Raum gilt gerade eine Schließzeit. Änderungen sind erst nach ihrem Ende möglich.',
    );
    expect(screen.queryByRole('button', { name: /Solltemperatur um 0,5 °C erhöhen/ })).toBeNull();
  });

  it('says who set a manual value instead of calling it the heating plan', async () => {
    open(view({ setpointSource: 'qr_change', setpoint: 22 }), 'en');
    const help = await screen.findByTestId('hv-help');
    expect(help).toHaveTextContent('An occupant set 22.0 °C.');
    expect(help).not.toHaveTextContent('heating plan sets');
  });

  it('names the time of the next switch point, with its weekday when it is not today', async () => {
    const today = DateTime.fromJSDate(NOW).setZone('Europe/Berlin').startOf('day');
    const late = today.set({ hour: 23, minute: 59 }).toUTC().toISO() ?? '';
    open(view({ setpoint: 21, nextChange: { at: late, setpoint: 17 } }));
    expect(await screen.findByTestId('hv-help')).toHaveTextContent(
      'Der Heizplan sieht jetzt 21,0 °C vor, ab 23:59 dann 17,0 °C.',
    );
    cleanup();
    const tomorrow = today.plus({ days: 1 }).set({ hour: 6 });
    const weekday = ['Mo.', 'Di.', 'Mi.', 'Do.', 'Fr.', 'Sa.', 'So.'][tomorrow.weekday - 1];
    open(view({ setpoint: 21, nextChange: { at: tomorrow.toUTC().toISO() ?? '', setpoint: 17 } }));
    expect(await screen.findByTestId('hv-help')).toHaveTextContent(
      `Der Heizplan sieht jetzt 21,0 °C vor, ab ${weekday}, 06:00 dann 17,0 °C.`,
    );
  });

  it('says nothing about a wall thermostat while no device reported a setpoint', async () => {
    open(view({ wallControlReported: false }), 'en');
    await screen.findByTestId('hv-setpoint');
    expect(screen.queryByTestId('hv-wall-control')).toBeNull();
  });

  // 12 quick presses raised the setpoint by 5.0 °C instead of 6.0.
  it('ends at the value of twelve quick presses, shown at once and sent once as the absolute target', async () => {
    const { posted } = open(view({ setpoint: 20, min: 5, max: 28 }));
    const raise = await screen.findByTestId('hv-raise');
    for (let i = 0; i < 12; i++) await userEvent.click(raise);
    expect(screen.getByTestId('hv-setpoint')).toHaveTextContent('26,0 °C');
    await waitFor(() => expect(posted).toEqual([26]));
    expect(screen.getByTestId('hv-setpoint')).toHaveTextContent('26,0 °C');
  });

  it('tells a screen reader the new setpoint while it is saved, then that it is on its way to the valve', async () => {
    let release: () => void = () => {};
    const slow = new Promise<void>((resolve) => {
      release = resolve;
    });
    let saved = false;
    open(view({ setpoint: 20, min: 5, max: 28 }));
    const status = await screen.findByRole('status');
    expect(status).toHaveTextContent('');
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init: RequestInit = {}) => {
        if (init.method === 'POST') {
          await slow;
          saved = true;
        }
        // Once saved, the server says the new value waits for the valve.
        return answer(
          200,
          saved
            ? view({ setpoint: 20.5, min: 5, max: 28, deliveryPending: true })
            : view({ setpoint: 20, min: 5, max: 28 }),
        );
      }),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Solltemperatur um 0,5 °C erhöhen' }));
    await waitFor(() => expect(status).toHaveTextContent('Solltemperatur 20,5 °C wird gespeichert …'));
    release();
    await waitFor(() =>
      expect(status).toHaveTextContent(
        'Solltemperatur 20,5 °C gespeichert. Sie wird an das Ventil übertragen.',
      ),
    );
  });

  it('keeps counting presses made while the previous change is still on its way', async () => {
    let release: () => void = () => {};
    const slow = new Promise<void>((resolve) => {
      release = resolve;
    });
    const initial = view({ setpoint: 20, min: 5, max: 28 });
    const posted: number[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init: RequestInit = {}) => {
        if (init.method !== 'POST') return answer(200, initial);
        const { setpoint } = JSON.parse(String(init.body)) as { setpoint: number };
        posted.push(setpoint);
        if (posted.length === 1) await slow;
        return answer(200, { ...initial, setpoint });
      }),
    );
    render(<HeatingViewApp token={TOKEN} lang="de" clock={clock} />);
    const raise = await screen.findByTestId('hv-raise');
    await userEvent.click(raise);
    await waitFor(() => expect(posted).toEqual([20.5]));
    await userEvent.click(raise);
    await userEvent.click(raise);
    release();
    await waitFor(() => expect(posted).toEqual([20.5, 21.5]));
    await waitFor(() => expect(screen.getByTestId('hv-setpoint')).toHaveTextContent('21,5 °C'));
  });
});

describe('"Zu warm" / "Zu kalt" on the public page', () => {
  /** Renders the page; feedback POSTs answer `status` and are recorded with their URL. */
  function openFeedback(status = 204, lang: 'de' | 'en' = 'de', at: Date = NOW) {
    const sent: Array<{ url: string; feeling: string }> = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit = {}) => {
        if (init.method === 'POST') {
          sent.push({ url, feeling: (JSON.parse(String(init.body)) as { feeling: string }).feeling });
          if (status === 204) return new Response(null, { status: 204 });
          return new Response(JSON.stringify({ status }), {
            status,
            headers: { 'content-type': 'application/problem+json', 'retry-after': '42' },
          });
        }
        return answer(200, view({ setpoint: 21 }));
      }),
    );
    render(<HeatingViewApp token={TOKEN} lang={lang} clock={fixedClock(at)} />);
    return { sent };
  }

  beforeEach(() => localStorage.clear());
  afterEach(() => cleanup());

  it('sends "too cold", thanks in a live region and rests for 10 minutes, saying until when', async () => {
    const { sent } = openFeedback();
    const cold = await screen.findByRole('button', { name: 'Zu kalt' });
    const warm = screen.getByRole('button', { name: 'Zu warm' });
    // Beside the −/+ controls, one group with its own heading.
    expect(screen.getByRole('region', { name: 'Wie fühlt sich der Raum an?' })).toContainElement(cold);
    await userEvent.click(cold);
    // Said in a live region, so a screen reader hears it without moving.
    const thanks = await screen.findByText('Danke, Ihre Rückmeldung ist angekommen.');
    expect(thanks.closest('[aria-live="polite"]')).not.toBeNull();
    expect(sent).toEqual([{ url: `/api/public/heating-view/${TOKEN}/feedback`, feeling: 'too_cold' }]);
    expect(cold).toBeDisabled();
    expect(warm).toBeDisabled();
    const until = DateTime.fromJSDate(new Date(NOW.getTime() + FEEDBACK_PAUSE_MS))
      .setZone('Europe/Berlin')
      .toFormat('HH:mm');
    // The time in the company's zone; with its weekday when the pause ends on another day.
    expect(
      screen.getByText(
        new RegExp(`^Eine weitere Rückmeldung aus diesem Browser ist ab (\\S+ )?${until} möglich\\.$`),
      ),
    ).toBeInTheDocument();
  });

  it('is pressed with the keyboard', async () => {
    const { sent } = openFeedback(204, 'en');
    const warm = await screen.findByRole('button', { name: 'Too warm' });
    warm.focus();
    await userEvent.keyboard('{Enter}');
    expect(await screen.findByText('Thank you, your feedback has arrived.')).toBeInTheDocument();
    expect(sent.map((s) => s.feeling)).toEqual(['too_warm']);
  });

  it('keeps resting after a reload within the pause, and offers the buttons again after it', async () => {
    openFeedback();
    await userEvent.click(await screen.findByRole('button', { name: 'Zu warm' }));
    await screen.findByText('Danke, Ihre Rückmeldung ist angekommen.');
    cleanup();
    openFeedback(204, 'de', new Date(NOW.getTime() + FEEDBACK_PAUSE_MS - 60_000));
    expect(await screen.findByRole('button', { name: 'Zu warm' })).toBeDisabled();
    expect(screen.getByText(/Eine weitere Rückmeldung aus diesem Browser ist ab/)).toBeInTheDocument();
    cleanup();
    openFeedback(204, 'de', new Date(NOW.getTime() + FEEDBACK_PAUSE_MS));
    expect(await screen.findByRole('button', { name: 'Zu warm' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Zu kalt' })).toBeEnabled();
  });

  it('says when there were too many requests and does not rest, so the occupant can try again', async () => {
    openFeedback(429);
    const cold = await screen.findByRole('button', { name: 'Zu kalt' });
    await userEvent.click(cold);
    expect(
      await screen.findByText('Zu viele Anfragen. Bitte in 42 Sekunden erneut versuchen.'),
    ).toBeInTheDocument();
    expect(cold).toBeEnabled();
  });
});

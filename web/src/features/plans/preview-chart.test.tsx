/**
 * The plan preview's time axis labels every day, the first one included, in the UI language's
 * date format: English screens showed German day.month order and the day the preview starts on
 * had no label.
 */
import type { Preview } from '@heizplan/contracts/heating';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import i18n from '../../app/i18n.ts';
import { fittedLabel, PreviewChart } from './components/preview-chart.tsx';

/** From Thursday 14:00 in Berlin ("now") for seven days. */
const preview: Preview = {
  from: '2026-11-26T13:00:00.000Z',
  to: '2026-12-03T13:00:00.000Z',
  timeZone: 'Europe/Berlin',
  initial: {
    at: '2026-11-26T13:00:00.000Z',
    setpoint: 21,
    source: 'regular_plan',
    ignoreWallControl: false,
    planId: null,
    eventId: null,
    closureId: null,
    bookingId: null,
  },
  changes: [],
  closures: [],
  bookings: [],
  optimum: [],
};

const dayLabels = () =>
  [...document.querySelectorAll('[data-testid^="preview-day-"]')].map((label) => [
    label.getAttribute('data-testid')!.slice('preview-day-'.length),
    label.textContent,
  ]);

let language: string;
beforeEach(() => {
  language = i18n.language;
});
afterEach(async () => {
  await i18n.changeLanguage(language);
});

describe('plan preview axis', () => {
  it('labels every day from the first, in English date format on English screens', async () => {
    await i18n.changeLanguage('en');
    render(<PreviewChart preview={preview} loading={false} stale={false} />);
    expect(screen.getByTestId('preview-chart')).toBeInTheDocument();
    expect(dayLabels()).toEqual([
      ['2026-11-26', 'Thu, 11/26'],
      ['2026-11-27', 'Fri, 11/27'],
      ['2026-11-28', 'Sat, 11/28'],
      ['2026-11-29', 'Sun, 11/29'],
      ['2026-11-30', 'Mon, 11/30'],
      ['2026-12-01', 'Tue, 12/01'],
      ['2026-12-02', 'Wed, 12/02'],
      ['2026-12-03', 'Thu, 12/03'],
    ]);
  });

  it('labels them day.month in German', async () => {
    await i18n.changeLanguage('de');
    render(<PreviewChart preview={preview} loading={false} stale={false} />);
    expect(dayLabels()[0]).toEqual(['2026-11-26', 'Do., 26.11.']);
    expect(dayLabels()).toHaveLength(8);
  });

  it('draws a preview from midnight over exactly its seven days', async () => {
    const week = { ...preview, from: '2026-11-22T23:00:00.000Z', to: '2026-11-29T23:00:00.000Z' };
    render(<PreviewChart preview={week} loading={false} stale={false} />);
    expect(dayLabels().map(([day]) => day)).toEqual([
      '2026-11-23',
      '2026-11-24',
      '2026-11-25',
      '2026-11-26',
      '2026-11-27',
      '2026-11-28',
      '2026-11-29',
    ]);
  });
});

describe('plan preview as text', () => {
  const lowered: Preview = {
    ...preview,
    changes: [{ ...preview.initial, at: '2026-11-26T17:00:00.000Z', setpoint: 17.5 }],
  };

  it('names the chart with where it starts and lists its steps as a table in German', async () => {
    await i18n.changeLanguage('de');
    render(<PreviewChart preview={lowered} loading={false} stale={false} />);
    expect(
      screen.getByRole('img', {
        name: 'Verlauf der Solltemperatur über 7 Tage, Zeitzone Europe/Berlin: ab 26.11.2026, 14:00 21,0 °C (Regulärer Plan), 2 Stufen',
      }),
    ).toBeInTheDocument();
    const toggle = screen.getByRole('button', { name: 'Daten als Tabelle' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const table = screen.getByRole('table', {
      name: 'Stufen der Solltemperatur über 7 Tage (Zeiten in Europe/Berlin)',
    });
    expect(within(table).getByRole('columnheader', { name: 'Quelle' })).toBeInTheDocument();
    // 17:00 UTC is 18:00 in Berlin.
    const row = within(table).getByRole('row', { name: /^26\.11\.2026, 18:00/ });
    expect(
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['17,5 °C', 'Regulärer Plan']);
  });

  it('says the same in English', async () => {
    await i18n.changeLanguage('en');
    render(<PreviewChart preview={lowered} loading={false} stale={false} />);
    expect(
      screen.getByRole('img', { name: /^Target temperature over 7 days.*, 2 steps$/ }),
    ).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Show data as table' }));
    expect(screen.getByRole('table', { name: /^Steps of the target temperature/ })).toBeInTheDocument();
  });
});

describe('plan preview steps', () => {
  /** Regular plan until Friday 08:00 in Berlin, then the works holiday's frost protection. */
  const withClosure: Preview = {
    ...preview,
    changes: [
      {
        at: '2026-11-27T07:00:00.000Z',
        setpoint: 8,
        source: 'closure',
        ignoreWallControl: true,
        planId: null,
        eventId: null,
        closureId: 'c-1',
        bookingId: null,
      },
    ],
    closures: [{ id: 'c-1', name: 'Betriebsurlaub', mode: 'frost', kind: 'closure' }],
  };

  it('names a closure step with the closure and its heating mode', async () => {
    await i18n.changeLanguage('de');
    render(<PreviewChart preview={withClosure} loading={false} stale={false} />);
    expect(screen.getByTestId('preview-step-label-0')).toHaveTextContent('Regulärer Plan');
    expect(screen.getByTestId('preview-step-label-1')).toHaveTextContent(
      'Schließzeit: Betriebsurlaub — Frostschutz',
    );
    expect(screen.getByTestId('preview-step-1')).toHaveAttribute('data-source', 'closure');
    expect(screen.getByTestId('preview-legend-closure')).toHaveTextContent('Schließzeit');
  });

  it('names a public holiday of the building treated as a closure, in German and English', async () => {
    const withHoliday: Preview = {
      ...withClosure,
      changes: [{ ...withClosure.changes[0]!, setpoint: 16, closureId: 'holiday-2026-12-25' }],
      closures: [{ id: 'holiday-2026-12-25', name: '1. Weihnachtstag', mode: 'economy', kind: 'holiday' }],
    };
    await i18n.changeLanguage('de');
    const { unmount } = render(<PreviewChart preview={withHoliday} loading={false} stale={false} />);
    expect(screen.getByTestId('preview-step-label-1')).toHaveTextContent(
      'Feiertag: 1. Weihnachtstag — Absenkbetrieb',
    );
    expect(screen.getByTestId('preview-step-1')).toHaveAttribute('data-source', 'closure');
    unmount();
    await i18n.changeLanguage('en');
    render(<PreviewChart preview={withHoliday} loading={false} stale={false} />);
    expect(screen.getByTestId('preview-step-label-1')).toHaveTextContent(
      'Public holiday: 1. Weihnachtstag — economy',
    );
  });

  /** Parents' evening Friday 19:00–21:00 in Berlin, heated from 18:30 (pre-heat lead). */
  const withBooking: Preview = {
    ...preview,
    changes: [
      {
        at: '2026-11-27T17:30:00.000Z',
        setpoint: 21,
        source: 'booking',
        ignoreWallControl: false,
        planId: null,
        eventId: null,
        closureId: null,
        bookingId: 'b-1',
      },
      { ...preview.initial, at: '2026-11-27T20:00:00.000Z', setpoint: 17 },
    ],
    bookings: [
      { id: 'b-1', title: 'Elternabend', start: '2026-11-27T18:00:00.000Z', end: '2026-11-27T20:00:00.000Z' },
    ],
  };

  it("names a booking's step with its title and its own local times, in German and English", async () => {
    await i18n.changeLanguage('de');
    const { unmount } = render(<PreviewChart preview={withBooking} loading={false} stale={false} />);
    expect(screen.getByTestId('preview-step-label-1')).toHaveTextContent('Buchung: Elternabend 19:00–21:00');
    expect(screen.getByTestId('preview-step-1')).toHaveAttribute('data-source', 'booking');
    expect(screen.getByTestId('preview-legend-booking')).toHaveTextContent('Buchung');
    expect(screen.getByTestId('preview-step-label-2')).toHaveTextContent('Regulärer Plan');
    unmount();
    await i18n.changeLanguage('en');
    render(<PreviewChart preview={withBooking} loading={false} stale={false} />);
    expect(screen.getByTestId('preview-step-label-1')).toHaveTextContent(
      'Booking: Elternabend 7:00 PM–9:00 PM',
    );
  });

  it('says it in English too', async () => {
    await i18n.changeLanguage('en');
    render(<PreviewChart preview={withClosure} loading={false} stale={false} />);
    expect(screen.getByTestId('preview-step-label-1')).toHaveTextContent(
      'Closure: Betriebsurlaub — frost protection',
    );
  });
});

describe('plan preview: optimum start and stop', () => {
  const optimum = (over: Partial<Preview['optimum'][number]> = {}): Preview['optimum'][number] => ({
    kind: 'optimum_start',
    switchAt: '2026-12-01T06:00:00.000Z',
    start: '2026-12-01T05:12:00.000Z',
    from: 16.8,
    to: 21,
    outdoor: null,
    rate: 1.9,
    classADelayMinutes: 10,
    confidence: 0.85,
    learned: true,
    applied: true,
    ...over,
  });

  it('explains each moved switch point in German and English, and says when it is only shown', async () => {
    await i18n.changeLanguage('de');
    const learned = { ...preview, optimum: [optimum()] };
    const { unmount } = render(<PreviewChart preview={learned} loading={false} stale={false} />);
    expect(screen.getByTestId('preview-optimum-2026-12-01T06:00:00.000Z')).toHaveTextContent(
      'Vorheizen ab Di., 01.12., 06:12 — 16,8 °C → 21,0 °C, ohne Außentemperatur (nur Raumdaten), gelernt 1,9 K/h, Sicherheit 85 %, davon 10 min bis zur nächsten Meldung des Ventils',
    );
    expect(screen.queryByText(/Schattenbetrieb/)).toBeNull();
    unmount();
    await i18n.changeLanguage('en');
    const shadow = {
      ...preview,
      optimum: [optimum({ learned: false, applied: false, classADelayMinutes: 0 })],
    };
    render(<PreviewChart preview={shadow} loading={false} stale={false} />);
    expect(screen.getByTestId('preview-optimum-2026-12-01T06:00:00.000Z')).toHaveTextContent(
      'Pre-heat from Tue, 12/01, 06:12 AM — 16.8 °C → 21.0 °C, without outdoor temperature (room data only), default 30 min/K, not learned yet',
    );
    expect(screen.getByTestId('preview-optimum')).toHaveTextContent('Shadow mode');
  });

  it('sums a week of pre-heating up in one line per kind and opens the single lines on request', async () => {
    await i18n.changeLanguage('de');
    const day = (n: number, minute: number) =>
      optimum({
        start: `2026-12-0${n}T05:${String(minute).padStart(2, '0')}:00.000Z`,
        switchAt: `2026-12-0${n}T06:00:00.000Z`,
      });
    const week = { ...preview, optimum: [day(1, 12), day(2, 5), day(3, 8), day(4, 14)] };
    render(<PreviewChart preview={week} loading={false} stale={false} />);
    expect(screen.getByTestId('preview-optimum-summary')).toHaveTextContent(
      'Vorheizen an 4 Tagen, frühestens ab 06:05, spätestens ab 06:14',
    );
    const lines = screen.getByText('Alle 4 Zeilen anzeigen');
    expect(screen.getByTestId('preview-optimum-2026-12-02T06:00:00.000Z')).not.toBeVisible();
    await userEvent.click(lines);
    expect(screen.getByTestId('preview-optimum-2026-12-02T06:00:00.000Z')).toBeVisible();
  });

  it('shows nothing when no switch point moves', () => {
    render(<PreviewChart preview={preview} loading={false} stale={false} />);
    expect(screen.queryByTestId('preview-optimum')).toBeNull();
  });
});

describe('step labels', () => {
  it('fit their own step: a long holiday name is cut with an ellipsis, never drawn into the next step', () => {
    const holiday = 'Weihnachtsferien (Bayern) — Absenkbetrieb';
    // A day of the 7-day chart is about 95 px wide.
    const cut = fittedLabel(holiday, 95);
    expect(cut).toBe('Weihnachtsferi…');
    expect((cut?.length ?? 0) * 5.8).toBeLessThanOrEqual(95 - 6);
    expect(fittedLabel('Regulärer Plan', 200)).toBe('Regulärer Plan');
    // Too narrow for a readable start: no label, the step's title and the list still name it.
    expect(fittedLabel(holiday, 30)).toBeNull();
  });
});

/**
 * The events calendar's month by keyboard (WCAG 2.1.1, 2.4.3): each day's button is named in full
 * in the UI language with its entries, each event of the month is a button that opens it as a
 * click does, and opening a day by keyboard moves to the day view with focus on its title.
 * The days before and after the month are readable (WCAG 1.4.3).
 * The calendar's "today" comes from a fixed clock: 1 December 2026, 09:00 in Berlin.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { CalendarLayer } from '@heizplan/contracts/calendar-layers';
import type { HeatingEvent } from '@heizplan/contracts/events';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../app/i18n.ts';
import { ClockProvider } from '../../lib/clock.tsx';
import { fixedClock } from '../../test/clock.ts';
import EventsCalendar from './components/events-calendar.tsx';
import type { CalendarView } from './view-preference.ts';

const NOW = new Date('2026-12-01T09:00:00+01:00');

const event = (over: Partial<HeatingEvent>): HeatingEvent => ({
  id: '00000000-0000-4000-a000-000000000001',
  title: 'Elternabend',
  note: '',
  start: '2026-12-01T18:00:00+01:00',
  end: '2026-12-01T21:00:00+01:00',
  temperature: 22,
  preventRegular: false,
  groupMode: false,
  units: [{ id: '00000000-0000-4000-b000-000000000009', name: 'Aula' }],
  groups: [],
  status: 'upcoming',
  createdAt: '2026-11-20T10:00:00.000Z',
  createdBy: { id: 'u1', name: 'Ada Lovelace' },
  ...over,
});

const EVENTS = [
  event({}),
  event({
    id: '00000000-0000-4000-a000-000000000002',
    title: 'Chorprobe',
    start: '2026-12-01T15:00:00+01:00',
    end: '2026-12-01T17:00:00+01:00',
  }),
];

const HOLIDAY: CalendarLayer = {
  id: 'company_day:1',
  kind: 'company_day',
  name: 'Betriebsausflug',
  start: '2026-12-02T00:00:00+01:00',
  end: '2026-12-03T00:00:00+01:00',
  mode: null,
  building: null,
  unit: null,
};

/** The calendar as the events screen holds it: its date and view in state. */
function Harness({ onSelectEvent }: { onSelectEvent: (event: HeatingEvent) => void }) {
  const [date, setDate] = useState(new Date(2026, 11, 1, 12, 0));
  const [view, setView] = useState<CalendarView>('month');
  return (
    <ClockProvider clock={fixedClock(NOW)}>
      <EventsCalendar
        events={EVENTS}
        layers={[HOLIDAY]}
        zone="Europe/Berlin"
        date={date}
        view={view}
        onNavigate={setDate}
        onView={setView}
        onSelectEvent={onSelectEvent}
        label={(e) => e.title}
      />
    </ClockProvider>
  );
}

let language: string;
beforeEach(() => {
  language = i18n.language;
  // react-big-calendar's build uses the classic JSX runtime; React warns about it in development only.
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(async () => {
  vi.restoreAllMocks();
  await i18n.changeLanguage(language);
});

describe('events calendar month by keyboard', () => {
  it('names each day in full in German, with its events and its own days', async () => {
    await i18n.changeLanguage('de');
    render(<Harness onSelectEvent={vi.fn()} />);
    expect(screen.getByRole('button', { name: 'Dienstag, 1. Dezember 2026, 2 Termine' })).toHaveTextContent(
      /^1$/,
    );
    expect(
      screen.getByRole('button', {
        name: 'Mittwoch, 2. Dezember 2026, Eigener Tag: Betriebsausflug — wie ein Sonntag',
      }),
    ).toBeInTheDocument();
    // A day of the month after, shown to fill the last week.
    expect(screen.getByRole('button', { name: 'Sonntag, 3. Januar 2027' })).toBeInTheDocument();
  });

  it('names them in English on English screens', async () => {
    await i18n.changeLanguage('en');
    render(<Harness onSelectEvent={vi.fn()} />);
    expect(screen.getByRole('button', { name: 'Tuesday, December 1, 2026, 2 events' })).toBeInTheDocument();
  });

  it('reaches an event of the month by Tab and opens it with Enter, as a click does', async () => {
    await i18n.changeLanguage('de');
    const onSelectEvent = vi.fn();
    render(<Harness onSelectEvent={onSelectEvent} />);
    screen.getByRole('button', { name: 'Dienstag, 1. Dezember 2026, 2 Termine' }).focus();
    const events: string[] = [];
    for (let i = 0; i < 40 && events.length < 2; i += 1) {
      await userEvent.tab();
      const name = document.activeElement?.textContent ?? '';
      if (name === 'Chorprobe' || name === 'Elternabend') events.push(name);
    }
    expect(events.toSorted()).toEqual(['Chorprobe', 'Elternabend']);
    // Focus is on the second one reached; Enter opens that one, once.
    await userEvent.keyboard('{Enter}');
    expect(onSelectEvent).toHaveBeenCalledTimes(1);
    expect(onSelectEvent).toHaveBeenCalledWith(EVENTS.find((e) => e.title === events[1]));
    await userEvent.keyboard(' ');
    expect(onSelectEvent).toHaveBeenCalledTimes(2);
    await userEvent.click(screen.getByRole('button', { name: 'Chorprobe' }));
    expect(onSelectEvent).toHaveBeenLastCalledWith(EVENTS[1]);
    expect(onSelectEvent).toHaveBeenCalledTimes(3);
  });

  it('opens an event of the day view with Enter, and a band of the building calendar not at all', async () => {
    await i18n.changeLanguage('de');
    const onSelectEvent = vi.fn();
    render(<Harness onSelectEvent={onSelectEvent} />);
    await userEvent.click(screen.getByRole('button', { name: 'Dienstag, 1. Dezember 2026, 2 Termine' }));
    const chorprobe = await screen.findByRole('button', { name: /Chorprobe/ });
    chorprobe.focus();
    await userEvent.keyboard('{Enter}');
    expect(onSelectEvent).toHaveBeenCalledTimes(1);
    expect(onSelectEvent).toHaveBeenCalledWith(EVENTS[1]);
    await userEvent.click(screen.getByRole('button', { name: 'Weiter' }));
    screen.getByRole('button', { name: /Betriebsausflug/ }).focus();
    await userEvent.keyboard('{Enter}');
    expect(onSelectEvent).toHaveBeenCalledTimes(1);
  });

  it('opens a day with Enter or Space and puts focus on the day view’s title', async () => {
    await i18n.changeLanguage('de');
    render(<Harness onSelectEvent={vi.fn()} />);
    screen.getByRole('button', { name: 'Dienstag, 1. Dezember 2026, 2 Termine' }).focus();
    await userEvent.keyboard('{Enter}');
    const title = await screen.findByRole('heading', { name: 'Dienstag, 1. Dezember 2026' });
    expect(title).toHaveFocus();
    expect(screen.getByRole('button', { name: 'Tag' })).toHaveAttribute('aria-pressed', 'true');

    await userEvent.click(screen.getByRole('button', { name: 'Monat' }));
    expect(screen.getByRole('heading', { name: 'Dezember 2026' })).not.toHaveFocus();
    screen.getByRole('button', { name: /^Mittwoch, 2\. Dezember 2026/ }).focus();
    await userEvent.keyboard(' ');
    expect(await screen.findByRole('heading', { name: 'Mittwoch, 2. Dezember 2026' })).toHaveFocus();
  });
});

describe('events calendar month contrast', () => {
  /** WCAG 2.1 relative luminance of sRGB channels 0–255. */
  const luminance = (channels: number[]) => {
    const [r, g, b] = channels.map((c) => {
      const v = c / 255;
      return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const hex = (value: string) => [1, 3, 5].map((i) => Number.parseInt(value.slice(i, i + 2), 16));

  it('writes the days outside the month with at least 4.5:1 on their grey', () => {
    const ours = readFileSync(path.join(import.meta.dirname, 'components/events-calendar.css'), 'utf8');
    const library = readFileSync(
      path.resolve(
        import.meta.dirname,
        '../../../../node_modules/react-big-calendar/lib/css/react-big-calendar.css',
      ),
      'utf8',
    );
    const text = /\.rbc-off-range \{\s*color: (#[0-9a-f]{6});/i.exec(ours)?.[1];
    const grey = /\.rbc-off-range-bg \{\s*background: rgb\(([\d.]+), ([\d.]+), ([\d.]+)\)/.exec(library);
    expect(text).toBeDefined();
    expect(grey).not.toBeNull();
    const [hi, lo] = [
      luminance(hex(text as string)),
      luminance((grey as RegExpExecArray).slice(1).map(Number)),
    ].sort((a, b) => b - a) as [number, number];
    expect((hi + 0.05) / (lo + 0.05)).toBeGreaterThanOrEqual(4.5);
  });
});

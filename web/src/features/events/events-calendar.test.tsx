/**
 * The events calendar in the UI language: German screens showed react-big-calendar's English
 * word order ("November 23 – 29", "Donnerstag Nov. 26"); German now reads "23.–29. November
 * 2026" and "Do., 26.11.", English stays English. Week and day open at the working day, not at
 * midnight.
 */
import { render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../app/i18n.ts';
import EventsCalendar, { calendarFormats } from './components/events-calendar.tsx';

const thursday = new Date(2026, 10, 26, 12, 0);

async function renderCalendar(language: string, view: 'week' | 'day' | 'month') {
  await i18n.changeLanguage(language);
  return render(
    <EventsCalendar
      events={[]}
      zone="Europe/Berlin"
      date={thursday}
      view={view}
      onNavigate={() => {}}
      onView={() => {}}
      onSelectEvent={() => {}}
      label={() => ''}
    />,
  );
}

/** Intl puts thin and no-break spaces around the dash of a range; compare with plain spaces. */
const plain = (text: string | null | undefined) => text?.replace(/\s/g, ' ');
const title = () => plain(document.querySelector('.rbc-toolbar-label')?.textContent);
const headers = () =>
  [...document.querySelectorAll('.rbc-time-header .rbc-header')].map((h) => h.textContent);

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

describe('events calendar', () => {
  it('titles the week and heads its days in German date order on German screens', async () => {
    await renderCalendar('de', 'week');
    expect(title()).toBe('23.–29. November 2026');
    expect(headers()).toContain('Do., 26.11.');
    expect(headers()[0]).toBe('Mo., 23.11.');
  });

  it('stays English on English screens', async () => {
    await renderCalendar('en', 'week');
    expect(title()).toBe('November 23 – 29, 2026');
    expect(headers()).toContain('Thu, 11/26');
  });

  it('titles the day and the month in the UI language', async () => {
    const day = await renderCalendar('de', 'day');
    expect(title()).toBe('Donnerstag, 26. November 2026');
    day.unmount();
    await renderCalendar('de', 'month');
    expect(title()).toBe('November 2026');
    expect(screen.getAllByRole('columnheader')[0]).toHaveTextContent('Mo');
  });

  it('writes weeks across a month or a year in one phrase', () => {
    const range = calendarFormats('de').dayRangeHeaderFormat as (r: { start: Date; end: Date }) => string;
    expect(plain(range({ start: new Date(2026, 10, 30), end: new Date(2026, 11, 6) }))).toBe(
      '30. November – 6. Dezember 2026',
    );
    expect(plain(range({ start: new Date(2026, 11, 28), end: new Date(2027, 0, 3) }))).toBe(
      '28. Dezember 2026 – 3. Januar 2027',
    );
  });

  it('heads the narrow week columns of a phone with weekday and day only', () => {
    const day = calendarFormats('de', true).dayFormat as (date: Date) => string;
    expect(day(thursday)).toBe('Do 26');
    expect((calendarFormats('en', true).dayFormat as typeof day)(thursday)).toBe('Thu 26');
  });

  it('opens the week scrolled to 07:00, not to midnight', async () => {
    // jsdom lays nothing out: give the time grid a height and record where it is scrolled to.
    const scrolled: number[] = [];
    vi.spyOn(HTMLElement.prototype, 'scrollHeight', 'get').mockReturnValue(2400);
    vi.spyOn(HTMLElement.prototype, 'scrollTop', 'set').mockImplementation((top: number) => {
      scrolled.push(top);
    });
    await renderCalendar('de', 'week');
    await waitFor(() => expect(scrolled.at(-1)).toBeCloseTo((2400 * 7) / 24, 0));
  });
});

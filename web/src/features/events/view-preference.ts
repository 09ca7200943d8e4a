/**
 * The events screen remembers in localStorage: list or calendar view, the calendar's month/week/day,
 * and whether the calendar shows its layers (closures, holidays, bookings) behind the events.
 */
import { useState } from 'react';

export type EventsView = 'list' | 'calendar';
export type CalendarView = 'month' | 'week' | 'day';

const VIEW_KEY = 'heizplan.events.view';
const CALENDAR_VIEW_KEY = 'heizplan.events.calendarView';
const LAYERS_KEY = 'heizplan.events.calendarLayers';

function stored<T extends string>(key: string, allowed: readonly T[], fallback: T): T {
  try {
    const value = localStorage.getItem(key);
    return allowed.includes(value as T) ? (value as T) : fallback;
  } catch {
    // storage disabled (private mode): the default view it is
    return fallback;
  }
}

function usePreference<T extends string>(key: string, allowed: readonly T[], fallback: T) {
  const [value, setValue] = useState<T>(() => stored(key, allowed, fallback));
  const set = (next: T) => {
    setValue(next);
    try {
      localStorage.setItem(key, next);
    } catch {
      // not remembered, still switched
    }
  };
  return [value, set] as const;
}

export const useEventsView = () => usePreference<EventsView>(VIEW_KEY, ['list', 'calendar'], 'list');
export const useCalendarView = () =>
  usePreference<CalendarView>(CALENDAR_VIEW_KEY, ['month', 'week', 'day'], 'month');

/** Whether the calendar shows its layers (default: shown) and the switch, remembered like the view. */
export function useCalendarLayersShown() {
  const [value, set] = usePreference<'shown' | 'hidden'>(LAYERS_KEY, ['shown', 'hidden'], 'shown');
  return [value === 'shown', (shown: boolean) => set(shown ? 'shown' : 'hidden')] as const;
}

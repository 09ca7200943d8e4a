/**
 * The current instant as an input: components read it from `useClock()` instead of calling
 * `new Date()` / `Date.now()` themselves, so tests and previews can fix the instant and get the
 * same screen on any day and at any time of day. The app passes the system clock.
 */
import { createContext, type ReactNode, useContext } from 'react';

/** Returns the current instant as a `Date` (milliseconds since the epoch, UTC); called on every read. */
export type Clock = () => Date;

/** The browser's clock: the real current instant on every call. */
export const systemClock: Clock = () => new Date();

const ClockContext = createContext<Clock>(systemClock);

/**
 * Gives the components below it `clock` (default the system clock); tests and previews pass a
 * fixed one so "now", "today" and "this month" do not depend on when they run.
 */
export function ClockProvider({ clock = systemClock, children }: { clock?: Clock; children: ReactNode }) {
  return <ClockContext.Provider value={clock}>{children}</ClockContext.Provider>;
}

/**
 * The clock of the nearest `ClockProvider` (the system clock without one). Call it where the
 * instant is needed — in an event handler, a state initialiser or a render — rather than
 * keeping one `Date` for the component's life.
 */
export function useClock(): Clock {
  return useContext(ClockContext);
}

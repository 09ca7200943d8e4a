/**
 * What decided a heating log entry, by name (decisions 0051 to 0053): the closure or holiday, the
 * booking or the event its `details` point to, for the log screen and the log export.
 */
import type { LogEntry } from '@heizplan/contracts/heating';
import type { Db } from '../../db/client.ts';
import { namedBookings, namedClosures } from '../../heating/named-sources.ts';
import { eventTitles } from '../events/events.service.ts';

const idOf = (details: Record<string, unknown>, key: string) =>
  typeof details[key] === 'string' ? (details[key] as string) : undefined;

/**
 * Names the closures, bookings and events log entries' `details` point to, in three queries:
 * a function from an entry's details to what decided it (`closure`, `booking`, `event`, each
 * present when named). Holidays are named in `userId`'s language.
 */
export async function logSources(
  db: Db,
  userId: string,
  companyId: string,
  details: Record<string, unknown>[],
) {
  const ids = (key: string) => [...new Set(details.flatMap((d) => idOf(d, key) ?? []))];
  const closures = new Map(
    (await namedClosures(db, userId, companyId, ids('closureId'))).map((c) => [c.id, c]),
  );
  const bookings = new Map((await namedBookings(db, companyId, ids('bookingId'))).map((b) => [b.id, b]));
  const events = new Map((await eventTitles(db, companyId, ids('eventId'))).map((e) => [e.id, e]));
  return (d: Record<string, unknown>): Pick<LogEntry, 'closure' | 'booking' | 'event'> => {
    const closure = closures.get(idOf(d, 'closureId') ?? '');
    const booking = bookings.get(idOf(d, 'bookingId') ?? '');
    const event = events.get(idOf(d, 'eventId') ?? '');
    return {
      ...(closure ? { closure } : {}),
      ...(booking ? { booking } : {}),
      ...(event ? { event } : {}),
    };
  };
}

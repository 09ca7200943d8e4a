/**
 * react-big-calendar draws in the browser's zone; the events screen shows the company's
 * wall-clock times (the same the dialog and the list show), so instants are shifted before drawing.
 */
import { DateTime } from 'luxon';

/** A UTC instant as a browser-local Date showing the wall-clock time it has in `zone`. */
export const wallClock = (iso: string, zone: string) =>
  DateTime.fromISO(iso, { zone }).setZone('local', { keepLocalTime: true }).toJSDate();

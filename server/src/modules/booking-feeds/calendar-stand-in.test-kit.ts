/**
 * A local stand-in for the calendars booking feeds read (decision 0053), on 127.0.0.1:
 * - `GET /cal/<name>.ics`: the iCalendar text set in `calendars`, or the status set in `statuses`;
 * - `GET /big.ics`: 6 MB (over the 5 MB limit);
 * - `REPORT /remote.php/dav/calendars/alice/<name>/`: a CalDAV `calendar-query` answered like
 *   Nextcloud (207 multistatus, one response per object with its etag, and its calendar data when
 *   asked for), only with basic authentication `alice:geheim`.
 * Also helpers that build iCalendar text for bookings relative to now.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CalendarStandIn {
  origin: string;
  /** ICS text by name (`/cal/<name>.ics`). */
  calendars: Map<string, string>;
  /** An HTTP status to answer instead, by name. */
  statuses: Map<string, number>;
  /** CalDAV collections: the iCalendar objects by collection name. */
  collections: Map<string, string[]>;
  /** How many requests each path got. */
  hits: Map<string, number>;
  close(): Promise<void>;
}

const CALDAV_USER = 'alice';
export const CALDAV_PASSWORD = 'geheim';

const xmlEscape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export async function startCalendarStandIn(): Promise<CalendarStandIn> {
  const calendars = new Map<string, string>();
  const statuses = new Map<string, number>();
  const collections = new Map<string, string[]>();
  const hits = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0] ?? '';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const ics = /^\/cal\/([\w-]+)\.ics$/.exec(path);
      if (req.method === 'GET' && ics?.[1]) {
        const status = statuses.get(ics[1]);
        if (status) {
          res.statusCode = status;
          return res.end('failure');
        }
        const text = calendars.get(ics[1]);
        if (text === undefined) {
          res.statusCode = 404;
          return res.end();
        }
        res.setHeader('content-type', 'text/calendar; charset=utf-8');
        return res.end(text);
      }
      if (req.method === 'GET' && path === '/big.ics') {
        res.setHeader('content-type', 'text/calendar');
        res.write('BEGIN:VCALENDAR\r\n');
        for (let i = 0; i < 6; i++) res.write(`X-PAD:${'x'.repeat(1024 * 1024)}\r\n`);
        return res.end('END:VCALENDAR\r\n');
      }
      const dav = /^\/remote\.php\/dav\/calendars\/alice\/([\w-]+)\/$/.exec(path);
      if (req.method === 'REPORT' && dav?.[1]) {
        const expected = `Basic ${Buffer.from(`${CALDAV_USER}:${CALDAV_PASSWORD}`).toString('base64')}`;
        if (req.headers.authorization !== expected) {
          res.statusCode = 401;
          res.setHeader('www-authenticate', 'Basic realm="Nextcloud", charset="UTF-8"');
          res.setHeader('content-type', 'application/xml; charset=utf-8');
          return res.end(
            '<?xml version="1.0" encoding="utf-8"?><d:error xmlns:d="DAV:" xmlns:s="http://sabredav.org/ns"><s:exception>Sabre\\DAV\\Exception\\NotAuthenticated</s:exception></d:error>',
          );
        }
        if (!body.includes('calendar-query') || req.headers.depth !== '1') {
          res.statusCode = 400;
          return res.end();
        }
        const withData = body.includes('calendar-data');
        const responses = (collections.get(dav[1]) ?? []).map(
          (object, i) => `<d:response>
  <d:href>${path}event-${i}.ics</d:href>
  <d:propstat>
   <d:prop>
    <d:getetag>&quot;etag-${i}&quot;</d:getetag>${withData ? `\n    <cal:calendar-data>${xmlEscape(object)}</cal:calendar-data>` : ''}
   </d:prop>
   <d:status>HTTP/1.1 200 OK</d:status>
  </d:propstat>
 </d:response>`,
        );
        res.statusCode = 207;
        res.setHeader('content-type', 'application/xml; charset=utf-8');
        return res.end(`<?xml version="1.0"?>
<d:multistatus xmlns:d="DAV:" xmlns:s="http://sabredav.org/ns" xmlns:cal="urn:ietf:params:xml:ns:caldav" xmlns:cs="http://calendarserver.org/ns/" xmlns:oc="http://owncloud.org/ns" xmlns:nc="http://nextcloud.org/ns">
 ${responses.join('\n ')}
</d:multistatus>`);
      }
      res.statusCode = 404;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    calendars,
    statuses,
    collections,
    hits,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const stamp = (d: Date) => `${d.toISOString().replace(/[-:]/g, '').slice(0, 15)}Z`;

/** An iCalendar text with one event per booking (UTC times). */
export function icsOf(bookings: { uid: string; title: string; start: Date; end: Date }[]): string {
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Heizplan tests//DE',
    ...bookings.flatMap((b) => [
      'BEGIN:VEVENT',
      `UID:${b.uid}`,
      'DTSTAMP:20260101T000000Z',
      `DTSTART:${stamp(b.start)}`,
      `DTEND:${stamp(b.end)}`,
      `SUMMARY:${b.title}`,
      'END:VEVENT',
    ]),
    'END:VCALENDAR',
    '',
  ].join('\r\n');
}

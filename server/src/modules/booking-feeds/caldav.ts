/**
 * CalDAV calendars (RFC 4791) for booking feeds (decision 0053), through tsdav: the calendar
 * objects of one collection URL whose events overlap the window, with HTTP basic authentication,
 * fetched through the feed's guarded client (feed-fetch.ts) — a `calendar-query` REPORT for the
 * objects' hrefs and a second one for their data, as Nextcloud, Radicale, Baïkal and SOGo answer.
 * The texts are parsed like an ICS feed's (ics.ts).
 */
import { fetchCalendarObjects } from 'tsdav';
import { FeedFetchError, httpUrlOf } from './feed-fetch.ts';

/** `Basic` credentials (RFC 7617, UTF-8). */
export function basicAuth(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}`;
}

/**
 * The iCalendar texts of the collection at `url` with an event in `[from, to)`.
 * @throws FeedFetchError the server refused (status and reason, e.g. 401 Unauthorized) or the
 * guarded client's refusal, timeout or size limit.
 */
export async function fetchCalDavDocuments(
  url: string,
  credentials: { username: string; password: string } | null,
  fetchImpl: typeof fetch,
  from: Date,
  to: Date,
): Promise<string[]> {
  const collection = httpUrlOf(url).replace(/\/?$/, '/');
  try {
    const objects = await fetchCalendarObjects({
      calendar: { url: collection },
      timeRange: { start: from.toISOString(), end: to.toISOString() },
      useMultiGet: false,
      headers: credentials ? { authorization: basicAuth(credentials.username, credentials.password) } : {},
      fetch: fetchImpl,
    });
    return objects.flatMap((o) => (typeof o.data === 'string' && o.data.trim() !== '' ? [o.data] : []));
  } catch (err) {
    if (err instanceof FeedFetchError) throw err;
    const message = (err as Error).message ?? String(err);
    // tsdav: "Collection query failed: 401 Unauthorized. Raw response: …" — the body is no reason.
    const refusal = /query failed: (\d{3})([^.]*)/.exec(message);
    if (refusal) {
      const answer = `${refusal[1]}${refusal[2]}`.trim();
      throw new FeedFetchError(`The CalDAV server answered ${answer}.`, 'feed_http_status', {
        status: Number(refusal[1]),
        statusText: (refusal[2] ?? '').trim(),
      });
    }
    const reason = message.slice(0, 300);
    throw new FeedFetchError(`CalDAV: ${reason}`, 'feed_caldav_failed', { reason });
  }
}

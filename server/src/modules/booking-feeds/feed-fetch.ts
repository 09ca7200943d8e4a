/**
 * The HTTP client of booking feeds (decision 0053), one per sync. A company's operator enters
 * any URL, so the server guards what it fetches (OWASP SSRF Prevention Cheat Sheet):
 * - only http and https (`webcal://` is fetched as `https://`);
 * - no loopback, link-local, private, unique-local or otherwise non-public address, checked for
 *   an IP literal before connecting and inside the DNS lookup of every connection (a name that
 *   resolves to such an address is refused then, so DNS rebinding does not get around it), unless
 *   FEEDS_ALLOW_PRIVATE — except the app's own origin (PUBLIC_URL), whose calendar the demo serves;
 * - redirects are followed by hand (at most 5), each hop checked like the first, and credentials
 *   are not sent to another origin;
 * - one deadline for the whole sync (10 s by default) and a size limit per answer (5 MB by default,
 *   counted after decompression).
 * Failures reject with a `FeedFetchError` whose English message goes to the feed's `lastError` and
 * whose code and params to `lastErrorCode` and `lastErrorParams` (the web's texts).
 */
import type { BookingFeedErrorCode } from '@heizplan/contracts/booking-feeds';
import ipaddr from 'ipaddr.js';
import { Agent, fetch as undiciFetch } from 'undici';
import { isPublicAddress, literalHost, publicOnlyLookup } from '../alerts/webhook-address.ts';

export const FEED_TIMEOUT_MS = 10_000;
export const FEED_MAX_BYTES = 5 * 1024 * 1024;
const MAX_REDIRECTS = 5;

/**
 * Why a fetch failed: in English for the feed's status and the log, and as a code with params
 * for the web, which words it in the user's language.
 */
export class FeedFetchError extends Error {
  constructor(
    message: string,
    public readonly code: BookingFeedErrorCode,
    public readonly params: Record<string, string | number> = {},
  ) {
    super(message);
    this.name = 'FeedFetchError';
  }
}

export interface FeedFetchOptions {
  /** FEEDS_ALLOW_PRIVATE: fetch from any address. */
  allowPrivate: boolean;
  /** Origin of the app itself (`new URL(PUBLIC_URL).origin`): fetched whatever its address. */
  ownOrigin?: string;
  /** Deadline of everything fetched through this client, ms from its creation. */
  timeoutMs?: number;
  /** Largest answer body, bytes (after decompression). */
  maxBytes?: number;
}

/** `webcal://` (Apple's and Outlook's subscription links) → `https://`; anything else as given. */
export function httpUrlOf(url: string): string {
  return url.replace(/^webcals?:\/\//i, 'https://');
}

/** True when `url` may be fetched whatever its address: FEEDS_ALLOW_PRIVATE or the app's own origin. */
function unguarded(url: URL, options: FeedFetchOptions): boolean {
  return options.allowPrivate || (options.ownOrigin !== undefined && url.origin === options.ownOrigin);
}

/**
 * The non-public address `url` names as an IP literal, or null (a name is checked when connecting).
 */
function privateLiteral(url: URL): string | null {
  const literal = literalHost(url);
  return literal && !isPublicAddress(literal) ? ipaddr.parse(literal).toString() : null;
}

/** The refusal of a non-public `address`. */
function privateAddress(message: string, address: string): FeedFetchError {
  return new FeedFetchError(`${message}; only public addresses are fetched.`, 'feed_private_address', {
    address,
  });
}

/** Why a request failed: the refusal, timeout or socket error behind fetch's TypeError. */
function failureOf(err: unknown, url: URL, timeoutMs: number): FeedFetchError {
  if (err instanceof FeedFetchError) return err;
  const seconds = timeoutMs / 1000;
  const timeout = () =>
    new FeedFetchError(`No complete answer within ${seconds} s.`, 'feed_timeout', { seconds });
  const name = (err as { name?: string }).name;
  if (name === 'TimeoutError' || name === 'AbortError') return timeout();
  const cause = (err as { cause?: { code?: string; message?: string; name?: string } }).cause;
  if (cause?.name === 'TimeoutError' || cause?.name === 'AbortError') return timeout();
  switch (cause?.code) {
    case 'EPRIVATEADDRESS': {
      // publicOnlyLookup names the refused address only in its message ("… address 10.0.0.1").
      const address = /address (\S+)$/.exec(cause.message ?? '')?.[1] ?? url.hostname;
      return privateAddress(cause.message ?? url.hostname, address);
    }
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new FeedFetchError(`The name ${url.hostname} does not resolve.`, 'feed_name_unresolved', {
        host: url.hostname,
      });
    case 'ECONNREFUSED':
      return new FeedFetchError(`${url.host} refused the connection.`, 'feed_connection_refused', {
        host: url.host,
      });
    case 'ECONNRESET':
      return new FeedFetchError(`${url.host} closed the connection.`, 'feed_connection_closed', {
        host: url.host,
      });
    default: {
      const reason = cause?.message ?? (err instanceof Error ? err.message : String(err));
      return new FeedFetchError(reason, 'feed_connection_failed', { reason });
    }
  }
}

/** The body of `res`, refused when larger than `maxBytes`. */
async function readLimited(res: Response, maxBytes: number): Promise<Uint8Array> {
  const megabytes = Math.round(maxBytes / 1024 / 1024);
  const tooLarge = () =>
    new FeedFetchError(`The answer is larger than ${megabytes} MB.`, 'feed_too_large', { megabytes });
  const declared = Number(res.headers.get('content-length') ?? Number.NaN);
  if (declared > maxBytes) {
    await res.body?.cancel();
    throw tooLarge();
  }
  if (!res.body) return new Uint8Array();
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

/**
 * A `fetch` for one sync with the guards of the module doc; answers come back fully read (a
 * `Response` over the bytes), so callers (the ICS fetch, tsdav) never stream past the limits.
 * @throws (rejects) FeedFetchError: refused address or scheme, timeout, too large, too many
 * redirects, or the connection's error.
 */
export function feedFetch(options: FeedFetchOptions): typeof fetch {
  const timeoutMs = options.timeoutMs ?? FEED_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? FEED_MAX_BYTES;
  const deadline = AbortSignal.timeout(timeoutMs);
  const guarded = new Agent({ connect: { lookup: publicOnlyLookup } });
  return (async (input: string | URL | Request, init: RequestInit = {}) => {
    let url = new URL(httpUrlOf(input instanceof Request ? input.url : String(input)));
    let method = init.method ?? 'GET';
    let body = init.body;
    const headers = new Headers(init.headers);
    const origin = url.origin;
    for (let hop = 0; ; hop++) {
      if (url.protocol !== 'http:' && url.protocol !== 'https:')
        throw new FeedFetchError(
          `Only http:// and https:// addresses are fetched, not ${url.protocol}//.`,
          'feed_scheme',
          { scheme: `${url.protocol}//` },
        );
      const open = unguarded(url, options);
      const refused = open ? null : privateLiteral(url);
      if (refused) throw privateAddress(`${refused} is not a public address`, refused);
      if (url.origin !== origin) headers.delete('authorization');
      let res: Awaited<ReturnType<typeof undiciFetch>>;
      try {
        res = await undiciFetch(url, {
          method,
          headers: [...headers],
          body: body as never,
          redirect: 'manual',
          signal: init.signal ? AbortSignal.any([deadline, init.signal]) : deadline,
          ...(open ? {} : { dispatcher: guarded }),
        });
      } catch (err) {
        throw failureOf(err, url, timeoutMs);
      }
      const location = res.headers.get('location');
      if (res.status >= 300 && res.status < 400 && location) {
        await res.body?.cancel();
        if (hop >= MAX_REDIRECTS)
          throw new FeedFetchError(`More than ${MAX_REDIRECTS} redirects.`, 'feed_too_many_redirects', {
            max: MAX_REDIRECTS,
          });
        url = new URL(httpUrlOf(new URL(location, url).toString()));
        // RFC 9110 §15.4: 303 (and, as browsers do, 301/302 after a POST) continue with GET.
        if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === 'POST')) {
          method = 'GET';
          body = undefined;
        }
        continue;
      }
      let bytes: Uint8Array;
      try {
        bytes = await readLimited(res as unknown as Response, maxBytes);
      } catch (err) {
        throw failureOf(err, url, timeoutMs);
      }
      return new Response(bytes.byteLength > 0 ? bytes : null, {
        status: res.status,
        statusText: res.statusText,
        headers: [...res.headers],
      });
    }
  }) as typeof fetch;
}

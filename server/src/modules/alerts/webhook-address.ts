/**
 * Webhook endpoints must be public (OWASP SSRF Prevention Cheat Sheet): a company admin must not
 * make Heizplan POST into the operator's own network (loopback, link-local, private, unique-local,
 * carrier-grade NAT, multicast and reserved addresses). Checked when an endpoint is registered
 * (its name resolved once) and again at every delivery, where the address the connection is
 * really made to is checked inside the DNS lookup of the HTTP client — a name that later resolves
 * to a private address (DNS rebinding) is refused at that moment. `WEBHOOKS_ALLOW_PRIVATE` turns
 * both checks off (a receiver on the operator's own network).
 */
import { type LookupAddress, type LookupOptions, lookup } from 'node:dns';
import { lookup as lookupAsync } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent, fetch as undiciFetch } from 'undici';

/**
 * True when `address` (IPv4 or IPv6 text) is a public unicast address; an IPv4-mapped IPv6
 * address is judged by its IPv4 address. Ranges: ipaddr.js (IANA special-purpose registries).
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  return parsed.range() === 'unicast';
}

/** The host of a URL as an IP literal (without IPv6 brackets), or null for a name. */
export function literalHost(url: URL): string | null {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return isIP(host) ? host : null;
}

/**
 * The first non-public address `url` points to, or null when it points only to public ones or
 * its name does not resolve now (it is checked again at every delivery).
 */
export async function privateTargetOf(url: string): Promise<string | null> {
  const parsed = new URL(url);
  const literal = literalHost(parsed);
  if (literal) return isPublicAddress(literal) ? null : literal;
  try {
    const addresses = await lookupAsync(parsed.hostname, { all: true });
    return addresses.find((a) => !isPublicAddress(a.address))?.address ?? null;
  } catch {
    return null;
  }
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * `dns.lookup` that fails (code `EPRIVATEADDRESS`) for a name resolving to any non-public address;
 * also the booking feeds' guard (modules/booking-feeds/feed-fetch.ts).
 */
export function publicOnlyLookup(hostname: string, options: LookupOptions, callback: LookupCallback) {
  lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    const refused = addresses.find((a) => !isPublicAddress(a.address));
    if (refused) {
      const error: NodeJS.ErrnoException = new Error(
        `${hostname} resolves to the non-public address ${refused.address}`,
      );
      error.code = 'EPRIVATEADDRESS';
      return callback(error, []);
    }
    if (options.all) return callback(null, addresses);
    const [first] = addresses;
    callback(null, first?.address ?? '', first?.family);
  });
}

/**
 * The HTTP client of webhook deliveries: plain `fetch` with `allowPrivate`, otherwise one that
 * refuses a non-public IP literal before connecting and a name resolving to one while
 * connecting. @throws (rejects) like fetch, with the refusal as the error's message.
 */
export function webhookFetch(allowPrivate: boolean): typeof fetch {
  if (allowPrivate) return fetch;
  const dispatcher = new Agent({ connect: { lookup: publicOnlyLookup } });
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const literal = literalHost(url);
    if (literal && !isPublicAddress(literal)) throw new Error(`${literal} is not a public address`);
    return undiciFetch(url, { ...(init as object), dispatcher });
  }) as unknown as typeof fetch;
}

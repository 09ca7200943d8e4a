/**
 * The booking feeds' guarded HTTP client (decision 0053) against two local servers: private
 * addresses refused (also behind a redirect from the app's own origin) unless allowed, only http
 * and https, the size limit with and without Content-Length, the deadline, and credentials kept
 * from another origin; each refusal with its English message and its code and params.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FeedFetchError, feedFetch, httpUrlOf } from './feed-fetch.ts';

let a: Server;
let b: Server;
let originA: string;
let originB: string;
/** Responses still open (the one that never answers), ended after the tests. */
const hanging: import('node:http').ServerResponse[] = [];

function listen(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  );
}

beforeAll(async () => {
  b = createServer((req, res) => {
    res.setHeader('content-type', 'text/plain');
    res.end(`auth:${req.headers.authorization ?? 'none'}`);
  });
  originB = await listen(b);
  a = createServer((req, res) => {
    switch (req.url) {
      case '/ok':
        res.setHeader('content-type', 'text/calendar');
        return res.end(`BEGIN:VCALENDAR\r\nauth:${req.headers.authorization ?? 'none'}\r\nEND:VCALENDAR\r\n`);
      case '/big':
        res.setHeader('content-length', '2048');
        return res.end('x'.repeat(2048));
      case '/big-chunked':
        res.write('x'.repeat(700));
        res.write('x'.repeat(700));
        return res.end();
      case '/hang':
        hanging.push(res);
        return;
      case '/to-b':
        res.statusCode = 302;
        res.setHeader('location', `${originB}/echo`);
        return res.end();
      case '/loop':
        res.statusCode = 302;
        res.setHeader('location', '/loop');
        return res.end();
      default:
        res.statusCode = 404;
        return res.end();
    }
  });
  originA = await listen(a);
});
afterAll(async () => {
  for (const res of hanging) res.end();
  await Promise.all([a, b].map((s) => new Promise((r) => s.close(r))));
});

/** The rejection of `promise` as its message, code and params (a FeedFetchError's). */
const failure = async (promise: Promise<unknown>) => {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(FeedFetchError);
  const { message, code, params } = err as FeedFetchError;
  return { message, code, params };
};
const privateRefusal = {
  message: '127.0.0.1 is not a public address; only public addresses are fetched.',
  code: 'feed_private_address',
  params: { address: '127.0.0.1' },
};

describe('feedFetch', () => {
  it('fetches from a private address only when allowed (FEEDS_ALLOW_PRIVATE)', async () => {
    const allowed = await feedFetch({ allowPrivate: true })(`${originA}/ok`);
    expect(allowed.status).toBe(200);
    expect(await allowed.text()).toContain('BEGIN:VCALENDAR');
    expect(await failure(feedFetch({ allowPrivate: false })(`${originA}/ok`))).toEqual(privateRefusal);
  });

  it("fetches the app's own origin, but follows no redirect from there to a private address", async () => {
    const own = feedFetch({ allowPrivate: false, ownOrigin: originA });
    expect((await own(`${originA}/ok`)).status).toBe(200);
    expect(await failure(own(`${originA}/to-b`))).toEqual(privateRefusal);
  });

  it('sends credentials to the same origin only, also across a redirect', async () => {
    const client = feedFetch({ allowPrivate: true });
    const headers = { authorization: 'Basic YWxpY2U6Z2VoZWlt' };
    expect(await (await client(`${originA}/ok`, { headers })).text()).toContain(
      'auth:Basic YWxpY2U6Z2VoZWlt',
    );
    expect(await (await client(`${originA}/to-b`, { headers })).text()).toBe('auth:none');
  });

  it('refuses other schemes, endless redirects, answers over the size limit and answers past the deadline', async () => {
    const client = feedFetch({ allowPrivate: true, maxBytes: 1024 });
    expect(await failure(client('ftp://example.org/room.ics'))).toEqual({
      message: 'Only http:// and https:// addresses are fetched, not ftp://.',
      code: 'feed_scheme',
      params: { scheme: 'ftp://' },
    });
    expect(await failure(client(`${originA}/loop`))).toEqual({
      message: 'More than 5 redirects.',
      code: 'feed_too_many_redirects',
      params: { max: 5 },
    });
    const tooLarge = {
      message: expect.stringMatching(/^The answer is larger than/),
      code: 'feed_too_large',
      params: { megabytes: expect.any(Number) },
    };
    expect(await failure(client(`${originA}/big`))).toEqual(tooLarge);
    expect(await failure(client(`${originA}/big-chunked`))).toEqual(tooLarge);
    // The server never answers: the fetch gives up at its deadline.
    expect(await failure(feedFetch({ allowPrivate: true, timeoutMs: 200 })(`${originA}/hang`))).toEqual({
      message: 'No complete answer within 0.2 s.',
      code: 'feed_timeout',
      params: { seconds: 0.2 },
    });
  });

  it('names the host of a refused connection and of a name that does not resolve', async () => {
    const closed = createServer();
    const origin = await listen(closed);
    await new Promise((r) => closed.close(r));
    const host = new URL(origin).host;
    expect(await failure(feedFetch({ allowPrivate: true })(`${origin}/room.ics`))).toEqual({
      message: `${host} refused the connection.`,
      code: 'feed_connection_refused',
      params: { host },
    });
    // RFC 6761: .invalid never resolves.
    expect(await failure(feedFetch({ allowPrivate: true })('https://calendar.invalid/room.ics'))).toEqual({
      message: 'The name calendar.invalid does not resolve.',
      code: 'feed_name_unresolved',
      params: { host: 'calendar.invalid' },
    });
  });

  it('reads webcal:// as https://', () => {
    expect(httpUrlOf('webcal://outlook.office365.com/owa/calendar/x/calendar.ics')).toBe(
      'https://outlook.office365.com/owa/calendar/x/calendar.ics',
    );
    expect(httpUrlOf('https://example.org/a.ics')).toBe('https://example.org/a.ics');
  });
});

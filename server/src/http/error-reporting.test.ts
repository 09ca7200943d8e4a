/**
 * Server errors reach Sentry when SENTRY_DSN is set (spec §8, §9): proven against a small local
 * stand-in of Sentry's ingestion endpoint, which receives the SDK's envelopes over HTTP. A 5xx
 * is reported with the request id and the route's pattern; 4xx answers are not.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as Sentry from '@sentry/node';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers.ts';
import { createCompany } from '../modules/me/account.fixtures.ts';

interface Envelope {
  path: string;
  items: { type?: string; payload: Record<string, unknown> }[];
}

/** Envelope: a header line, then per item a header line and a payload line (JSON each). */
function parseEnvelope(path: string, body: string): Envelope {
  const [, ...lines] = body.split('\n').filter((line) => line.trim() !== '');
  const items: Envelope['items'] = [];
  for (let i = 0; i + 1 < lines.length; i += 2) {
    const header = JSON.parse(lines[i] as string) as { type?: string };
    items.push({ type: header.type, payload: JSON.parse(lines[i + 1] as string) });
  }
  return { path, items };
}

describe('server errors to Sentry', () => {
  let sentry: Server;
  let t: TestApp;
  const envelopes: Envelope[] = [];
  const events = () => envelopes.flatMap((e) => e.items.filter((item) => item.type === 'event'));

  beforeAll(async () => {
    sentry = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        envelopes.push(parseEnvelope(request.url ?? '', body));
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    sentry.listen(0, '127.0.0.1');
    await once(sentry, 'listening');
    const { port } = sentry.address() as AddressInfo;
    t = await buildTestApp({ SENTRY_DSN: `http://publickey@127.0.0.1:${port}/1` });
  });
  afterAll(async () => {
    await t?.close();
    sentry?.close();
  });

  it('sends nothing for client errors (4xx)', async () => {
    const company = await createCompany(t, 'sentry-alice');
    const url = `/api/companies/${company.id}/`;
    expect((await t.call('GET', url, undefined, 'sentry-mallory')).statusCode).toBe(404);
    expect((await t.call('PATCH', url, { min_temperature: 'warm' }, 'sentry-alice')).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    await Sentry.flush(2000);
    expect(events()).toEqual([]);
  });

  it('reports a 500 at sample rate 1 with the request id and the route pattern, not the raw URL', async () => {
    const company = await createCompany(t, 'sentry-bob');
    vi.spyOn(t.services.companies, 'get').mockRejectedValueOnce(new Error('database is on fire'));
    const res = await t.call('GET', `/api/companies/${company.id}/`, undefined, 'sentry-bob');
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toContain('on fire');
    await vi.waitFor(() => expect(events()).toHaveLength(1), { timeout: 5000 });
    expect(envelopes[0]?.path).toMatch(/^\/api\/1\/envelope\//);
    const event = events()[0]?.payload as {
      exception: { values: { type: string; value: string }[] };
      tags: Record<string, string>;
      contexts: { request: { method: string; route: string } };
      release: string;
      environment: string;
    };
    expect(event.exception.values.at(-1)).toMatchObject({ type: 'Error', value: 'database is on fire' });
    expect(event.tags.request_id).toBe(res.headers['x-request-id']);
    expect(event.contexts.request).toEqual({ method: 'GET', route: '/api/companies/:id/' });
    expect(JSON.stringify(event)).not.toContain(company.id);
    expect(event.release).toMatch(/^heizplan@/);
    expect(event.environment).toBe('test');
    expect(Sentry.getClient()?.getOptions().sampleRate).toBe(1);
  });
});

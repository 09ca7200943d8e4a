/**
 * Every error the server sends is RFC 9457 problem+json and quotes nothing of the
 * request — the framework's own errors included, and the ones Node's HTTP parser raises before
 * Fastify sees the request.
 */
import { once } from 'node:events';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers.ts';
import { eventually } from '../lorawan/test-fixture.ts';

/** A marker no answer may contain. */
const ECHO = 'ECHO<script>';

function expectProblem(res: { status: number; type: string; body: string }, status: number) {
  expect(res.status, res.body).toBe(status);
  expect(res.type).toBe('application/problem+json; charset=utf-8');
  const problem = JSON.parse(res.body);
  expect(problem).toMatchObject({ type: 'about:blank', status, title: expect.any(String) });
  expect(problem.detail).toEqual(expect.any(String));
  expect(res.body).not.toContain('ECHO');
  expect(res.body).not.toContain('FST_');
  return problem;
}

const fromInject = (res: LightMyRequestResponse) => ({
  status: res.statusCode,
  type: String(res.headers['content-type']),
  body: res.body,
});

/** Sends `raw` bytes and resolves with the status, content type and body of the answer. */
function rawRequest(port: number, raw: string): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(raw));
    let data = '';
    socket.on('data', (chunk) => {
      data += chunk;
    });
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', body = ''] = data.split('\r\n\r\n');
      resolve({
        status: Number(head.split(' ')[1]),
        type: head.match(/^content-type: (.*)$/im)?.[1] ?? '',
        body,
      });
    });
  });
}

describe('errors the framework raises', () => {
  let t: TestApp;
  let auth: { authorization: string };
  let units: string;
  beforeAll(async () => {
    t = await buildTestApp();
    auth = await t.as('alice');
    units = '/api/companies/c1/units';
    await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => t.close());
  const port = () => (t.app.server.address() as { port: number }).port;
  const post = (contentType: string, payload: string) =>
    t.app.inject({ method: 'POST', url: units, headers: { ...auth, 'content-type': contentType }, payload });

  it('404 for an unknown route or method, without the path', async () => {
    expectProblem(fromInject(await t.app.inject({ method: 'GET', url: `/api/${ECHO}` })), 404);
    // Fastify has no 405: another method on a known path is an unknown route.
    expectProblem(fromInject(await t.app.inject({ method: 'PUT', url: `/api/${ECHO}/units` })), 404);
  });

  it('400 for a body that is not JSON or empty, without quoting it', async () => {
    const bad = expectProblem(fromInject(await post('application/json', `{"name": ${ECHO}`)), 400);
    expect(bad).toMatchObject({ title: 'Bad Request', detail: 'The request body is not valid JSON.' });
    expectProblem(fromInject(await post('application/json', '')), 400);
  });

  it('413 for a body over the limit, 415 for a content type no route takes', async () => {
    expectProblem(
      fromInject(await post('application/json', JSON.stringify({ name: 'x'.repeat(1_100_000) }))),
      413,
    );
    const unsupported = expectProblem(fromInject(await post(`application/${ECHO}`, 'x')), 415);
    expect(unsupported.title).toBe('Unsupported Media Type');
  });

  it('414 for an overlong path parameter and 400 for a path that is not valid percent-encoding', async () => {
    const long = await t.app.inject({
      method: 'GET',
      url: `/api/companies/${ECHO}${'a'.repeat(1000)}/units`,
    });
    expect(expectProblem(fromInject(long), 414).title).toBe('URI Too Long');
    const bad = await t.app.inject({ method: 'GET', url: `/api/companies/${ECHO}%E0%A4%A/units` });
    expectProblem(fromInject(bad), 400);
  });

  it('431 for headers over the limit (a 100 kB query string), answered by the HTTP parser', async () => {
    const res = await fetch(`http://127.0.0.1:${port()}/api/health?q=${ECHO}${'a'.repeat(100_000)}`);
    expectProblem(
      { status: res.status, type: res.headers.get('content-type') ?? '', body: await res.text() },
      431,
    );
  });

  it('400 for a request Node cannot parse', async () => {
    expectProblem(await rawRequest(port(), `GET /api/health HTTP/1.1\r\nHost: x\r\n${ECHO}\r\n\r\n`), 400);
  });
});

it('503 problem+json for a request that arrives while the server shuts down', async () => {
  const t = await buildTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const socket = connect((t.app.server.address() as { port: number }).port, '127.0.0.1');
  await once(socket, 'connect');
  // Half a request: the connection is busy, so shutting down waits for it instead of closing it.
  socket.write('GET /api/health HTTP/1.1\r\nHost: x\r\n');
  let data = '';
  socket.on('data', (chunk) => {
    data += chunk;
  });
  const closed = once(socket, 'close');
  // The server reads the half request on its own time and signals nothing until the headers are
  // complete, so this is the one wait left: a head start for it, not a wait for an outcome.
  await sleep(50);
  const closing = t.app.close();
  await eventually('the server to stop listening', () => !t.app.server.listening, 5_000);
  socket.write('\r\n');
  await closed;
  await closing;
  await t.database.close();
  const [head = '', body = ''] = data.split('\r\n\r\n');
  expectProblem(
    { status: Number(head.split(' ')[1]), type: head.match(/^content-type: (.*)$/im)?.[1] ?? '', body },
    503,
  );
  expect(head).toMatch(/^connection: close$/im);
});

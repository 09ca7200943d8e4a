/**
 * The provider's mount at /oidc next to the SPA fallback and the /api bearer hook: with a
 * built web app present, /oidc paths (known or not) are answered by oidc-provider, never by
 * index.html, and never need a bearer token; other unknown GETs still get the SPA.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type RunningApp, startApp } from './identity.test-kit.ts';

let webDist: string;
let running: RunningApp;

beforeAll(async () => {
  webDist = await mkdtemp(path.join(tmpdir(), 'heizplan-web-'));
  await writeFile(path.join(webDist, 'index.html'), '<!doctype html><title>SPA</title>');
  running = await startApp({ env: { WEB_DIST: webDist } });
});
afterAll(async () => {
  await running?.close();
  await rm(webDist, { recursive: true, force: true });
});

it('serves discovery and keys at /oidc without a token', async () => {
  const discovery = await fetch(`${running.baseUrl}/oidc/.well-known/openid-configuration`);
  expect(discovery.status).toBe(200);
  expect(await discovery.json()).toMatchObject({ issuer: `${running.baseUrl}/oidc` });
  const jwks = await fetch(`${running.baseUrl}/oidc/jwks`);
  expect(((await jwks.json()) as { keys: unknown[] }).keys).toHaveLength(1);
});

it('answers unknown /oidc paths from the provider, not with the SPA', async () => {
  const res = await fetch(`${running.baseUrl}/oidc/no-such-endpoint`);
  expect(res.status).toBe(404);
  expect(await res.text()).not.toContain('<title>SPA</title>');
  const spa = await fetch(`${running.baseUrl}/units`);
  expect(await spa.text()).toContain('<title>SPA</title>');
});

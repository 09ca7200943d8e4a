/**
 * The built web app goes out compressed and cached by name (first load): the build's
 * brotli or gzip copy as the browser accepts, the plain file otherwise, always with
 * `Vary: Accept-Encoding`; hashed assets cached for a year, the HTML pages revalidated.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers.ts';
import { cacheControlFor, HASHED_ASSET_CACHE, REVALIDATED_CACHE } from './static-web.ts';

const SCRIPT = `console.log(${JSON.stringify('heizplan '.repeat(200))});`;
const SHELL =
  '<!doctype html><title>SPA</title><script type="module" src="/assets/main-Ab12Cd34.js"></script>';
const PUBLIC_PAGE = '<!doctype html><title>Heating view</title>';

/** Writes `text` with the build's `.br` and `.gz` copies beside it. */
async function withCopies(file: string, text: string) {
  await writeFile(file, text);
  await writeFile(`${file}.br`, brotliCompressSync(text));
  await writeFile(`${file}.gz`, gzipSync(text));
}

describe('static web app', () => {
  let t: TestApp;
  let webDist: string;
  const get = (url: string, encoding?: string) =>
    t.app.inject({ method: 'GET', url, headers: encoding ? { 'accept-encoding': encoding } : {} });

  beforeAll(async () => {
    webDist = await mkdtemp(path.join(tmpdir(), 'heizplan-static-'));
    await mkdir(path.join(webDist, 'assets'));
    await withCopies(path.join(webDist, 'assets', 'main-Ab12Cd34.js'), SCRIPT);
    await withCopies(path.join(webDist, 'index.html'), SHELL);
    await writeFile(path.join(webDist, 'heating-view.html'), PUBLIC_PAGE);
    await writeFile(path.join(webDist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    t = await buildTestApp({ WEB_DIST: webDist });
  });
  afterAll(async () => {
    await t?.close();
    await rm(webDist, { recursive: true, force: true });
  });

  it('sends the brotli copy to a browser that takes it, gzip to one that takes only gzip', async () => {
    const br = await get('/assets/main-Ab12Cd34.js', 'gzip, deflate, br');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/^text\/javascript|^application\/javascript/);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(SCRIPT);
    expect(br.rawPayload.length).toBeLessThan(SCRIPT.length / 4);

    const gz = await get('/assets/main-Ab12Cd34.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(SCRIPT);
  });

  it('sends the plain file to a client that accepts no compression, still varying on it', async () => {
    const plain = await get('/assets/main-Ab12Cd34.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    expect(plain.body).toBe(SCRIPT);
  });

  it('caches hashed assets for a year and makes the pages revalidate, compressed or not', async () => {
    for (const encoding of ['br', 'gzip', undefined]) {
      expect((await get('/assets/main-Ab12Cd34.js', encoding)).headers['cache-control']).toBe(
        HASHED_ASSET_CACHE,
      );
    }
    // The SPA fallback serves index.html (compressed too); the public page is its own file.
    for (const url of ['/', '/units', '/heating-view/abcdefghijklmnopqrstuv', '/favicon.svg']) {
      const res = await get(url, 'br');
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe(REVALIDATED_CACHE);
    }
    const shell = await get('/units', 'br');
    expect(shell.headers['content-encoding']).toBe('br');
    expect(shell.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(brotliDecompressSync(shell.rawPayload).toString()).toBe(SHELL);
  });

  it('decides the cache by folder, whichever copy is sent', () => {
    expect(cacheControlFor('/w', '/w/assets/x-1.js.br')).toBe(HASHED_ASSET_CACHE);
    expect(cacheControlFor('/w', '/w/index.html.gz')).toBe(REVALIDATED_CACHE);
    expect(cacheControlFor('/w', '/w/assets')).toBe(REVALIDATED_CACHE);
    expect(cacheControlFor('/w', '/w/legal/assets.html')).toBe(REVALIDATED_CACHE);
  });
});

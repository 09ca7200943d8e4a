/**
 * The operator app's first load: the JavaScript a signed-in user's browser fetches
 * to render /units, target ≤ 150 KiB gzipped, next to the figures before screens were split and
 * assets compressed (one 920 KB chunk set, 271 KiB gzipped, sent uncompressed).
 *
 * Run: `npx tsx bench/first-load.bench.ts` (part of `npm run bench`). Builds the web app, starts
 * the real server (web/e2e/server.ts: PGlite in a temporary folder, embedded sign-in), signs up
 * in Debian's Chromium (CHROMIUM_PATH) and opens /units again in a fresh tab with the cache off,
 * recording every script the page fetches until the network is idle. Sizes: as sent (the
 * server's brotli), gzip -9 and raw, from the build's files.
 */
import { execSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { signUpWithCompany } from '../web/e2e/accounts.ts';
import { launchBrowser } from '../web/e2e/browser.ts';
import { startServer } from '../web/e2e/server.ts';

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'web/dist');
const TARGET_GZIP_KIB = 150;
const BEFORE = { rawKB: 920, gzipKiB: 271 };
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

interface Script {
  file: string;
  sentBytes: number;
  gzipBytes: number;
  rawBytes: number;
}

const kib = (bytes: number) => (bytes / 1024).toFixed(1);

async function main() {
  if (!existsSync(chromium)) {
    console.log(`first load: skipped, no Chromium at ${chromium}`);
    return;
  }
  execSync('npm run build -w web', { cwd: root, stdio: 'ignore' });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'heizplan-bench-first-load-'));
  const server = await startServer({ dataDir });
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ locale: 'de-DE', viewport: { width: 1280, height: 800 } });
    const signUp = await context.newPage();
    await signUp.goto(`${server.baseURL}/units`);
    await signUpWithCompany(signUp, {
      baseURL: server.baseURL,
      account: { name: 'Bench', email: 'bench@example.com', password: 'first load bench' },
      company: 'Bench GmbH',
      registerLinkName: /Create an account|Neues Konto/,
    });
    await signUp.close();

    // A returning user: the token is stored, the browser cache is cold.
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    const pending: Promise<Script>[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() !== 'script') return;
      const file = new URL(response.url()).pathname;
      pending.push(
        response.allHeaders().then((headers) => {
          const raw = readFileSync(path.join(dist, file));
          // The body as sent is the build's copy for the encoding the server chose.
          const copy = { br: '.br', gzip: '.gz' }[headers['content-encoding'] ?? ''];
          return {
            file,
            sentBytes: copy ? statSync(path.join(dist, file + copy)).size : raw.length,
            gzipBytes: gzipSync(raw, { level: 9 }).length,
            rawBytes: raw.length,
          };
        }),
      );
    });
    await page.goto(`${server.baseURL}/units`);
    await page.getByTestId('units-empty').waitFor();
    await page.waitForLoadState('networkidle');
    const scripts = await Promise.all(pending);
    const sum = (key: keyof Omit<Script, 'file'>) => scripts.reduce((total, s) => total + s[key], 0);
    const gzip = sum('gzipBytes') / 1024;
    console.log(
      `operator app, JS to render /units signed in: ${scripts.length} files, ${kib(sum('gzipBytes'))} KiB gzip -9, ${kib(sum('sentBytes'))} KiB as sent, ${(sum('rawBytes') / 1000).toFixed(0)} KB raw (load ${os.loadavg()[0]?.toFixed(1)})`,
    );
    console.log(
      `  before: ${BEFORE.rawKB} KB raw, ${BEFORE.gzipKiB} KiB gzip, sent uncompressed → now ${(gzip / BEFORE.gzipKiB).toFixed(2)}× the gzip, ${(sum('sentBytes') / 1000 / BEFORE.rawKB).toFixed(2)}× the bytes sent`,
    );
    console.log(`  target ≤ ${TARGET_GZIP_KIB} KiB gzip: ${gzip <= TARGET_GZIP_KIB ? 'PASS' : 'MISSED'}`);
    for (const script of [...scripts].sort((a, b) => b.gzipBytes - a.gzipBytes).slice(0, 8)) {
      console.log(`    ${kib(script.gzipBytes).padStart(6)} KiB  ${script.file}`);
    }
    await context.close();
  } finally {
    await browser.close();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();

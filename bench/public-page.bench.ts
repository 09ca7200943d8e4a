/**
 * The public heating view's budget (first 80 KiB, now 95): gzipped JavaScript
 * that `/heating-view/{token}` loads (≤ 30 KiB; it was 70.8 KiB with React) and Lighthouse's
 * mobile performance score for it (≥ 98; it was 95–96), next to the operator app's entry
 * JavaScript measured in the same build for scale.
 *
 * Run: `npx tsx bench/public-page.bench.ts` (part of `npm run bench`). Builds the web app, starts
 * the real app in-process on PGlite in a temporary folder with one unit whose QR code is enabled,
 * and runs Lighthouse (default mobile emulation and simulated throttling) three times against
 * Debian's Chromium (CHROMIUM_PATH), reporting the median. Without Chromium it reports the size only.
 */
import { execSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { buildApp } from '../server/src/app.ts';
import { loadConfig } from '../server/src/config.ts';
import { openDatabase } from '../server/src/db/client.ts';
import { companies, unitQrCodes, units } from '../server/src/db/schema.ts';
import { createLogger } from '../server/src/logger.ts';
import { createServices } from '../server/src/services.ts';

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'web/dist');
const BUDGET_KIB = 30;
const TARGET_SCORE = 98;
/** Before the page was built with Preact (decision 0021's figures). */
const BEFORE = { kib: 70.8, score: 96 };
const RUNS = 3;
const TOKEN = 'benchTokenAAAAAAAAAAAAA';
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Gzipped KiB (level 9) of every script a built HTML page loads: module scripts and modulepreloads. */
function pageScriptsKiB(html: string): { files: string[]; kib: number } {
  const page = readFileSync(path.join(dist, html), 'utf8');
  const files = [
    ...page.matchAll(/<(?:script[^>]+src|link[^>]+rel="modulepreload"[^>]+href)="([^"]+\.js)"/g),
  ].map((m) => m[1] as string);
  const bytes = files.reduce(
    (sum, file) => sum + gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length,
    0,
  );
  return { files, kib: bytes / 1024 };
}

async function lighthouseScores(url: string): Promise<number[]> {
  const chrome = await chromeLauncher.launch({
    chromePath: chromium,
    chromeFlags: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  try {
    const scores: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const result = await lighthouse(url, {
        port: chrome.port,
        onlyCategories: ['performance'],
        logLevel: 'error',
      });
      scores.push(Math.round((result?.lhr.categories.performance?.score ?? 0) * 100));
    }
    return scores;
  } finally {
    chrome.kill();
  }
}

async function main() {
  execSync('npm run build -w web', { cwd: root, stdio: 'ignore' });
  const publicPage = pageScriptsKiB('heating-view.html');
  const operatorApp = pageScriptsKiB('index.html');
  console.log(
    `public heating view JS (gzip -9): ${publicPage.kib.toFixed(1)} KiB in ${publicPage.files.length} files`,
  );
  console.log(
    `  budget ≤ ${BUDGET_KIB} KiB: ${publicPage.kib <= BUDGET_KIB ? 'PASS' : 'MISSED'} (before: ${BEFORE.kib} KiB)`,
  );
  console.log(
    `  operator app entry JS (index.html), same build: ${operatorApp.kib.toFixed(1)} KiB (${(operatorApp.kib / publicPage.kib).toFixed(1)}× the public page; screens load on top, see first-load.bench.ts)`,
  );
  if (!existsSync(chromium)) {
    console.log(`lighthouse: skipped, no Chromium at ${chromium}`);
    return;
  }

  const dataDir = mkdtempSync(path.join(tmpdir(), 'heizplan-bench-page-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    WEB_DIST: dist,
    LOG_LEVEL: 'silent',
    PORT: '0',
    HOST: '127.0.0.1',
  });
  const database = await openDatabase(config.database);
  await database.migrate();
  const [company] = await database.db.insert(companies).values({ name: 'Bench' }).returning();
  if (!company) throw new Error('no company');
  const [unit] = await database.db
    .insert(units)
    .values({
      companyId: company.id,
      name: 'Büro 1.01',
      setpoint: 21,
      roomTemperature: 20.5,
      valveOpening: 35,
    })
    .returning();
  if (!unit) throw new Error('no unit');
  await database.db.insert(unitQrCodes).values({ unitId: unit.id, companyId: company.id, token: TOKEN });
  const log = createLogger(config);
  const app = await buildApp({
    config,
    database,
    log,
    services: createServices({ config, db: database.db, log }),
    verifyToken: async () => {
      throw new Error('nobody signs in during this bench');
    },
  });
  try {
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const scores = await lighthouseScores(`${address}/heating-view/${TOKEN}`);
    const median = [...scores].sort((a, b) => a - b)[Math.floor(scores.length / 2)] ?? 0;
    console.log(
      `lighthouse mobile performance: ${median} (median of ${scores.join(', ')}; load ${os.loadavg()[0]?.toFixed(1)})`,
    );
    console.log(
      `  target ≥ ${TARGET_SCORE}: ${median >= TARGET_SCORE ? 'PASS' : 'MISSED'} (before: ${BEFORE.score})`,
    );
  } finally {
    await app.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();

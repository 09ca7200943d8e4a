#!/usr/bin/env node
/**
 * `npm test` after lint and typecheck: makes sure Chromium is there for the browser journeys
 * (Debian's package, installed with apt-get when running as root), builds the web app the
 * journeys load, runs every vitest project, and prints one closing line
 * "tests: N passed, N failed" that CI reads.
 */
import { execSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(CHROMIUM)) {
  if (process.getuid?.() !== 0) {
    console.error(`Chromium is missing at ${CHROMIUM}; install Debian's "chromium" package (needs root).`);
    process.exit(1);
  }
  console.log('Installing Chromium from Debian for the browser journeys …');
  execSync('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium', {
    stdio: 'inherit',
  });
}

execSync('npm run build -w web', { stdio: 'inherit' });

const results = '.vitest-results.json';
rmSync(results, { force: true });
const run = spawnSync(
  'npx',
  [
    'vitest',
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${results}`,
    ...process.argv.slice(2),
  ],
  { stdio: 'inherit' },
);
if (existsSync(results)) {
  const r = JSON.parse(readFileSync(results, 'utf8'));
  console.log(`\ntests: ${r.numPassedTests} passed, ${r.numFailedTests} failed`);
}
process.exit(run.status ?? 1);

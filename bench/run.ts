/**
 * `npm run bench`: runs every `bench/*.bench.ts` (or the files named on the command line) in its
 * own tsx process, one after another so they do not compete for the CPU, prints each file's
 * figures and a summary. Exits non-zero when a bench file fails to run. Benches report their own
 * targets and a baseline measured in the same run; timings never fail the test suite.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const benchDir = dirname(fileURLToPath(import.meta.url));
const root = dirname(benchDir);
const named = process.argv.slice(2);
const files = (
  named.length > 0
    ? named
    : readdirSync(benchDir)
        .filter((name) => name.endsWith('.bench.ts'))
        .sort()
).map((name) => (name.includes('/') ? join(root, name) : join(benchDir, name)));
const tsx = join(root, 'node_modules', '.bin', 'tsx');

const failed: string[] = [];
for (const file of files) {
  const name = relative(root, file);
  console.log(`\n=== ${name}`);
  const started = Date.now();
  const result = spawnSync(tsx, [file], { cwd: root, stdio: 'inherit', env: process.env });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (result.status === 0) console.log(`=== ${name}: done in ${seconds} s`);
  else {
    failed.push(name);
    console.log(`=== ${name}: FAILED (exit ${result.status ?? result.signal}) after ${seconds} s`);
  }
}
console.log(
  `\n${files.length - failed.length}/${files.length} bench files ran${failed.length ? `; failed: ${failed.join(', ')}` : ''}`,
);
process.exitCode = failed.length > 0 ? 1 : 0;

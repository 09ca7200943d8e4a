#!/usr/bin/env node
/**
 * `npm test`: the whole suite, or what the arguments name.
 *
 * Without arguments (CI, `.ci/run`): lint and type checks, Chromium for the browser journeys
 * (Debian's package, installed with apt-get when running as root), the web build the journeys
 * load, then two vitest runs side by side — the browser journeys one file after another, and
 * every other project three files at a time — so the journeys no longer wait until the rest is
 * done (docs/decisions/0065-a-suite-that-answers-the-same.md). It prints one closing line
 * "tests: N passed, N failed" that CI reads.
 *
 * With arguments (`npm run test -- server/src/heating`, `npm run test -- --project web`): only
 * vitest with them, after the web build when a journey is among them; no lint, no type checks.
 */
import { execSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';

/**
 * How long a vitest run may go without a test or file ending before it counts as stalled: the
 * slowest test here takes about two minutes with a CPU hog on both cores (a journey server's
 * first start), so ten minutes without any ending means a worker whose event loop is blocked,
 * which no vitest timeout can end (scripts/vitest-progress.mjs).
 */
const STALL_MS = Number(process.env.HEIZPLAN_TEST_STALL_MINUTES ?? 10) * 60_000;

const args = process.argv.slice(2);
const full = args.length === 0;
const journeys = full || args.some((a) => a.includes('e2e')) || !args.some((a) => !a.startsWith('-'));

/** Runs `command` with its output passed through; resolves with its exit code. */
const run = (command, commandArgs) =>
  new Promise((resolve) => {
    const child = spawn(command, commandArgs, { stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });

/** Debian's Chromium for the journeys, then the web build they load. @returns whether both are there. */
async function prepareJourneys() {
  const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(chromium)) {
    if (process.getuid?.() !== 0) {
      console.error(`Chromium is missing at ${chromium}; install Debian's "chromium" package (needs root).`);
      return false;
    }
    console.log('Installing Chromium from Debian for the browser journeys …');
    execSync('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium', {
      stdio: 'inherit',
    });
  }
  return (await run('npm', ['run', 'build', '-w', 'web'])) === 0;
}

if (full) {
  // Lint and type checks side by side: a few seconds each, mostly on one core.
  const checks = await Promise.all([run('npm', ['run', 'lint']), run('npm', ['run', 'typecheck'])]);
  if (checks.some((code) => code !== 0)) process.exit(1);
}

/** Runs vitest with `extra` arguments; its lines get `prefix`. @returns exit code and results. */
function vitest(name, extra, prefix = '') {
  const results = `.vitest-results-${name}.json`;
  const progress = `.vitest-progress-${name}.jsonl`;
  rmSync(results, { force: true });
  rmSync(progress, { force: true });
  const child = spawn(
    'npx',
    [
      'vitest',
      'run',
      '--reporter=default',
      '--reporter=json',
      '--reporter=./scripts/vitest-progress.mjs',
      `--outputFile.json=${results}`,
      ...extra,
    ],
    {
      stdio: ['ignore', prefix ? 'pipe' : 'inherit', prefix ? 'pipe' : 'inherit'],
      env: { ...process.env, HEIZPLAN_TEST_PROGRESS: progress },
      // A group of its own, so that a stalled run ends with every worker it started.
      detached: true,
    },
  );
  children.add(child);
  const watchdog = watch(child, progress, prefix || `${name} │ `);
  if (prefix) {
    for (const [from, to] of [
      [child.stdout, process.stdout],
      [child.stderr, process.stderr],
    ]) {
      let rest = '';
      from.on('data', (chunk) => {
        const lines = (rest + chunk).split('\n');
        rest = lines.pop() ?? '';
        for (const line of lines) to.write(`${prefix}${line}\n`);
      });
      from.on('end', () => rest && to.write(`${prefix}${rest}\n`));
    }
  }
  return new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      clearInterval(watchdog.timer);
      children.delete(child);
      const r = existsSync(results) ? JSON.parse(readFileSync(results, 'utf8')) : null;
      resolve({
        name,
        stalled: watchdog.stalled,
        code: code ?? (signal ? 1 : 0),
        passed: r?.numPassedTests ?? 0,
        // A file whose hooks failed has no failed test, yet it failed: it counts as one.
        failed:
          (r?.numFailedTests ?? 0) +
          (r?.testResults ?? []).filter(
            (file) => file.status === 'failed' && !file.assertionResults.some((a) => a.status === 'failed'),
          ).length,
        ran: Boolean(r),
      });
    });
  });
}

/** The vitest runs still going, so that an interrupted `npm test` ends them too. */
const children = new Set();
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const child of children) killGroup(child);
    process.exit(130);
  });
}

/** Ends `child`'s process group, its workers included. */
function killGroup(child) {
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/**
 * Checks every 15 s whether the run behind `child` still makes progress (`progress`, the
 * reporter's lines). After STALL_MS without any test or file ending it prints the files and
 * tests that started and never ended, with the processes' CPU use (a blocked loop spins at 100 %),
 * and ends the run, which then counts as failed.
 */
function watch(child, progress, prefix) {
  const started = Date.now();
  const state = { stalled: false, timer: undefined };
  state.timer = setInterval(() => {
    const lines = existsSync(progress)
      ? readFileSync(progress, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line))
      : [];
    const lastEnd = Math.max(started, ...lines.filter((l) => l.event.endsWith('-end')).map((l) => l.at));
    if (Date.now() - lastEnd < STALL_MS) return;
    state.stalled = true;
    clearInterval(state.timer);
    const open = new Map();
    for (const l of lines) {
      const key = `${l.project} ${l.file}${l.test ? ` › ${l.test}` : ''}`;
      if (l.event.endsWith('-start')) open.set(key, l.at);
      else open.delete(key);
    }
    console.error(`${prefix}STALLED: nothing ended for ${STALL_MS / 60_000} min; still running:`);
    for (const [key, at] of open)
      console.error(`${prefix}  ${key} (since ${Math.round((Date.now() - at) / 1000)} s)`);
    try {
      console.error(execSync(`ps -o pid,pcpu,etime,args -g ${child.pid}`, { encoding: 'utf8' }));
    } catch {
      // ps is optional
    }
    killGroup(child);
  }, 15_000);
  return state;
}

// server-postgres exists only when TEST_DATABASE_URL is set (vitest.config.ts).
const projects = [
  'unit',
  'server',
  ...(process.env.TEST_DATABASE_URL ? ['server-postgres'] : []),
  'web',
  'web-isolated',
  // The time-sensitive files again at fixed instants (vitest.config.ts, INSTANTS).
  'server@*',
  'web@*',
];
/** A journeys' run: after the web build, which goes on while the other projects already run. */
async function journeyRun(name, extra, prefix) {
  if (!(await prepareJourneys())) return { name, code: 1, passed: 0, failed: 0, ran: false };
  return vitest(name, extra, prefix);
}

const runs = full
  ? await Promise.all([
      vitest(
        'main',
        projects.flatMap((p) => ['--project', p]),
      ),
      journeyRun('e2e', ['--project', 'e2e'], 'e2e │ '),
    ])
  : [journeys ? await journeyRun('selected', args, '') : await vitest('selected', args)];

const passed = runs.reduce((n, r) => n + r.passed, 0);
const failed = runs.reduce((n, r) => n + r.failed, 0);
for (const r of runs)
  if (r.stalled) console.log(`vitest (${r.name}) stalled and was stopped; see STALLED above`);
  else if (r.code !== 0)
    console.log(`vitest (${r.name}) exited with ${r.code}${r.ran ? '' : ' before writing results'}`);
console.log(`\ntests: ${passed} passed, ${failed} failed`);
process.exit(runs.every((r) => r.code === 0) ? 0 : 1);

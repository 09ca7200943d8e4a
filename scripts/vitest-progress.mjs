/**
 * A vitest reporter that writes what starts and ends, one JSON line each, to the file named by
 * HEIZPLAN_TEST_PROGRESS: `{ "at": epoch ms, "event": "file-start" | "file-end" | "test-start" |
 * "test-end", "project", "file" (repository-relative), "test"? }`.
 *
 * `npm test` (scripts/test.mjs) reads it to tell a slow run from a stalled one: a test that blocks
 * its worker's event loop outlives every vitest timeout, since those run on that same loop, and
 * the run would wait forever. With these lines the runner names the file and the test that never
 * ended, then stops the run (docs/decisions/0065-a-suite-that-answers-the-same.md).
 */
import { appendFileSync } from 'node:fs';
import path from 'node:path';

const target = process.env.HEIZPLAN_TEST_PROGRESS;

/** Appends one progress line; does nothing when no file is named. */
function write(event, project, moduleId, test) {
  if (!target) return;
  const file = path.relative(process.cwd(), moduleId).split(path.sep).join('/');
  appendFileSync(target, `${JSON.stringify({ at: Date.now(), event, project, file, test })}\n`);
}

export default class ProgressReporter {
  onTestModuleStart(testModule) {
    write('file-start', testModule.project.name, testModule.moduleId);
  }

  onTestModuleEnd(testModule) {
    write('file-end', testModule.project.name, testModule.moduleId);
  }

  onTestCaseReady(testCase) {
    write('test-start', testCase.project.name, testCase.module.moduleId, testCase.fullName);
  }

  onTestCaseResult(testCase) {
    write('test-end', testCase.project.name, testCase.module.moduleId, testCase.fullName);
  }
}

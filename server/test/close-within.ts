/**
 * Teardown that cannot hang (docs/architecture.md, "Tests"): every server, broker, proxy and
 * instance a test starts is closed through `closeWithin`, which waits at most `ms` and then
 * reports what did not close instead of holding the suite until the hook timeout.
 */

/** What did not close in time, for a test that wants to assert on it. */
export const unclosed: string[] = [];

/**
 * Runs `close` and resolves when it settles or after `ms` (default 10 s), whichever is first.
 * A close that fails or overruns is written to stderr with `what`, never thrown: one stuck
 * resource must not keep the others of the same teardown open.
 */
export async function closeWithin(what: string, close: () => Promise<unknown>, ms = 10_000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const overrun = new Promise<'overrun'>((resolve) => {
    timer = setTimeout(() => resolve('overrun'), ms);
    timer.unref();
  });
  try {
    const result = await Promise.race([close().then(() => 'closed' as const), overrun]);
    if (result === 'overrun') {
      unclosed.push(what);
      process.stderr.write(`teardown: ${what} did not close within ${ms} ms; going on without it\n`);
    }
  } catch (err) {
    process.stderr.write(`teardown: closing ${what} failed: ${String(err)}\n`);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Runs a job now and every `intervalMs`, never two runs of it at once in this process; a failed
 * run is logged and the next one tries again. Jobs make themselves safe across instances
 * (row locks with `skip locked`, advisory locks), so every instance may run every job.
 */
export function startPeriodic(
  name: string,
  intervalMs: number,
  run: () => Promise<unknown>,
  log: { error(obj: object, msg: string): void },
): () => void {
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      await run();
    } catch (err) {
      log.error({ err, job: name }, `${name} failed`);
    } finally {
      running = false;
    }
  };
  void tick();
  const timer = setInterval(() => void tick(), intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
